// The verified badge, computed in this browser: every envelope is parsed with
// the shared Agora schema and checked by the shared verifier (sig over the JCS form without
// `sig`, by sender.id's did:key). The verifier's last step, Ed25519 itself, is collected and
// run in one batch on WebCrypto (noble where a browser lacks it): the same strict verdicts,
// ten times faster on long threads (web/lib/crypto/webcrypto-verify.ts).
import { Envelope } from '@shared/agora/envelope';
import { verifyEnvelope } from '@shared/agora/sign-envelope';
import { decodeDidKey } from '@shared/crypto/did-key';
import { verifyBatch, type VerifyItem } from '@web/lib/crypto/webcrypto-verify';

export type Verdict =
  | { readonly status: 'verified'; readonly signer: string }
  | {
      readonly status: 'failed';
      readonly reason:
        | 'schema_invalid'
        | 'signature_malformed'
        | 'signer_invalid'
        | 'not_json'
        | 'signature_invalid'
        | 'version_mismatch'
        | 'signature_missing';
      readonly words: string;
    };

export type BatchVerify = (items: readonly VerifyItem[]) => Promise<boolean[]>;

const WORDS = {
  schema_invalid: 'not a valid Agora envelope, so there is nothing to verify',
  signature_malformed: 'its sig is not an Ed25519 signature in base64url',
  signer_invalid: 'sender.id is not an Ed25519 did:key',
  not_json: 'it cannot be put in canonical JSON (RFC 8785)',
  signature_invalid: 'the signature does not verify against sender.id',
  version_mismatch: 'it is not an Agora 1.0 envelope',
  signature_missing: 'it carries no signature',
} as const;

const failed = (reason: keyof typeof WORDS): Verdict => ({ status: 'failed', reason, words: WORDS[reason] });

/** One verdict per envelope, in order. Never throws on bad input. */
export async function verifyEnvelopes(raws: readonly unknown[], batch: BatchVerify = verifyBatch): Promise<Verdict[]> {
  const verdicts: (Verdict | undefined)[] = [];
  const pending: { index: number; signer: string; item: VerifyItem }[] = [];
  raws.forEach((raw, index) => {
    const version = raw !== null && typeof raw === 'object' ? (raw as { version?: unknown }).version : undefined;
    if (typeof version === 'string' && version !== '1.0') return void (verdicts[index] = failed('version_mismatch'));
    if (raw !== null && typeof raw === 'object' && !('sig' in raw))
      return void (verdicts[index] = failed('signature_missing'));
    const parsed = Envelope.safeParse(raw);
    if (!parsed.success) return void (verdicts[index] = failed('schema_invalid'));
    let collected: VerifyItem | undefined;
    // The shared verifier does everything up to the Ed25519 equation; we collect that step.
    const checked = verifyEnvelope(parsed.data, (signerDid, message, signature) => {
      collected = { publicKey: decodeDidKey(signerDid), message, signature };
      return true;
    });
    if (!checked.ok) {
      const reason = checked.error.details.reason;
      return void (verdicts[index] = failed(reason in WORDS ? (reason as keyof typeof WORDS) : 'signature_invalid'));
    }
    if (!collected) return void (verdicts[index] = failed('signature_invalid'));
    pending.push({ index, signer: parsed.data.sender.id, item: collected });
  });
  const results = pending.length > 0 ? await batch(pending.map((p) => p.item)) : [];
  pending.forEach((p, i) => {
    verdicts[p.index] = results[i] === true ? { status: 'verified', signer: p.signer } : failed('signature_invalid');
  });
  return verdicts.map((v) => v ?? failed('signature_invalid'));
}
