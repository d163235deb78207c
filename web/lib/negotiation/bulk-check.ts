// Runs a synchronous shared/negotiation verifier (verifyChain, verifyAgreement, verifyDocument)
// with Ed25519 checks done in bulk by WebCrypto: a first pass records every (signer, message,
// signature) the verifier asks about, those are verified in batches (with progress), and a
// second pass answers from the results. The second pass decides; a check it did not see in the
// first pass falls back to noble, so the verdict never depends on the recording.
import type { DidSignatureCheck } from '@shared/crypto/signed-document';
import { decodeDidKey } from '@shared/crypto/did-key';
import { verify as nobleVerify } from '@shared/crypto/ed25519';
import { verifyBatch, type VerifyItem } from '@web/lib/crypto/webcrypto-verify';

interface Asked {
  readonly did: string;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const keyOf = (did: string, signature: Uint8Array) => `${did}|${Array.from(signature).join(',')}`;

export interface BulkOptions {
  /** Signatures per WebCrypto batch, between progress reports. */
  readonly batch?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** `run` is called twice; its second answer is returned. */
export async function withBulkCheck<T>(run: (check: DidSignatureCheck) => T, options: BulkOptions = {}): Promise<T> {
  const asked: Asked[] = [];
  run((did, message, signature) => {
    asked.push({ did, message: new Uint8Array(message), signature: new Uint8Array(signature) });
    return true;
  });
  const batch = options.batch ?? 250;
  const known = new Map<string, Array<{ message: Uint8Array; ok: boolean }>>();
  for (let start = 0; start < asked.length; start += batch) {
    const slice = asked.slice(start, start + batch);
    const items: Array<VerifyItem | null> = slice.map((a) => {
      try {
        return { publicKey: decodeDidKey(a.did), message: a.message, signature: a.signature };
      } catch {
        return null; // not a did:key: cannot verify
      }
    });
    const verdicts = await verifyBatch(items.filter((i): i is VerifyItem => i !== null));
    let v = 0;
    slice.forEach((a, i) => {
      const ok = items[i] === null ? false : (verdicts[v++] ?? false);
      const k = keyOf(a.did, a.signature);
      known.set(k, [...(known.get(k) ?? []), { message: a.message, ok }]);
    });
    options.onProgress?.(Math.min(start + batch, asked.length), asked.length);
  }
  return run((did, message, signature) => {
    const hit = known.get(keyOf(did, signature))?.find((m) => sameBytes(m.message, message));
    if (hit) return hit.ok;
    try {
      return nobleVerify(signature, message, decodeDidKey(did));
    } catch {
      return false;
    }
  });
}
