// RFC 0002 over real HTTP handling (app.request) and a real SQLite store: a negotiation from
// open to a co-signed, logged, provable and redactable agreement; every refusal coded and
// changing nothing; expiry with and without a request; the console's list.
import { afterEach, describe, expect, it } from 'vitest';
import { signAgreement, verifyAgreement } from '@shared/negotiation/agreement';
import { verifyInclusion } from '@shared/negotiation/inclusion-proof';
import { signRedactionRequest } from '@shared/negotiation/redaction-request';
import { verifyChain, type LogEntry } from '@shared/negotiation/transparency-log';
import { signNegotiationDocument, type Proposal } from '@shared/negotiation/documents';
import { DidVerifier } from '../crypto/node-verifier';
import { sessionCookie } from '../test-support/sessions';
import { negotiationApp, T0 } from '../test-support/negotiation-app';

const MIN = 60_000;
let h: ReturnType<typeof negotiationApp>;
afterEach(async () => h.temp.dispose());

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;
const history = async (id: string) => (await h.get(`/oap/negotiation/${id}`)).text();

async function openPricing(mine: 'public' | 'internal' = 'public') {
  return h.buyer.open(h.seller.did, { category: 'pricing', mine, theirs: 'public' });
}

describe('RFC 0002 service over HTTP', () => {
  it('open → propose → counter → accept → co-sign; logged, provable, redactable (§3.3, §3.5, §6)', async () => {
    h = negotiationApp();
    const id = await openPricing();
    await h.buyer.propose(id, { price_per_call_eur: '0.0030', calls_per_month: 100000 }, 30 * MIN);
    h.clock.advance(MIN);
    await h.seller.propose(id, { price_per_call_eur: '0.0045', calls_per_month: 100000 }, 30 * MIN);
    h.clock.advance(MIN);
    const accepted = await json<{ negotiation: { state: string; log_index: number }; log_entry: LogEntry }>(
      await h.post(`/oap/negotiation/${id}/accept`, h.buyer.acceptanceDocument(await h.buyer.state(id))),
    );
    expect(accepted.negotiation).toMatchObject({ state: 'ACCEPTED', log_index: 0 });
    expect(accepted.log_entry.index).toBe(0);

    // Before co-signing: the exact statement bytes and hash are served, the proposer's signature is missing.
    const before = await json<{
      agreement: Parameters<typeof signAgreement>[0] & { signatures: Record<string, string> };
      verdict: { complete: boolean; signatures: Record<string, string> };
      signing: { statement_jcs: string; agreement_hash: string };
    }>(await h.get(`/oap/negotiation/${id}/agreement`));
    expect(before.verdict.signatures).toEqual({ [h.buyer.did]: 'valid', [h.seller.did]: 'missing' });
    expect(before.signing.statement_jcs).toBe(
      `{"agreement_hash":"${before.signing.agreement_hash}","agreement_id":"${before.agreement.agreement_id}","type":"agreement"}`,
    );

    // The buyer (accepter) already signed; the seller (proposer) co-signs once.
    expect(
      (
        await h.post(`/oap/negotiation/${id}/agreement/cosign`, {
          by: h.buyer.did,
          signature: signAgreement(before.agreement, h.buyer.identity.secretKey),
        })
      ).status,
    ).toBe(409);
    const cosigned = await h.post(`/oap/negotiation/${id}/agreement/cosign`, {
      by: h.seller.did,
      signature: signAgreement(before.agreement, h.seller.identity.secretKey),
    });
    expect(cosigned.status).toBe(200);
    const after = await json<{ agreement: unknown; log: { index: number; entry: LogEntry } }>(
      await h.get(`/oap/negotiation/${id}/agreement`),
    );
    const verdict = verifyAgreement(after.agreement);
    expect(verdict.ok && verdict.value.complete).toBe(true);
    expect(Object.keys(after.log.entry.public.signatures).sort()).toEqual([h.buyer.did, h.seller.did].sort());

    // The inclusion proof verifies in the shared code against the served head.
    const proof = await json<{ proof: unknown; head_hash: string; size: number }>(
      await h.get('/oap/transparency-log/0/proof'),
    );
    const included = verifyInclusion(proof.proof, proof.head_hash);
    expect(included.ok && included.value.integrity_hash).toBe(before.signing.agreement_hash);

    // A party redacts a non-material term: the entry hash, the chain and the head stay as they were.
    const redaction = signRedactionRequest(
      {
        type: 'redact',
        index: 0,
        agreement_id: before.agreement.agreement_id,
        pointers: ['/terms/price_per_call_eur'],
        by: h.seller.did,
        at: new Date(h.clock.now()).toISOString(),
      },
      h.seller.identity.secretKey,
    );
    const redacted = await json<{ entry: LogEntry }>(await h.post('/oap/transparency-log/0/redact', redaction));
    expect(redacted.entry.public.disclosures['/terms/price_per_call_eur']).toHaveProperty('digest');
    expect(redacted.entry.entry_hash).toBe(after.log.entry.entry_hash);
    const log = await json<{ entries: LogEntry[]; head: { entry_hash: string } }>(await h.get('/oap/transparency-log'));
    const chain = verifyChain(log.entries);
    expect(chain.ok && chain.value.head_hash).toBe(proof.head_hash);
    // Material fields cannot be hidden, and a stranger cannot redact.
    const material = signRedactionRequest({ ...redaction, pointers: ['/effective_from'] }, h.seller.identity.secretKey);
    expect(await json(await h.post('/oap/transparency-log/0/redact', material))).toMatchObject({
      code: 'MATERIAL_FIELD_REDACTED',
    });
    const stranger = signRedactionRequest({ ...redaction, by: h.stranger.did }, h.stranger.identity.secretKey);
    expect((await h.post('/oap/transparency-log/0/redact', stranger)).status).toBe(403);
  });

  it('refuses every bad step with a coded error and leaves the history byte for byte as it was', async () => {
    h = negotiationApp();
    const id = await openPricing();
    const first = await h.buyer.propose(id, { price: 1 }, 30 * MIN);
    const state = await h.buyer.state(id);
    const before = await history(id);
    const counter = h.seller.proposalDocument(state, { price: 2 }, 30 * MIN);
    const resign = (p: Omit<Proposal, 'signature'>, key = h.seller.identity.secretKey) =>
      signNegotiationDocument<Proposal>(p, key);
    const { signature: _s, ...unsigned } = counter;
    const cases: [string, string, unknown, number, string][] = [
      ['bad signature', 'propose', { ...counter, signature: first.signature }, 401, 'SIGNATURE_INVALID'],
      [
        'stale previous',
        'propose',
        resign({ ...unsigned, previous_proposal_id: null }),
        409,
        'STALE_PREVIOUS_PROPOSAL',
      ],
      ['round gap', 'propose', resign({ ...unsigned, round: 3 }), 409, 'ROUND_NOT_MONOTONIC'],
      ['self counter', 'propose', h.buyer.proposalDocument(state, { price: 0 }, MIN), 409, 'NOT_YOUR_TURN'],
      ['replayed id', 'propose', resign({ ...unsigned, proposal_id: first.proposal_id }), 409, 'PROPOSAL_ID_REUSED'],
      ['wrong category', 'propose', resign({ ...unsigned, category: 'scheduling' }), 422, 'CATEGORY_MISMATCH'],
      [
        'past validity',
        'propose',
        resign({ ...unsigned, valid_until: new Date(T0 - MIN).toISOString() }),
        422,
        'VALIDITY_INVALID',
      ],
      [
        'stranger',
        'propose',
        signNegotiationDocument<Proposal>({ ...unsigned, from: h.stranger.did }, h.stranger.identity.secretKey),
        403,
        'NOT_A_PARTY',
      ],
      ['proposer accepts', 'accept', h.buyer.acceptanceDocument(state), 403, 'NOT_RECIPIENT'],
      ['unknown field', 'propose', { ...counter, extra: true }, 400, 'INVALID_DOCUMENT'],
      ['not json', 'propose', '{nope', 400, 'INVALID_REQUEST'],
      ['too large', 'propose', { ...counter, pad: 'x'.repeat(70_000) }, 413, 'PAYLOAD_TOO_LARGE'],
      [
        'withdraw signed as another kind',
        'withdraw',
        { ...h.seller.withdrawalDocument(id), type: 'reject' },
        400,
        'INVALID_DOCUMENT',
      ],
    ];
    for (const [name, event, body, status, code] of cases) {
      const res = await h.post(`/oap/negotiation/${id}/${event}`, body);
      expect({ name, status: res.status, code: (await json(res)).code }).toEqual({ name, status, code });
      expect(await history(id)).toBe(before);
    }
    expect((await h.post('/oap/negotiation/neg_UNKNOWN/propose', counter)).status).toBe(404);
  });

  it('refuses a reused negotiation id, a category the manifest does not offer, and rounds past max_rounds', async () => {
    h = negotiationApp();
    const manifest = await json<{ negotiation: { categories: string[]; max_rounds: number } }>(
      await h.get('/oap/manifest'),
    );
    expect(manifest.negotiation).toMatchObject({ supported: true, binding_acceptance: true, max_rounds: 8 });
    const doc = h.buyer.openDocument(h.seller.did, {
      category: 'pricing',
      mine: 'public',
      theirs: 'public',
      maxRounds: 2,
    });
    expect((await h.post('/oap/negotiation/open', doc)).status).toBe(201);
    expect(await json(await h.post('/oap/negotiation/open', doc))).toMatchObject({ code: 'NEGOTIATION_ID_REUSED' });
    expect(
      await json(
        await h.post(
          '/oap/negotiation/open',
          h.buyer.openDocument(h.seller.did, { category: 'astrology', mine: 'public', theirs: 'public' }),
        ),
      ),
    ).toMatchObject({ code: 'CATEGORY_NOT_SUPPORTED' });
    expect(
      await json(
        await h.post(
          '/oap/negotiation/open',
          h.buyer.openDocument(h.seller.did, { category: 'pricing', mine: 'public', theirs: 'public', maxRounds: 9 }),
        ),
      ),
    ).toMatchObject({ code: 'MAX_ROUNDS_EXCEEDED' });
    const id = doc.negotiation_id;
    await h.buyer.propose(id, { p: 1 }, 30 * MIN);
    await h.seller.propose(id, { p: 2 }, 30 * MIN);
    const third = h.buyer.proposalDocument(await h.buyer.state(id), { p: 3 }, 30 * MIN);
    expect(await json(await h.post(`/oap/negotiation/${id}/propose`, third))).toMatchObject({
      code: 'MAX_ROUNDS_EXCEEDED',
    });
  });

  it('expires a lapsed negotiation by the sweeper, and refuses a late event with PROPOSAL_EXPIRED (§3.2 expire)', async () => {
    h = negotiationApp();
    const swept = await openPricing();
    await h.buyer.propose(swept, { p: 1 }, 5 * MIN);
    const asked = await openPricing();
    await h.buyer.propose(asked, { p: 1 }, 5 * MIN);
    const lateAccept = h.seller.acceptanceDocument(await h.seller.state(asked));
    h.clock.advance(5 * MIN);
    expect(await h.service.expireDue()).toBe(0); // live up to and including valid_until
    h.clock.advance(1);
    // Nobody asks about `swept`: the sweeper moves it. `asked` is expired by the request that finds it lapsed.
    const late = await h.post(`/oap/negotiation/${asked}/accept`, { ...lateAccept });
    expect({ status: late.status, code: (await json(late)).code }).toEqual({ status: 409, code: 'PROPOSAL_EXPIRED' });
    expect((await h.seller.state(asked)).status).toBe('EXPIRED');
    expect(await h.service.expireDue()).toBe(1);
    const state = await h.seller.state(swept);
    expect(state.status).toBe('EXPIRED');
    expect(state.history.at(-1)).toMatchObject({ type: 'expire' });
    expect(await h.service.expireDue()).toBe(0);
  });

  it('lists negotiations for an operator session, filtered, with rounds, last activity and expiring-soon', async () => {
    h = negotiationApp();
    const cookie = await sessionCookie(h.temp.store, 'did:key:z6MkOperator', 'observer', h.clock.now());
    expect((await h.get('/api/negotiations')).status).toBe(401);
    const a = await openPricing();
    await h.buyer.propose(a, { p: 1 }, 4 * MIN);
    const b = await h.seller.open(h.stranger.did, { category: 'scheduling', mine: 'public', theirs: 'internal' });
    const list = await json<{
      negotiations: {
        id: string;
        state: string;
        rounds: number;
        expiring_soon: boolean;
        valid_until: string | null;
        confidentiality: string;
      }[];
    }>(await h.get('/api/negotiations', { cookie }));
    expect(list.negotiations.map((n) => n.id).sort()).toEqual([a, b].sort());
    expect(list.negotiations.find((n) => n.id === a)).toMatchObject({
      state: 'PROPOSED',
      rounds: 1,
      expiring_soon: true,
      valid_until: new Date(T0 + 4 * MIN).toISOString(),
    });
    expect(list.negotiations.find((n) => n.id === b)).toMatchObject({
      state: 'OPEN',
      rounds: 0,
      expiring_soon: false,
      valid_until: null,
      confidentiality: 'internal',
    });
    const filtered = async (q: string) =>
      (
        await json<{ negotiations: { id: string }[] }>(await h.get(`/api/negotiations?${q}`, { cookie }))
      ).negotiations.map((n) => n.id);
    expect(await filtered('state=OPEN')).toEqual([b]);
    expect(await filtered('category=pricing')).toEqual([a]);
    expect(await filtered(`party=${encodeURIComponent(h.stranger.did)}`)).toEqual([b]);
    expect((await h.get('/api/negotiations?state=NOPE', { cookie })).status).toBe(400);
    const detail = await json<{ history: unknown[]; available_actions: Record<string, string[]> }>(
      await h.get(`/api/negotiations/${a}`, { cookie }),
    );
    expect(detail.history).toHaveLength(2);
    expect(detail.available_actions[h.seller.did]).toEqual(['propose', 'accept', 'reject', 'withdraw']);
  });

  it("verifies every signature with the server's node:crypto DidVerifier (the open, each step, the agreement)", async () => {
    const seen: string[] = [];
    class CountingVerifier extends DidVerifier {
      override verify(did: string, message: Uint8Array, signature: Uint8Array): boolean {
        seen.push(did);
        return super.verify(did, message, signature);
      }
    }
    h = negotiationApp({ verifier: new CountingVerifier() });
    const id = await openPricing();
    expect(seen).toEqual([h.buyer.did]);
    await h.buyer.propose(id, { p: 1 }, 30 * MIN);
    await h.seller.accept(id);
    // open, proposal, acceptance, its agreement_signature, and the agreement re-checked before logging.
    expect(seen.slice(0, 4)).toEqual([h.buyer.did, h.buyer.did, h.seller.did, h.seller.did]);
    expect(seen.length).toBeGreaterThanOrEqual(5);
  });

  it('pages the log with next_from and serves single entries; unknown indexes are LOG_INDEX_OUT_OF_RANGE', async () => {
    h = negotiationApp();
    for (let i = 0; i < 3; i++) {
      const id = await openPricing();
      await h.buyer.propose(id, { p: i }, 30 * MIN);
      await h.seller.accept(id);
    }
    const page = await json<{ entries: LogEntry[]; size: number; next_from: number | null }>(
      await h.get('/oap/transparency-log?limit=2'),
    );
    expect({ indexes: page.entries.map((e) => e.index), size: page.size, next: page.next_from }).toEqual({
      indexes: [0, 1],
      size: 3,
      next: 2,
    });
    const rest = await json<{ entries: LogEntry[]; next_from: number | null }>(
      await h.get('/oap/transparency-log?from=2&limit=2'),
    );
    expect({ indexes: rest.entries.map((e) => e.index), next: rest.next_from }).toEqual({ indexes: [2], next: null });
    expect((await json<{ entry: LogEntry }>(await h.get('/oap/transparency-log/1'))).entry).toEqual(page.entries[1]);
    const proof = await json<{ proof: { links: unknown[] }; size: number }>(
      await h.get('/oap/transparency-log/1/proof'),
    );
    expect({ links: proof.proof.links.length, size: proof.size }).toEqual({ links: 2, size: 3 });
    for (const path of ['/oap/transparency-log/3', '/oap/transparency-log/3/proof']) {
      const res = await h.get(path);
      expect({ path, status: res.status, code: (await json(res)).code }).toEqual({
        path,
        status: 404,
        code: 'LOG_INDEX_OUT_OF_RANGE',
      });
    }
    expect((await h.get('/oap/transparency-log/-1')).status).toBe(400);
    expect((await h.get('/oap/transparency-log?limit=5000')).status).toBe(400);
  });

  it('stamps a log entry no earlier than the head when the clock steps back (decision 27)', async () => {
    h = negotiationApp();
    const first = await openPricing();
    await h.buyer.propose(first, { p: 1 }, 30 * MIN);
    h.clock.advance(5 * MIN);
    await h.seller.accept(first);
    h.clock.advance(-4 * MIN);
    const second = await openPricing();
    await h.buyer.propose(second, { p: 2 }, 30 * MIN);
    const accepted = await h.post(
      `/oap/negotiation/${second}/accept`,
      h.seller.acceptanceDocument(await h.seller.state(second)),
    );
    expect(accepted.status).toBe(200);
    const log = await json<{ entries: LogEntry[] }>(await h.get('/oap/transparency-log'));
    expect(log.entries.map((e) => e.timestamp)).toEqual([
      new Date(T0 + 5 * MIN).toISOString(),
      new Date(T0 + 5 * MIN).toISOString(),
    ]);
    expect(verifyChain(log.entries).ok).toBe(true);
  });
});
