import { describe, expect, it } from 'vitest';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed, sign } from '@shared/crypto/ed25519';
import { withBulkCheck } from './bulk-check';

const keys = keyPairFromSeed(new Uint8Array(32).fill(9));
const did = encodeDidKey(keys.publicKey);
const message = (i: number) => new TextEncoder().encode(`message ${i}`);
const signed = Array.from({ length: 7 }, (_, i) => ({
  message: message(i),
  signature: sign(message(i), keys.secretKey),
}));

describe('withBulkCheck', () => {
  it('answers the second run from batch results: valid stays valid, a wrong message or key fails', async () => {
    const progress: Array<[number, number]> = [];
    const verdicts = await withBulkCheck(
      (check) => [
        ...signed.map((s) => check(did, s.message, s.signature)),
        check(did, message(99), signed[0]!.signature),
        check('did:key:not-a-key', signed[0]!.message, signed[0]!.signature),
      ],
      { batch: 3, onProgress: (done, total) => progress.push([done, total]) },
    );
    expect(verdicts).toEqual([true, true, true, true, true, true, true, false, false]);
    expect(progress).toEqual([
      [3, 9],
      [6, 9],
      [9, 9],
    ]);
  });

  it('checks with noble what the first run did not ask (the recording never decides)', async () => {
    let runs = 0;
    const verdict = await withBulkCheck((check) => {
      runs += 1;
      // Asks something only on the second run: it must still get a real answer.
      return runs === 1 ? true : check(did, message(1), signed[0]!.signature);
    });
    expect(verdict).toBe(false);
  });
});
