// How many bytes a message may carry on each §3 topic (decision AOR 20). §5.5's heartbeat is a
// timestamp and a one-line description, sent every few seconds; §3's work topic is an agent's
// scratch and tool output. Both are stored in room history on every publish, so each gets a cap
// of its own well under the 256 KiB envelope cap that bounds every other topic.
import { fail, ok, type Result } from '../errors';
import { MAX_ENVELOPE_BYTES } from './envelope';
import { parseTopic, type TopicKind } from './topics';

/** §5.5: a heartbeat envelope with a description of a few lines fits in a tenth of this. */
export const MAX_HEARTBEAT_BYTES = 4 * 1024;
/** §3 work: a page of tool output or notes; anything larger belongs behind an `artifact_link`. */
export const MAX_WORK_BYTES = 64 * 1024;

const LIMITS: Readonly<Record<TopicKind, number>> = {
  public: MAX_ENVELOPE_BYTES,
  public_candidates: MAX_ENVELOPE_BYTES,
  control: MAX_ENVELOPE_BYTES,
  inbox: MAX_ENVELOPE_BYTES,
  heartbeat: MAX_HEARTBEAT_BYTES,
  work: MAX_WORK_BYTES,
};

/** The cap in bytes on a §3 topic; undefined for a topic outside the map (the ACL's to refuse). */
export function payloadSizeLimit(topic: string): number | undefined {
  const parsed = parseTopic(topic);
  return parsed.ok ? LIMITS[parsed.value.kind] : undefined;
}

/** `payload_too_large` when `byteLength` is over the topic's cap, with the kind, cap and size. */
export function checkPayloadSize(topic: string, byteLength: number): Result<void> {
  const parsed = parseTopic(topic);
  if (!parsed.ok) return ok(undefined);
  const limit = LIMITS[parsed.value.kind];
  if (byteLength <= limit) return ok(undefined);
  return fail('payload_too_large', `A ${parsed.value.kind} message may carry at most ${limit} bytes; this one has ${byteLength}.`, {
    topicKind: parsed.value.kind, limit, size: byteLength,
  });
}
