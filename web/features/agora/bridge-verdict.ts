// What the console says about each envelope bridged from an external relay. Two
// checks stand between an envelope and an action: the bridge's (the relay pipeline, at this
// console's clock) and this browser's signature check. An envelope either one refuses is shown
// as unverifiable and never acted on.

export interface BridgeNote {
  /** `untrusted`: the bridge refused it; `not-applied`: trusted, but the thread machine refused it. */
  readonly kind: 'untrusted' | 'not-applied';
  readonly words: string;
}

const REASONS: Record<string, string> = {
  signature_invalid: 'its signature does not verify against sender.id',
  signature_malformed: 'its sig is not an Ed25519 signature',
  signer_invalid: 'sender.id is not an Ed25519 did:key',
  schema_invalid: 'it is not a valid Agora envelope',
  version_mismatch: 'it is not an Agora 1.0 envelope',
  timestamp_too_old: 'its time was more than 5 minutes old when it arrived here',
  timestamp_in_future: 'its time was more than 5 minutes ahead when it arrived here',
  ttl_expired: 'it had expired when it arrived here',
  id_conflict: 'another envelope with the same id arrived first',
};

const reasonWords = (reason: string | null): string =>
  reason === null ? 'no reason given' : `${REASONS[reason] ?? 'refused'} (${reason})`;

/** Null when the envelope was trusted and applied: nothing to add to the browser's verdict. */
export function bridgeNote(event: {
  readonly trusted: boolean;
  readonly applied: boolean;
  readonly reason: string | null;
}): BridgeNote | null {
  if (!event.trusted)
    return {
      kind: 'untrusted',
      words: `Unverifiable: the bridge did not trust it, ${reasonWords(event.reason)}. It is shown, never applied or acted on.`,
    };
  if (!event.applied)
    return {
      kind: 'not-applied',
      words: `Not applied to the thread: ${event.reason ?? 'refused by the thread machine'}.`,
    };
  return null;
}
