// OACoP over Agora (Agora envelopes play OATP's role). An OACoP
// message rides as the `params` of a signed Agora REQUEST whose intent is `oacop.<type>`; the
// envelope's signer is the message's `from` and its recipient the addressee
// (docs/decisions-oacop.md §A1). Besides the six §7 messages, two project messages ride the same
// way: `OACoPError` (§5 "an OACoPError is sent (via OATP)", whose body §5 does not define) and
// `OACoPReceipt` (a participant saying it applied a revision, so the console can show each
// participant's revision).
import { z } from 'zod';
import { fail, ok, type Result } from '../errors';
import { OacopErrorCode, OacopLocalErrorCode } from './error-codes';
import type { OacopMessage } from './messages';
import { validateMessage } from './validate-message';

export const OACOP_INTENT_PREFIX = 'oacop.';

const ThreadId = z.string().min(1).max(1024);

/** §5: the body of an `OACoPError`; `inReplyTo` is the id of the envelope that was refused. */
export const OacopErrorMessage = z.strictObject({
  type: z.literal('OACoPError'),
  threadId: ThreadId,
  code: z.enum([...Object.values(OacopErrorCode), ...Object.values(OacopLocalErrorCode)]),
  message: z.string().max(2000),
  inReplyTo: z.string().min(1).max(256),
  /** The revision the refusing side holds, so the sender can synchronize (§5 "Synchronize state"). */
  revision: z.int().min(0).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type OacopErrorMessage = z.infer<typeof OacopErrorMessage>;

/** A participant applied `revision` of the thread (a Confirm or Cancel) and holds `status`. */
export const OacopReceipt = z.strictObject({
  type: z.literal('OACoPReceipt'),
  threadId: ThreadId,
  revision: z.int().min(1),
  status: z.enum(['CONFIRMED', 'CANCELLED']),
});
export type OacopReceipt = z.infer<typeof OacopReceipt>;

export type CarriedMessage = OacopMessage | OacopErrorMessage | OacopReceipt;

/** The Agora REQUEST payload carrying `message`; `requestId` is usually the envelope's id. */
export function carrierPayload(
  message: CarriedMessage,
  requestId: string,
): { request_id: string; intent: string; params: CarriedMessage } {
  return { request_id: requestId, intent: `${OACOP_INTENT_PREFIX}${message.type}`, params: message };
}

interface EnvelopeLike {
  readonly type: string;
  readonly payload: unknown;
}

/** True for an Agora envelope that carries an OACoP message (whatever its validity). */
export function isOacopCarrier(envelope: EnvelopeLike): boolean {
  if (envelope.type !== 'REQUEST') return false;
  const intent = (envelope.payload as { intent?: unknown } | null)?.intent;
  return typeof intent === 'string' && intent.startsWith(OACOP_INTENT_PREFIX);
}

/**
 * The carried message, validated: the intent must name the message's own type, the six §7
 * messages go through `validateMessage` (both schemas and the cross-field rules), the two project
 * messages through their schemas. `OACOP_INVALID_MESSAGE` otherwise.
 */
export function readCarrier(envelope: EnvelopeLike): Result<CarriedMessage> {
  if (!isOacopCarrier(envelope))
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'Not an OACoP carrier (a REQUEST with intent oacop.<type>).');
  const payload = envelope.payload as { intent: string; params?: unknown };
  const params = payload.params;
  const type = (params as { type?: unknown } | null | undefined)?.type;
  if (payload.intent !== `${OACOP_INTENT_PREFIX}${String(type)}`) {
    return fail(
      OacopLocalErrorCode.INVALID_MESSAGE,
      `The intent ${payload.intent} does not name the carried message type.`,
      { intent: payload.intent },
    );
  }
  if (type === 'OACoPError' || type === 'OACoPReceipt') {
    const parsed = (type === 'OACoPError' ? OacopErrorMessage : OacopReceipt).safeParse(params);
    if (!parsed.success) {
      return fail(OacopLocalErrorCode.INVALID_MESSAGE, `Malformed ${type}.`, {
        problems: parsed.error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message })),
      });
    }
    return ok(parsed.data);
  }
  return validateMessage(params);
}
