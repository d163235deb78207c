// The short form of a did:key, on its own: the timeline and audit screens show it, and they
// should not load the Ed25519 and hashing code that did-display.ts needs for fingerprints.

/** `did:key:z6Mk…` plus the last six characters, which differ from key to key. */
export function shortDid(did: string): string {
  if (did.length <= 24) return did;
  return `${did.slice(0, 12)}…${did.slice(-6)}`;
}
