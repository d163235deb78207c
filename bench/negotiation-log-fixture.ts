// A transparency log of co-signed agreements for the log benches (bench/negotiation.ts in Node,
// bench/negotiation-browser.ts in Chromium): half `public`, half `internal` (terms redacted), each
// signed by both parties. Built with node:crypto signatures so that making 10,000 is cheap.
import { createPrivateKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import { encodeBase64url } from '../shared/crypto/base64url';
import { encodeDidKey, type DidKey } from '../shared/crypto/did-key';
import { keyPairFromSeed } from '../shared/crypto/ed25519';
import { canonicalBytes } from '../shared/crypto/jcs';
import { sha256 } from '../shared/crypto/sha256';
import { signingBytes } from '../shared/crypto/signed-document';
import { unwrap } from '../shared/errors';
import { agreementSigningBytes, buildAgreement, type Agreement } from '../shared/negotiation/agreement';
import type { Proposal } from '../shared/negotiation/documents';
import { appendEntry, type LogEntry } from '../shared/negotiation/transparency-log';

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface Party {
  readonly did: DidKey;
  readonly key: KeyObject;
}

export function party(n: number): Party {
  const seed = new Uint8Array(32).map((_, i) => (i === 0 ? n & 0xff : i === 1 ? n >> 8 : 9));
  return {
    did: encodeDidKey(keyPairFromSeed(seed).publicKey),
    key: createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' }),
  };
}

/** Signs like signNegotiationDocument, with node:crypto. */
export function signed<T extends Record<string, unknown>>(body: T, signer: Party): T & { signature: string } {
  return { ...body, signature: encodeBase64url(nodeSign(null, signingBytes(body, 'signature'), signer.key)) };
}

export const signStatement = (a: Agreement, p: Party) =>
  encodeBase64url(nodeSign(null, agreementSigningBytes(a), p.key));

export function buildLog(size: number): LogEntry[] {
  const a = party(101);
  const b = party(102);
  const now = Date.parse('2026-05-03T10:00:00Z');
  const entries: LogEntry[] = [];
  let head: LogEntry | null = null;
  for (let i = 0; i < size; i++) {
    const proposal = signed<Omit<Proposal, 'signature'>>(
      {
        proposal_id: `prp_log${i}`,
        negotiation_id: `neg_log${i}`,
        previous_proposal_id: null,
        from: a.did,
        to: b.did,
        round: 1,
        category: 'pricing',
        terms: { price_per_call_eur: '0.0042', calls_per_month: 100_000 + i, note: 'bench' },
        valid_until: new Date(now + 3_600_000).toISOString(),
      },
      a,
    ) as Proposal;
    const body = buildAgreement({
      negotiation_id: proposal.negotiation_id,
      parties: [a.did, b.did],
      confidentiality: i % 2 ? 'public' : 'internal',
      regulated_obligations: [],
      proposal,
      accepted_at: new Date(now + i).toISOString(),
      salt_seed: encodeBase64url(sha256(canonicalBytes(['log', i]) as Uint8Array)),
    });
    const agreement: Agreement = {
      ...body,
      signatures: { [a.did]: signStatement(body, a), [b.did]: signStatement(body, b) },
    };
    const entry: LogEntry = unwrap(appendEntry(head, { agreement, now: now + i, verify: () => true }));
    entries.push(entry);
    head = entry;
  }
  return entries;
}
