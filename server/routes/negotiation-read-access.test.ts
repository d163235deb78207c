// Who may read a negotiation (docs/decisions-negotiation.md, "Signed reads"): a confidential
// negotiation, its history and its agreement answer a party's RFC 9421 signed GET or an
// operator session, and nobody else; a captured signature cannot be replayed, moved or kept;
// the public log shows a commitment, never the id. A `public` negotiation stays readable.
import { afterEach, describe, expect, it } from 'vitest';
import { fieldDigest } from '@shared/negotiation/field-commitments';
import { signRequest } from '@shared/http-signature/request-signature';
import type { PartyIdentity } from '@agents/negotiation/negotiation-client';
import { negotiationApp } from '../test-support/negotiation-app';
import { sessionCookie } from '../test-support/sessions';

const MIN = 60_000;
let h: ReturnType<typeof negotiationApp>;
afterEach(async () => h.temp.dispose());

const ORIGIN = 'http://localhost';
let nonceCounter = 0;
function signedHeaders(identity: PartyIdentity, path: string, over: { created?: number; nonce?: string } = {}) {
  return signRequest(
    { method: 'GET', url: `${ORIGIN}${path}`, header: () => undefined },
    {
      keyid: identity.did,
      secretKey: identity.secretKey,
      created: over.created ?? Math.floor(h.clock.now() / 1000),
      nonce: over.nonce ?? `test-nonce-${++nonceCounter}`,
    },
  );
}

async function acceptedDeal(mine: 'public' | 'confidential') {
  const id = await h.buyer.open(h.seller.did, {
    category: 'scheduling',
    mine,
    theirs: 'public',
    regulated: { [h.buyer.did]: 'medical' },
  });
  await h.buyer.propose(id, { patient_ref: 'PAT-0042', room: 'B-12', note: 'post-op check' }, 30 * MIN);
  await h.seller.accept(id);
  return id;
}

