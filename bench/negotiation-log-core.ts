// The browser half of the log bench (bench/negotiation-browser.ts): bundled by Vite and run in
// Chromium over a log built in Node. Three measures over the same entries, in the same page:
// the console's whole check (`verifyChain` with signatures in WebCrypto batches, exactly as the
// log browser runs it: web/lib/negotiation/bulk-check.ts), and two baselines: SHA-256 of each
// entry's JCS link alone, and WebCrypto Ed25519 over the entries' signatures alone.
import { decodeDidKey } from '@shared/crypto/did-key';
import { canonicalBytes } from '@shared/crypto/jcs';
import { sha256 } from '@shared/crypto/sha256';
import { agreementSigningBytes } from '@shared/negotiation/agreement';
import { linkOf, verifyChain, type LogEntry } from '@shared/negotiation/transparency-log';
import { verifyBatch, type VerifyItem } from '@web/lib/crypto/webcrypto-verify';
import { withBulkCheck } from '@web/lib/negotiation/bulk-check';
import { decodeBase64url } from '@shared/crypto/base64url';

export interface LogFigures {
  readonly entries: number;
  readonly signatures: number;
  readonly hashMs: number;
  readonly signaturesMs: number;
  readonly wholeMs: number;
  readonly ok: boolean;
}

function signatureItems(entries: readonly LogEntry[]): VerifyItem[] {
  const items: VerifyItem[] = [];
  for (const e of entries) {
    const id = (e.public.disclosures['/agreement_id'] as { value: string }).value;
    const message = agreementSigningBytes({ agreement_id: id, agreement_hash: e.integrity_hash });
    for (const [did, signature] of Object.entries(e.public.signatures))
      items.push({ publicKey: decodeDidKey(did), message, signature: decodeBase64url(signature) });
  }
  return items;
}

export async function runLogBench(entries: LogEntry[]): Promise<LogFigures> {
  let start = performance.now();
  for (const e of entries) sha256(canonicalBytes(linkOf(e)));
  const hashMs = performance.now() - start;

  const items = signatureItems(entries);
  start = performance.now();
  const verdicts = await verifyBatch(items);
  const signaturesMs = performance.now() - start;
  if (verdicts.some((v) => !v)) throw new Error('a signature did not verify');

  start = performance.now();
  const verdict = await withBulkCheck((check) => verifyChain(entries, check));
  const wholeMs = performance.now() - start;
  return { entries: entries.length, signatures: items.length, hashMs, signaturesMs, wholeMs, ok: verdict.ok };
}
