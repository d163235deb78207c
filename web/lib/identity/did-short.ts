// The short form of a did:key, on its own: the timeline and audit screens show it, and they
// should not load the Ed25519 and hashing code that did-display.ts needs for fingerprints. The
// server names operators the same way (shared/contract/operator-name.ts).
export { shortDid } from '@shared/contract/operator-name';
