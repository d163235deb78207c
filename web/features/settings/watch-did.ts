// Checks a DID typed into the watch list before it is sent: the relay's senders are Ed25519
// did:keys (Agora v1.0 "Identity"), so anything else could never match an envelope.
import { isDidKey } from '@shared/crypto/did-key';

export type WatchInput = { readonly ok: true; readonly did: string } | { readonly ok: false; readonly problem: string };

export function checkWatchDid(text: string, watched: readonly string[], operators: readonly string[] = []): WatchInput {
  const did = text.trim();
  if (did === '') return { ok: false, problem: 'Paste the did:key of the agent or person to follow.' };
  if (!did.startsWith('did:key:z'))
    return { ok: false, problem: 'Only did:key identities can be watched (they start with did:key:z).' };
  if (!isDidKey(did)) return { ok: false, problem: 'This is not an Ed25519 did:key: check that it was copied whole.' };
  if (watched.includes(did)) return { ok: false, problem: 'This DID is watched already.' };
  if (operators.includes(did))
    return { ok: false, problem: 'This is an operator’s DID, which the console follows anyway.' };
  return { ok: true, did };
}
