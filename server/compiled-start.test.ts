// The run path of `npm start` (decisions-server.md §49): the compiled server under plain node,
// serving the console's brotli and gzip copies by Accept-Encoding, and a start that finds its
// builds current skipping them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLikeStart } from './test-support/compiled-entry';
import { startServerProcess, stopped, type ServerProcess } from './test-support/server-process';

const BUILD_MS = 300_000;

/** The bytes as sent, without the decoding fetch would do. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('the compiled start', () => {
  let server: ServerProcess;
  let dataDir: string;
  let asset: string;

  beforeAll(async () => {
    const built = buildLikeStart(['web', 'server'], { output: 'capture', timeoutMs: BUILD_MS });
    expect(built.status, built.output).toBe(0);
    const assets = readdirSync('dist/web/assets');
    asset =
      assets.find((name) => name.endsWith('.js') && assets.includes(`${name}.br`) && assets.includes(`${name}.gz`)) ??
      '';
    expect(asset).not.toBe('');
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-compiled-'));
    server = await startServerProcess({ DATA_DIR: dataDir });
  }, BUILD_MS);

  afterAll(async () => {
    if (server) await stopped(server, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('skips both builds when nothing changed since the last', () => {
    const again = buildLikeStart(['web', 'server'], { output: 'capture', timeoutMs: BUILD_MS });
    expect(again.status).toBe(0);
    expect(again.output).not.toContain('building');
  });

  it('answers /health under plain node', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      ok: true,
      version: JSON.parse(readFileSync('package.json', 'utf8')).version,
    });
  });

  it('sends a hashed asset as its brotli copy, its gzip copy or as it is, by Accept-Encoding, cached for good', async () => {
    const original = readFileSync(join('dist/web/assets', asset));
    const url = `${server.url}/assets/${asset}`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(url, { 'accept-encoding': 'gzip' });
    const identity = await rawGet(url, { 'accept-encoding': 'identity' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(br.body.length).toBeLessThan(original.length);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(original)).toBe(true);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(original)).toBe(true);
    for (const res of [br, gzip, identity]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('sends index.html, for / and for client routes alike, to be revalidated, with its CSP nonce', async () => {
    const index = readFileSync('dist/web/index.html', 'utf8');
    const nonces = new Set<string>();
    for (const path of ['/', '/index.html', '/rooms/some-room']) {
      const res = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'identity' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      // The page's <style> nonce is the one its CSP admits, and differs per response.
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(String(res.headers['content-security-policy']))?.[1];
      expect(nonce).toBeDefined();
      nonces.add(nonce!);
      const body = res.body.toString('utf8');
      expect(body.replace(`<meta name="csp-nonce" content="${nonce}" />`, '')).toBe(index);
    }
    expect(nonces.size).toBe(3);
  });
});
