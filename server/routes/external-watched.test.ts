// The watch list of /api/services/watched: every operator reads it, facilitators add
// an Ed25519 did:key and remove it; anything that does not decode as one is refused unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { encodeDidKey } from '@shared/crypto/did-key';
import { keyPairFromSeed } from '@shared/crypto/ed25519';
import { testApp } from '../test-support/test-app';
import { manualClock } from '../test-support/manual-clock';
import { sessionCookie } from '../test-support/sessions';
import { tempStore, type TempStore } from '../test-support/temp-store';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.dispose();
  temp = undefined;
});

const didOf = (byte: number) => encodeDidKey(keyPairFromSeed(new Uint8Array(32).fill(byte)).publicKey);

async function setup() {
  temp = tempStore();
  const clock = manualClock(Date.parse('2026-05-03T10:00:00Z'));
  const app = testApp({ staticDir: '/nonexistent', store: temp.store, clock });
  const facilitator = await sessionCookie(temp.store, didOf(1), 'facilitator', clock.now());
  const observer = await sessionCookie(temp.store, didOf(2), 'observer', clock.now());
  const call = (method: string, path: string, cookie: string, body?: unknown) =>
    app.request(`http://localhost/api/services/watched${path}`, {
      method,
      headers: {
        cookie,
        origin: 'http://localhost',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { call, facilitator, observer };
}

describe('/api/services/watched', () => {
  it('lists, adds and removes watched DIDs; observers read', async () => {
    const { call, facilitator, observer } = await setup();
    expect(await (await call('GET', '', observer)).json()).toEqual({ watched: [] });
    const added = await call('POST', '', facilitator, { did: didOf(7) });
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual({ watched: [didOf(7)] });
    expect(await (await call('GET', '', observer)).json()).toEqual({ watched: [didOf(7)] });

    expect((await call('POST', '', observer, { did: didOf(8) })).status).toBe(403);
    expect((await call('DELETE', `/${encodeURIComponent(didOf(7))}`, observer)).status).toBe(403);

    const removed = await call('DELETE', `/${encodeURIComponent(didOf(7))}`, facilitator);
    expect(await removed.json()).toEqual({ watched: [] });
  });

  it('refuses what is not an Ed25519 did:key, and stores nothing', async () => {
    const { call, facilitator } = await setup();
    // Base58 that does not decode to the Ed25519 multicodec and a 32-byte key.
    for (const did of ['did:key:z1111', 'did:web:example.org', `${didOf(3)}x`, 42]) {
      const refused = await call('POST', '', facilitator, { did });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    }
    expect(await (await call('GET', '', facilitator)).json()).toEqual({ watched: [] });
  });

  it('asks for a session to read', async () => {
    const { call } = await setup();
    expect((await call('GET', '', '')).status).toBe(401);
  });
});
