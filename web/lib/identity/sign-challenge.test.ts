import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeBase64url } from '@shared/crypto/base64url';
import { fromHex } from '@shared/crypto/bytes';
import { decodeDidKey, encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed, sign, verify } from '@shared/crypto/ed25519';
import { canonicalBytes } from '@shared/crypto/jcs';
import { ApiError } from '@web/lib/api/http';
import { createIdentityStore } from './identity-store';
import { memoryKeyValue } from './test-support/memory-key-value';
import { enroll, signChallenge, signIn } from './sign-challenge';
import { signerOf } from './operator-signer';
import { importSigningKey } from './webcrypto-ed25519';

const keys = keyPairFromSeed(fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'));
const did = encodeDidKey(keys.publicKey);
const challenge = { purpose: 'switchboard-login', nonce: 'n-0123456789', expiresAt: 1_700_000_060_000 } as const;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function storeWithKey() {
  const store = createIdentityStore(memoryKeyValue());
  await store.replace({ did, secretKey: keys.secretKey }, 0);
  return store;
}

afterEach(() => vi.unstubAllGlobals());

describe('signing the login challenge', () => {
  it('signs the RFC 8785 canonical bytes of the challenge with the stored key', async () => {
    const signed = await signChallenge(
      challenge,
      signerOf({ did, privateKey: await importSigningKey(keys.secretKey) }),
    );
    expect(signed.did).toBe(did);
    expect(signed.nonce).toBe(challenge.nonce);
    const bytes = canonicalBytes({
      expiresAt: challenge.expiresAt,
      nonce: challenge.nonce,
      purpose: challenge.purpose,
    });
    expect(new TextDecoder().decode(bytes)).toBe(
      '{"expiresAt":1700000060000,"nonce":"n-0123456789","purpose":"switchboard-login"}',
    );
    expect(verify(decodeBase64url(signed.signature), bytes, decodeDidKey(did))).toBe(true);
    expect(decodeBase64url(signed.signature)).toEqual(sign(bytes, keys.secretKey));
  });

  it('logs in: challenge, then did + nonce + signature as JSON, never the key', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      calls.push({ url, ...(init ? { init } : {}) });
      return url === '/api/auth/challenge'
        ? json(200, { challenge })
        : json(200, { did, role: 'facilitator', name: null });
    });
    const session = await signIn(await storeWithKey());
    expect(session).toEqual({ did, role: 'facilitator', name: null });
    expect(calls.map((c) => [c.init?.method ?? 'GET', c.url])).toEqual([
      ['GET', '/api/auth/challenge'],
      ['POST', '/api/auth/login'],
    ]);
    const post = calls[1]?.init;
    expect(new Headers(post?.headers).get('content-type')).toBe('application/json');
    const body = JSON.parse(post?.body as string) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['did', 'nonce', 'signature']);
    expect(JSON.stringify(body)).not.toContain(Buffer.from(keys.secretKey).toString('base64url'));
  });

  it('enrolls with the token beside the signed challenge', async () => {
    let body: Record<string, string> = {};
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/challenge') return json(200, { challenge });
      body = JSON.parse(init?.body as string) as Record<string, string>;
      return json(200, { did, role: 'facilitator', name: body.name ?? null });
    });
    await enroll('tok-1', await storeWithKey());
    expect(Object.keys(body).sort()).toEqual(['did', 'nonce', 'signature', 'token']);
    expect(body.token).toBe('tok-1');
    // A name goes beside the token when one is given; a blank one is no name.
    expect(await enroll('tok-2', await storeWithKey(), 'Ana')).toMatchObject({ name: 'Ana' });
    expect(body.name).toBe('Ana');
    await enroll('tok-3', await storeWithKey(), '   ');
    expect(Object.keys(body)).not.toContain('name');
  });

  it("passes the server's coded refusal through", async () => {
    vi.stubGlobal('fetch', async (url: string) =>
      url === '/api/auth/challenge'
        ? json(200, { challenge })
        : json(403, { code: 'ENROLLMENT_INVALID', message: 'used' }),
    );
    await expect(enroll('tok-1', await storeWithKey())).rejects.toMatchObject({
      status: 403,
      code: 'ENROLLMENT_INVALID',
    });
  });

  it('refuses to sign anything but a login challenge', async () => {
    const fetchSpy = vi.fn(async () => json(200, { challenge: { ...challenge, purpose: 'agreement' } }));
    vi.stubGlobal('fetch', fetchSpy);
    await expect(signIn(await storeWithKey())).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    vi.stubGlobal('fetch', async () => json(200, { challenge: { ...challenge, extra: 'sign me too' } }));
    await expect(signIn(await storeWithKey())).rejects.toBeInstanceOf(ApiError);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('says so when this browser holds no key, before asking the server', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    await expect(signIn(createIdentityStore(memoryKeyValue()))).rejects.toMatchObject({ code: 'NO_KEY' });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('reports an unreachable server as NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(signIn(await storeWithKey())).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });
});