describe('reading a confidential negotiation', () => {
  it('is refused without authentication, coded, for the negotiation, its history and its agreement', async () => {
    h = negotiationApp();
    const id = await acceptedDeal('confidential');
    for (const path of [`/oap/negotiation/${id}`, `/oap/negotiation/${id}/agreement`]) {
      const res = await h.get(`${ORIGIN}${path}`);
      const body = await res.text();
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect(JSON.parse(body)).toMatchObject({ code: 'HTTP_SIGNATURE_MISSING' });
      expect(body).not.toContain('PAT-0042');
    }
    // An unknown id answers the same as a known one: no oracle for which ids exist.
    expect((await h.get(`${ORIGIN}/oap/negotiation/neg_01HX2QF8GZRP9V3K5YXJW0AQ7M`)).status).toBe(401);
  });

  it("answers a party's signed GET and an operator session; refuses a stranger's signed GET with 403", async () => {
    h = negotiationApp();
    const id = await acceptedDeal('confidential');
    for (const path of [`/oap/negotiation/${id}`, `/oap/negotiation/${id}/agreement`]) {
      const party = await h.get(`${ORIGIN}${path}`, signedHeaders(h.seller.identity, path));
      expect({ path, status: party.status }).toEqual({ path, status: 200 });
      expect(await party.text()).toContain('PAT-0042');
      const stranger = await h.get(`${ORIGIN}${path}`, signedHeaders(h.stranger.identity, path));
      expect({ path, status: stranger.status, code: ((await stranger.json()) as { code: string }).code }).toEqual({
        path,
        status: 403,
        code: 'NOT_A_PARTY',
      });
    }
    const cookie = await sessionCookie(h.temp.store, h.stranger.did, 'observer', h.clock.now());
    expect((await h.get(`${ORIGIN}/oap/negotiation/${id}`, { cookie })).status).toBe(200);
    expect((await h.get(`${ORIGIN}/oap/negotiation/${id}/agreement`, { cookie })).status).toBe(200);
    expect((await h.get(`/api/negotiations/${id}`, { cookie })).status).toBe(200);
    // The client every agent uses signs its reads: the whole flow above went through it.
    expect((await h.buyer.state(id)).status).toBe('ACCEPTED');
  });

  it('refuses a replayed, expired, tampered or re-targeted signature', async () => {
    h = negotiationApp();
    const id = await acceptedDeal('confidential');
    const path = `/oap/negotiation/${id}`;
    const headers = signedHeaders(h.buyer.identity, path);
    expect((await h.get(`${ORIGIN}${path}`, headers)).status).toBe(200);
    const codeOf = async (res: Response) => ({
      status: res.status,
      code: ((await res.json()) as { code: string }).code,
    });
    expect(await codeOf(await h.get(`${ORIGIN}${path}`, headers))).toEqual({
      status: 401,
      code: 'HTTP_SIGNATURE_REPLAYED',
    });
    const old = signedHeaders(h.buyer.identity, path);
    h.clock.advance(10 * MIN);
    expect(await codeOf(await h.get(`${ORIGIN}${path}`, old))).toEqual({ status: 401, code: 'HTTP_SIGNATURE_EXPIRED' });
    const fresh = signedHeaders(h.buyer.identity, path);
    const tampered = {
      ...fresh,
      'signature-input': fresh['signature-input'].replace(/nonce="[^"]+"/, 'nonce="another-nonce"'),
    };
    expect(await codeOf(await h.get(`${ORIGIN}${path}`, tampered))).toEqual({
      status: 401,
      code: 'HTTP_SIGNATURE_INVALID',
    });
    expect(await codeOf(await h.get(`${ORIGIN}${path}/agreement`, signedHeaders(h.buyer.identity, path)))).toEqual({
      status: 401,
      code: 'HTTP_SIGNATURE_INVALID',
    });
    expect(await codeOf(await h.get(`http://127.0.0.2${path}`, signedHeaders(h.buyer.identity, path)))).toEqual({
      status: 401,
      code: 'HTTP_SIGNATURE_INVALID',
    });
  });

  it("refuses a stranger's signed read as not a party every time: its nonce never reaches the replay memory (decisions-server.md §78)", async () => {
    h = negotiationApp();
    const id = await acceptedDeal('confidential');
    const path = `/oap/negotiation/${id}`;
    const headers = signedHeaders(h.stranger.identity, path);
    for (let i = 0; i < 2; i++) {
      const res = await h.get(`${ORIGIN}${path}`, headers);
      expect({ status: res.status, code: ((await res.json()) as { code: string }).code }).toEqual({
        status: 403,
        code: 'NOT_A_PARTY',
      });
    }
  });

  it('rate limits signed reads per signer and per address, coded 429, while operators read on', async () => {
    const perMinute = (n: number) => ({ capacity: n, refillPerSecond: n / 60 });
    h = negotiationApp({ limits: { signedReadsPerDid: perMinute(2), signedReadsPerAddress: perMinute(4) } });
    const id = await acceptedDeal('confidential');
    const path = `/oap/negotiation/${id}`;
    const read = async (who: PartyIdentity) => {
      const res = await h.get(`${ORIGIN}${path}`, signedHeaders(who, path));
      return res.status === 200 ? 200 : [res.status, ((await res.json()) as { code: string }).code];
    };
    // The parties' own client read during the deal: let the buckets refill first.
    h.clock.advance(MIN);
    expect(await read(h.buyer.identity)).toBe(200);
    expect(await read(h.buyer.identity)).toBe(200);
    expect(await read(h.buyer.identity)).toEqual([429, 'RATE_LIMITED']);
    expect(await read(h.seller.identity)).toBe(200);
    // Four signed reads from this address so far: the fifth is refused before its signature is checked.
    expect(await read(h.seller.identity)).toEqual([429, 'RATE_LIMITED']);
    const cookie = await sessionCookie(h.temp.store, h.stranger.did, 'observer', h.clock.now());
    expect((await h.get(`${ORIGIN}${path}`, { cookie })).status).toBe(200);
    h.clock.advance(MIN);
    expect(await read(h.buyer.identity)).toBe(200);
  });

  it('the public log shows a commitment the parties can open, neither the id nor anything that finds it', async () => {
    h = negotiationApp();
    const id = await acceptedDeal('confidential');
    const log = await (await h.get(`${ORIGIN}/oap/transparency-log`)).text();
    expect(log).not.toContain(id);
    expect(log).not.toContain('PAT-0042');
    expect(await (await h.get(`${ORIGIN}/oap/transparency-log/0`)).text()).not.toContain(id);
    // No string the log publishes opens the negotiation to an anonymous reader.
    const strings = [...log.matchAll(/"([^"\\]{6,200})"/g)].map((m) => m[1]!);
    for (const candidate of new Set(strings)) {
      const res = await h.get(`${ORIGIN}/oap/negotiation/${encodeURIComponent(candidate)}`);
      expect(res.status).not.toBe(200);
    }
    // The agreement a party reads carries the commitment's opening.
    const path = `/oap/negotiation/${id}/agreement`;
    const agreement = (await (await h.get(`${ORIGIN}${path}`, signedHeaders(h.buyer.identity, path))).json()) as {
      log_commitment: { salt: string; digest: string };
    };
    expect(fieldDigest(agreement.log_commitment.salt, '/negotiation_id', id)).toBe(agreement.log_commitment.digest);
    expect(log).toContain(agreement.log_commitment.digest);
  });

  it('a public negotiation stays readable by anyone, and its log entry names it', async () => {
    h = negotiationApp();
    const id = await acceptedDeal('public');
    expect((await h.get(`${ORIGIN}/oap/negotiation/${id}`)).status).toBe(200);
    expect((await h.get(`${ORIGIN}/oap/negotiation/${id}/agreement`)).status).toBe(200);
    expect(await (await h.get(`${ORIGIN}/oap/transparency-log`)).text()).toContain(id);
  });
});
