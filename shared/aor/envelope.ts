// AOR §4 canonical envelope, as one union keyed on `type` (§5), and the byte-level parser every
// AOR message goes through first.
import { z } from 'zod';
import { fail, ok, type Result } from '../errors';
import { fromUtf8 } from '../crypto/bytes';
import { AorId, isValidId } from './ids';
import {
  HeartbeatPayload,
  MicGrantPayload,
  MicRevokePayload,
  RejectPayload,
  ResultPayload,
  SayPayload,
  TaskPayload,
} from './payloads';
import { parseStrictJson } from './strict-json';
import { UnixSeconds } from './time';

/** Largest envelope accepted, in UTF-8 bytes. Bounds every text field without a limit of its own. */
export const MAX_ENVELOPE_BYTES = 256 * 1024;

export const SENDER_KINDS = ['user', 'agent', 'system'] as const;
export const From = z.strictObject({ kind: z.enum(SENDER_KINDS), id: AorId });
export type From = z.infer<typeof From>;

const base = { id: AorId, room_id: AorId, from: From, ts: UnixSeconds };

// Top level and `from` are closed: the spec lists every field, so an unknown one is a mistake
// (a misspelt `roomId`, say) that should fail loudly rather than travel on.
const envelopeOf = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.strictObject({ ...base, type: z.literal(type), payload });

export const SayEnvelope = envelopeOf('say', SayPayload);
export const TaskEnvelope = envelopeOf('task', TaskPayload);
export const MicGrantEnvelope = envelopeOf('mic_grant', MicGrantPayload);
export const MicRevokeEnvelope = envelopeOf('mic_revoke', MicRevokePayload);
export const HeartbeatEnvelope = envelopeOf('heartbeat', HeartbeatPayload);
export const ResultEnvelope = envelopeOf('result', ResultPayload);
export const RejectEnvelope = envelopeOf('reject', RejectPayload);

export const Envelope = z.discriminatedUnion('type', [
  SayEnvelope,
  TaskEnvelope,
  MicGrantEnvelope,
  MicRevokeEnvelope,
  HeartbeatEnvelope,
  ResultEnvelope,
  RejectEnvelope,
]);

export type SayEnvelope = z.infer<typeof SayEnvelope>;
export type TaskEnvelope = z.infer<typeof TaskEnvelope>;
export type MicGrantEnvelope = z.infer<typeof MicGrantEnvelope>;
export type MicRevokeEnvelope = z.infer<typeof MicRevokeEnvelope>;
export type HeartbeatEnvelope = z.infer<typeof HeartbeatEnvelope>;
export type ResultEnvelope = z.infer<typeof ResultEnvelope>;
export type RejectEnvelope = z.infer<typeof RejectEnvelope>;
export type Envelope = z.infer<typeof Envelope>;
export type EnvelopeType = Envelope['type'];
export type EnvelopeOf<T extends EnvelopeType> = Extract<Envelope, { type: T }>;

export const ENVELOPE_TYPES = [
  'say',
  'task',
  'mic_grant',
  'mic_revoke',
  'heartbeat',
  'result',
  'reject',
] as const satisfies readonly EnvelopeType[];

/** What was wrong with bytes that are not an envelope; in `error.details.problem`. */
export type EnvelopeProblem = 'too_large' | 'invalid_utf8' | 'invalid_json' | 'duplicate_key' | 'schema';

export interface EnvelopeIssue {
  readonly path: string;
  readonly message: string;
}

const LONE_SURROGATE = /\p{Cs}/u;
const encoder = new TextEncoder();

const invalid = (problem: EnvelopeProblem, message: string, extra: Record<string, unknown> = {}) =>
  fail('invalid_envelope', message, { problem, ...extra });

/**
 * Bytes (or text) to an envelope. Every failure has code `invalid_envelope`, with
 * `details.problem` naming the stage and, once the JSON parsed, the `messageId` and `taskId`
 * it carried if they are valid ids, so a reject can still point at the message (AOR §5.7).
 */
export function parseEnvelope(input: Uint8Array | string): Result<Envelope> {
  let text: string;
  if (typeof input === 'string') {
    // A UTF-16 code unit never encodes to fewer than one byte, so the cheap test comes first.
    if (input.length > MAX_ENVELOPE_BYTES || encoder.encode(input).length > MAX_ENVELOPE_BYTES) {
      return invalid('too_large', `Envelope exceeds ${MAX_ENVELOPE_BYTES} bytes.`);
    }
    if (LONE_SURROGATE.test(input)) return invalid('invalid_utf8', 'Envelope text holds a lone surrogate.');
    text = input;
  } else if (input instanceof Uint8Array) {
    if (input.length > MAX_ENVELOPE_BYTES) return invalid('too_large', `Envelope exceeds ${MAX_ENVELOPE_BYTES} bytes.`);
    try {
      text = fromUtf8(input);
    } catch {
      return invalid('invalid_utf8', 'Envelope bytes are not valid UTF-8.');
    }
  } else {
    throw new TypeError('parseEnvelope expects a Uint8Array or a string');
  }

  const json = parseStrictJson(text);
  if (!json.ok) return invalid(json.error.code, json.error.message);

  const parsed = Envelope.safeParse(json.value);
  if (parsed.success) return ok(parsed.data);
  const issues = parsed.error.issues.map((issue): EnvelopeIssue => ({
    path: formatPath(issue.path),
    message: issue.message,
  }));
  const summary = issues
    .slice(0, 3)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
  return invalid('schema', `Not an AOR envelope: ${summary}`, { issues, ...idsOf(json.value) });
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(envelope)';
  return path.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)),
    '',
  );
}

/** The message and task ids of something that failed the schema, where they are usable. */
function idsOf(value: unknown): { messageId?: string; taskId?: string } {
  const out: { messageId?: string; taskId?: string } = {};
  if (!isRecord(value)) return out;
  if (isValidId(value.id)) out.messageId = value.id;
  if (isRecord(value.payload) && isValidId(value.payload.task_id)) out.taskId = value.payload.task_id;
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
