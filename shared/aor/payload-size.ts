// How many bytes a message may carry on an agent's heartbeat and work topics (decision AOR 20). §5.5's heartbeat is a
// timestamp and a one-line description, sent every few seconds; §3's work topic is an agent's
// scratch and tool output. Both are stored in room history on every publish, so each gets a cap
// of its own well under the 256 KiB envelope cap (decision 16) that the gateway holds candidates to.
import { fail, ok, type Result } from '../errors';
import { parseTopic, type TopicKind } from './topics';

/** §5.5: a heartbeat envelope with a description of a few lines fits in a tenth of this. */
export const MAX_HEARTBEAT_BYTES = 4 * 1024;
/** §3 work: a page of tool output or notes; anything larger belongs behind an `artifact_link`. */
export const MAX_WORK_BYTES = 64 * 1024;

const FITS = ok(undefined);

const LIMITS: Readonly<Partial<Record<TopicKind, number>>> = { heartbeat: MAX_HEARTBEAT_BYTES, work: MAX_WORK_BYTES };

/**
 * The cap in bytes on an agent's heartbeat or work topic. Undefined for every other topic: a
 * candidate over the envelope cap gets the gateway's coded reject (decision 16), which a refusal
 * by the broker would take from the agent, and operators' envelopes are checked where they are read.
 */
export function payloadSizeLimit(topic: string): number | undefined {
  const parsed = parseTopic(topic);
  return parsed.ok ? LIMITS[parsed.value.kind] : undefined;
}

/** `payload_too_large` when `byteLength` is over the topic's cap, with the kind, cap and size. */
export function checkPayloadSize(topic: string, byteLength: number): Result<void> {
  // The broker asks on every publish: under the smaller cap, or on no capped topic, nothing is parsed.
  if (byteLength <= MAX_HEARTBEAT_BYTES || !(topic.endsWith('/heartbeat') || topic.endsWith('/work'))) return FITS;
  const parsed = parseTopic(topic);
  const limit = parsed.ok ? LIMITS[parsed.value.kind] : undefined;
  if (!parsed.ok || limit === undefined || byteLength <= limit) return FITS;
  return fail(
    'payload_too_large',
    `A ${parsed.value.kind} message may carry at most ${limit} bytes; this one has ${byteLength}.`,
    {
      topicKind: parsed.value.kind,
      limit,
      size: byteLength,
    },
  );
}
