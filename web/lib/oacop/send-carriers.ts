// Sends one OACoP message the way the server expects it (README "Scheduling and tasks (OACoP)"):
// the `params` of an Agora REQUEST with intent `oacop.<type>`, `thread.id` = the OACoP threadId,
// one envelope per addressee, each signed in this browser with the operator's key.
import type { UnsignedEnvelopeOf } from '@shared/agora/envelope';
import { AGORA_VERSION } from '@shared/agora/envelope';
import { carrierPayload, type CarriedMessage } from '@shared/oacop/carrier';
import { postEnvelope } from '@web/lib/api/agora-event-post';
import { signAsOperator } from '@web/lib/identity/sign-agora-envelope';

export function buildCarrier(
  from: string,
  to: string,
  message: CarriedMessage,
  ctx: { now: number; newId: () => string },
): UnsignedEnvelopeOf<'REQUEST'> {
  const id = `msg_${ctx.newId()}`;
  return {
    version: AGORA_VERSION,
    id,
    ts: new Date(ctx.now).toISOString(),
    type: 'REQUEST',
    sender: { id: from, name: 'Switchboard operator' },
    recipient: { id: to },
    payload: carrierPayload(message, `req_${ctx.newId()}`) as never,
    thread: { id: message.threadId },
    meta: { ttl: 300, hop: 0 },
  } as UnsignedEnvelopeOf<'REQUEST'>;
}

/** Signs and posts `message` to every DID in `to`, in order; the first refusal stops and throws. */
export async function sendCarriers(message: CarriedMessage, to: readonly string[]): Promise<void> {
  for (const did of to) {
    const envelope = await signAsOperator(
      (from) => buildCarrier(from, did, message, { now: Date.now(), newId: () => crypto.randomUUID() }) as never,
    );
    await postEnvelope(envelope);
  }
}
