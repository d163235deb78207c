// The built console's files as HTTP answers a cache can keep and revalidate (decisions-server.md
// §49, §89): the brotli or gzip copy made at build (scripts/vite-precompress.ts) when the browser
// accepts it, a strong ETag per copy, Last-Modified, and 304 Not Modified to a request whose
// validator still matches (RFC 9110 §13.2.2: If-None-Match first; If-Modified-Since only without
// it). Only names the build writes are looked up: no percent-encoding, no dot segments, no
// dotfiles; anything else goes on to the next handler (the shell).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';

const FILE_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

/** The copies the build makes, best first: the file's name plus this suffix. */
const COPIES = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

interface Found {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The Content-Encoding of this copy; undefined for the file as it is. */
  readonly coding: string | undefined;
  /** Whether the file has a compressed copy at all, so that answers for it vary by Accept-Encoding. */
  readonly varies: boolean;
}

async function fileAt(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** The codings of an Accept-Encoding value with a q above zero (RFC 9110 §12.5.3). */
export function acceptedCodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (name !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}

async function find(root: string, urlPath: string, acceptEncoding: string | undefined): Promise<Found | undefined> {
  const path = join(root, urlPath);
  const file = await fileAt(path);
  if (!file) return undefined;
  const accepted = acceptedCodings(acceptEncoding);
  let varies = false;
  for (const { coding, suffix } of COPIES) {
    const copy = await fileAt(path + suffix);
    if (!copy) continue;
    varies = true;
    if (accepted.has(coding) || accepted.has('*')) return { path: path + suffix, ...copy, coding, varies };
  }
  return { path, ...file, coding: undefined, varies };
}

/**
 * A strong validator for one copy: its size and modification time, as nginx makes them, and the
 * coding, since the brotli, gzip and plain bytes of a file are three representations (RFC 9110 §8.8.3).
 */
export function etagOf(found: Pick<Found, 'size' | 'mtimeMs' | 'coding'>): string {
  const coding = found.coding === undefined ? '' : `-${found.coding}`;
  return `"${found.size.toString(36)}-${Math.trunc(found.mtimeMs).toString(36)}${coding}"`;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether the client's copy is current (RFC 9110 §13.1.2 weak comparison, §13.1.3, §13.2.2). */
export function isNotModified(c: Context, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
  }
  const ifModifiedSince = c.req.header('if-modified-since');
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  // HTTP dates have whole seconds: the file is unmodified if its mtime, so truncated, is not later.
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

export function staticFiles(root: string, cacheControl: string): MiddlewareHandler {
  return async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || !FILE_PATH.test(c.req.path)) return next();
    const found = await find(root, c.req.path, c.req.header('accept-encoding'));
    if (!found) return next();
    const etag = etagOf(found);
    c.header('Cache-Control', cacheControl);
    c.header('ETag', etag);
    c.header('Last-Modified', new Date(found.mtimeMs).toUTCString());
    if (found.varies) c.header('Vary', 'Accept-Encoding');
    if (isNotModified(c, etag, found.mtimeMs)) return c.body(null, 304);
    c.header('Content-Type', getMimeType(c.req.path) ?? 'application/octet-stream');
    if (found.coding) c.header('Content-Encoding', found.coding);
    c.header('Content-Length', String(found.size));
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(Readable.toWeb(createReadStream(found.path)) as ReadableStream, 200);
  };
}
