// Ed25519 verification rates side by side in one process: noble (strict, pure JS) against
// node:crypto with a cached KeyObject. The ratio is why the server verifies with node:crypto.
// Run: npm run bench:crypto
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { generateKeyPair, sign, verify as nobleVerify } from '../shared/crypto/ed25519';
import { canonicalBytes } from '../shared/crypto/jcs';
import { printBenchResult } from './bench-result';

const keys = generateKeyPair();
const message = canonicalBytes({
  version: '1.0',
  type: 'REQUEST',
  payload: { intent: 'translation.en_zh', params: { text: 'Hello world' } },
});
const signature = sign(message, keys.secretKey);
const keyObject = createPublicKey({
  key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), keys.publicKey]),
  format: 'der',
  type: 'spki',
});

function rate(label: string, fn: () => boolean, seconds = 2): number {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) if (!fn()) throw new Error(`${label} refused a valid signature`);
    n += 50;
  }
  const perSecond = n / ((performance.now() - start) / 1000);
  console.log(`${label.padEnd(34)} ${Math.round(perSecond).toLocaleString('en-US').padStart(8)} verifications/s`);
  return perSecond;
}

const node = rate('node:crypto (cached KeyObject)', () => nodeVerify(null, message, keyObject, signature));
const noble = rate('@noble/ed25519 (zip215: false)', () => nobleVerify(signature, message, keys.publicKey));
console.log(`ratio noble / node:crypto: ${(noble / node).toFixed(3)} (${(node / noble).toFixed(1)}x)`);
printBenchResult('crypto', [
  {
    metric: '@noble/ed25519 verifications (zip215: false)',
    value: noble,
    unit: '/s',
    baseline: 'node:crypto, cached KeyObject',
    baselineValue: node,
  },
]);
