// One test, three verifiers: noble (shared/, strict RFC 8032), node:crypto (the server's) and
// Chromium's WebCrypto (the browser's bulk path) must give the same verdict on every vector.
import { expect, test } from './support/test';
import { generateKeyPair, sign, verify as nobleVerify } from '../shared/crypto/ed25519';
import { loadWycheproofCases } from '../shared/crypto/test-support/wycheproof';
import { verifyWithNode } from '../server/crypto/node-verifier';
import { readVectorJson } from '../shared/test-support/vectors';
import { fromHex } from '../shared/crypto/bytes';
import { webCryptoVerifyBatch } from '../web/lib/crypto/webcrypto-verify';

interface Rfc8032Case {
  publicKey: string;
  message: string;
  signature: string;
}

test('noble, node:crypto and WebCrypto agree on RFC 8032 and every Wycheproof case', async ({ page }) => {
  const keys = generateKeyPair();
  const own = Uint8Array.of(1, 2, 3);
  const cases = [
    ...readVectorJson<Rfc8032Case[]>('ed25519/rfc8032-section-7.1.json').map((c, i) => ({
      name: `RFC 8032 TEST ${i + 1}`,
      publicKey: fromHex(c.publicKey),
      message: fromHex(c.message),
      signature: fromHex(c.signature),
      expected: true,
    })),
    ...loadWycheproofCases().map((c) => ({ ...c, name: `Wycheproof ${c.tcId}` })),
    {
      name: 'fresh key, wrong message',
      publicKey: keys.publicKey,
      message: Uint8Array.of(1, 2, 4),
      signature: sign(own, keys.secretKey),
      expected: false,
    },
  ];
  expect(cases.length).toBe(3 + 151 + 1);

  await page.goto('/');
  const webVerdicts = await page.evaluate(
    webCryptoVerifyBatch,
    cases.map((c) => ({
      publicKey: Array.from(c.publicKey),
      message: Array.from(c.message),
      signature: Array.from(c.signature),
    })),
  );
  expect(webVerdicts, 'Chromium must support Ed25519 in WebCrypto').not.toBeNull();

  const table = cases.map((c, i) => ({
    name: c.name,
    expected: c.expected,
    noble: nobleVerify(c.signature, c.message, c.publicKey),
    node: verifyWithNode(c.signature, c.message, c.publicKey),
    webcrypto: webVerdicts?.[i],
  }));
  const disagreements = table.filter(
    (row) => row.noble !== row.expected || row.node !== row.expected || row.webcrypto !== row.expected,
  );
  expect(disagreements).toEqual([]);
});
