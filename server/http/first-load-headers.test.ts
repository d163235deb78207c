// What a first load of the console costs in headers and what a reload revalidates
// (decisions-server.md §89), on the whole app behind a real loopback socket, read as sent (no
// decoding): every static file has an ETag per copy (brotli, gzip, as it is) and answers 304 with
// no body to If-None-Match and to If-Modified-Since; only the shell carries a CSP nonce, a fresh
// one each time, with the page's whole set of headers; JSON and files carry a short static policy
// or none, never a nonce; a sandboxed answer keeps its sandbox.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullApp, type FullApp } from '../test-support/full-app';
import { RESOURCE_CSP } from './security-headers';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    get(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const ASSET = '/assets/app-Ab12_-x9.js';
const SCRIPT = `export const words = ${JSON.stringify('a console, compressed at build. '.repeat(200))};\n`;
const MODIFIED = new Date('2026-03-01T10:00:00.250Z');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CODINGS = { br: 'br', gzip: 'gzip', identity: 'identity' } as const;

let f: FullApp;
let url: string;
let staticDir: string;

function write(path: string, bytes: string | Buffer): void {
  writeFileSync(join(staticDir, path), bytes);
  utimesSync(join(staticDir, path), MODIFIED, MODIFIED);
}

beforeAll(async () => {
  f = await fullApp();
  staticDir = join(f.dir, 'static');
  mkdirSync(join(staticDir, 'assets'));
  write(ASSET, SCRIPT);
  write(`${ASSET}.br`, brotliCompressSync(SCRIPT));
  write(`${ASSET}.gz`, gzipSync(SCRIPT));
  write('/theme-init.js', 'document.documentElement.dataset.theme = "light";\n');
  write('/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  ({ url } = await f.serve());
});
afterAll(async () => f?.close());

/** Every header value, so a nonce anywhere in them is seen. */
const allValues = (headers: IncomingHttpHeaders) => Object.values(headers).flat().join('\n');

describe('static files: ETag per copy, 304 on revalidation', () => {
  it('gives the brotli, gzip and plain copies of an asset an ETag each, cached for good', async () => {
    const tags = new Map<string, string>();
    for (const [coding, accept] of Object.entries(CODINGS)) {
      const res = await rawGet(`${url}${ASSET}`, { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['last-modified']).toBe(MODIFIED.toUTCString());
      expect(res.headers.etag).toMatch(/^"[^"]+"$/);
      tags.set(coding, res.headers.etag!);
    }
    expect(new Set(tags.values()).size).toBe(3);
    // The brotli copy's ETag does not validate what a gzip-only client is sent.
    const other = await rawGet(`${url}${ASSET}`, { 'accept-encoding': 'gzip', 'if-none-match': tags.get('br')! });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    expect(other.headers.etag).toBe(tags.get('gzip'));
  });

  it('answers If-None-Match with 304 and no body, for each copy, weak or in a list', async () => {
    for (const accept of Object.values(CODINGS)) {
      const first = await rawGet(`${url}${ASSET}`, { 'accept-encoding': accept });
      const etag = first.headers.etag!;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await rawGet(`${url}${ASSET}`, { 'accept-encoding': accept, 'if-none-match': ifNoneMatch });
        expect({ ifNoneMatch, status: res.status }).toEqual({ ifNoneMatch, status: 304 });
        expect(res.body.length).toBe(0);
        expect(res.headers.etag).toBe(etag);
        expect(res.headers['cache-control']).toBe(IMMUTABLE);
        expect(res.headers.vary).toBe('Accept-Encoding');
        expect(res.headers['content-encoding']).toBeUndefined();
      }
      const stale = await rawGet(`${url}${ASSET}`, { 'accept-encoding': accept, 'if-none-match': '"stale"' });
      expect(stale.status).toBe(200);
      expect(stale.body.equals(first.body)).toBe(true);
    }
  });

  it('answers If-Modified-Since with 304 when not modified since, and in full when it was', async () => {
    const lastModified = MODIFIED.toUTCString();
    const same = await rawGet(`${url}${ASSET}`, { 'accept-encoding': 'br', 'if-modified-since': lastModified });
    expect(same.status).toBe(304);
    expect(same.body.length).toBe(0);
    const earlier = new Date(MODIFIED.getTime() - 1_000).toUTCString();
    const changed = await rawGet(`${url}${ASSET}`, { 'accept-encoding': 'br', 'if-modified-since': earlier });
    expect(changed.status).toBe(200);
    expect(changed.body.equals(brotliCompressSync(SCRIPT))).toBe(true);
    // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
    const both = await rawGet(`${url}${ASSET}`, { 'if-none-match': '"stale"', 'if-modified-since': lastModified });
    expect(both.status).toBe(200);
    const garbled = await rawGet(`${url}${ASSET}`, { 'if-modified-since': 'not a date' });
    expect(garbled.status).toBe(200);
  });

  it('revalidates the public files, and a changed file is sent again under a new ETag', async () => {
    const first = await rawGet(`${url}/theme-init.js`);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    // Nothing to vary on: the file has no compressed copy.
    expect(first.headers.vary).toBeUndefined();
    const again = await rawGet(`${url}/theme-init.js`, { 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await rawGet(`${url}/favicon.svg`, { 'if-modified-since': MODIFIED.toUTCString() })).status).toBe(304);
    write('/theme-init.js', 'document.documentElement.dataset.theme = "dark";\n');
    utimesSync(
      join(staticDir, 'theme-init.js'),
      new Date(MODIFIED.getTime() + 5_000),
      new Date(MODIFIED.getTime() + 5_000),
    );
    const changed = await rawGet(`${url}/theme-init.js`, { 'if-none-match': first.headers.etag! });
    expect(changed.status).toBe(200);
    expect(changed.body.toString()).toContain('dark');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await rawGet(`${url}${ASSET}`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-length']).toBe(String(brotliCompressSync(SCRIPT).length));
    expect(res.headers.etag).toMatch(/-br"$/);
  });
});

describe('security headers by kind of answer', () => {
  it('sends the shell with its own nonce, in the policy and in the page, and every page header', async () => {
    const nonces = new Set<string>();
    for (const path of ['/', '/index.html', '/rooms/demo', '/']) {
      const res = await rawGet(`${url}${path}`, {
        'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString(),
      });
      // Never a 304: each response's nonce differs, so none is kept (decisions-server.md §66).
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.etag).toBeUndefined();
      const csp = String(res.headers['content-security-policy'] ?? '');
      const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/.exec(csp)?.[1];
      expect(nonce, csp).toBeDefined();
      expect(res.body.toString()).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
      nonces.add(nonce!);
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
    expect(nonces.size).toBe(4);
  });

  it('sends JSON, errors included, with the short static policy and no nonce', async () => {
    const answers = [
      await rawGet(`${url}/health`),
      await rawGet(`${url}/api/inbox`, { cookie: f.facilitator }),
      await rawGet(`${url}/api/no-such-route`),
      await rawGet(`${url}/api/auth/session`),
    ];
    for (const res of answers) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe(RESOURCE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(allValues(res.headers)).not.toMatch(/nonce/i);
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
    expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 401]);
  });

  it('sends scripts with nosniff alone, an SVG with the static policy, none with a nonce', async () => {
    const script = await rawGet(`${url}${ASSET}`, { 'accept-encoding': 'br' });
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(allValues(script.headers)).not.toMatch(/nonce/i);
    const svg = await rawGet(`${url}/favicon.svg`);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.headers['content-security-policy']).toBe(RESOURCE_CSP);
    expect(allValues(svg.headers)).not.toMatch(/nonce/i);
    const notModified = await rawGet(`${url}${ASSET}`, { 'if-none-match': script.headers.etag! });
    expect(allValues(notModified.headers)).not.toMatch(/nonce/i);
  });

  it("keeps a sandboxed answer's sandbox policy", async () => {
    const res = await rawGet(`${url}/api/external/threads`, { cookie: f.observer });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
