import { describe, expect, it } from 'vitest';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { checkWatchDid } from './watch-did';

const did = (byte: number) => encodeDidKey(keyPairFromSeed(new Uint8Array(32).fill(byte)).publicKey);

describe('checkWatchDid', () => {
  it('accepts an Ed25519 did:key, trimmed', () => {
    expect(checkWatchDid(`  ${did(1)}\n`, [])).toEqual({ ok: true, did: did(1) });
  });

  it('refuses empty text, other DID methods and a did:key that does not decode', () => {
    expect(checkWatchDid('   ', [])).toMatchObject({ ok: false, problem: expect.stringContaining('Paste') });
    expect(checkWatchDid('did:web:example.org', [])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('Only did:key'),
    });
    expect(checkWatchDid(did(1).slice(0, -2), [])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not an Ed25519 did:key'),
    });
    expect(checkWatchDid('did:key:z1111', [])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not an Ed25519 did:key'),
    });
  });

  it('refuses a DID already watched, or an operator’s own', () => {
    expect(checkWatchDid(did(2), [did(2)])).toMatchObject({ ok: false, problem: 'This DID is watched already.' });
    expect(checkWatchDid(did(3), [], [did(3)])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('operator'),
    });
  });
});
