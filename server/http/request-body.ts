// The one way a request body is read (decisions-server.md §29, §44): a byte cap checked against
// the declared length before anything is read and while an undeclared (chunked) body streams,
// strict UTF-8, JSON nesting bounded before JSON.parse runs, and Hono's JSON content-type rule.
// Refusals are thrown as BodyRefusal and shaped by http/errors.ts like every other error.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { z } from 'zod';
import type { AgoraReason } from '@shared/agora/reject-reasons';
import { CodedError, type ErrorDetails } from '@shared/errors';
import { parseJsonText } from './json-text';
import { readCapped } from './read-capped';

/** Every request body, whatever the route; routes with a smaller limit pass their own. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * A body this server will not read. `agoraReason` is what the Agora relay routes report it as
 * (Agora's `details.reason`), so the error handler can answer in the relay's shape there.
 */
export class BodyRefusal extends CodedError {
  constructor(
    code: 'PAYLOAD_TOO_LARGE' | 'INVALID_REQUEST' | 'JSON_TOO_DEEP',
    message: string,
    readonly agoraReason: AgoraReason,
    details?: ErrorDetails,
  ) {
    super(code, message, details);
  }
}

const tooLarge = (limit: number, size?: number) =>
  new BodyRefusal(
    'PAYLOAD_TOO_LARGE',
    `A request body may be at most ${limit} bytes.`,
    'payload_too_large',
    size === undefined ? { limit } : { limit, size },
  );

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A cap on a body nobody may read past it: app-wide (MAX_REQUEST_BODY_BYTES) before any route
 * runs, or a route's own smaller one for a body it does not read. A GET or HEAD request has no body (Fetch: such a
 * Request cannot carry one), and a declared length without transfer-encoding is the body's
 * framing, so only a chunked body is counted by reading it: merely asking for the body makes
 * @hono/node-server build the full Request (headers, signal, web stream), which a waiting
 * long-poll would hold for its whole wait (docs/benchmarks.md, relay wake-ups).
 */
export const bodyCap = (maxBytes = MAX_REQUEST_BODY_BYTES): MiddlewareHandler => {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(maxBytes);
    },
  });
  return createMiddleware(async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limit(c, next);
    if (Number.parseInt(declared, 10) > maxBytes) throw tooLarge(maxBytes);
    return next();
  });
};

/** The raw bytes, at most `maxBytes`: a larger declared length is refused before reading. */
export async function readBodyBytes(c: Context, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes, declared);
  // A declared length frames the body (the HTTP parser ends it there), so one within the limit is
  // read whole and directly, without the web stream an undeclared (chunked) body is read through.
  const bytes = Number.isFinite(declared)
    ? new Uint8Array(await c.req.arrayBuffer())
    : await readCapped(c.req.raw.body, maxBytes);
  if (!bytes || bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/** The body as text: at most `maxBytes`, and UTF-8 (Hono's decoder would put U+FFFD for bad bytes). */
export async function readBodyText(
  c: Context,
  maxBytes: number,
): Promise<{ readonly text: string; readonly bytes: number }> {
  const bytes = await readBodyBytes(c, maxBytes);
  try {
    return { text: strictUtf8.decode(bytes), bytes: bytes.byteLength };
  } catch {
    throw new BodyRefusal('INVALID_REQUEST', 'The body is not UTF-8 text.', 'not_json');
  }
}

/** The body as a JSON value: text as above, nested at most 64 deep (json-text.ts), then parsed. */
export async function readBodyJson(c: Context, maxBytes: number): Promise<unknown> {
  const { text } = await readBodyText(c, maxBytes);
  try {
    return parseJsonText(text);
  } catch (error) {
    if (error instanceof CodedError)
      throw new BodyRefusal(
        error.code as 'INVALID_REQUEST' | 'JSON_TOO_DEEP',
        error.message,
        'not_json',
        error.details,
      );
    throw error;
  }
}

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

export interface JsonBodyOptions {
  /** Below MAX_REQUEST_BODY_BYTES where the route's documents are small (auth 16 KiB, RFC 0002 64 KiB). */
  readonly maxBytes?: number;
  /**
   * 'json' (the console's routes): a body whose media type is not JSON is read as `{}`, the rule
   * of Hono's validator the browser client is typed by; 'any' (documents agents post): the body
   * is JSON whatever its Content-Type says.
   */
  readonly contentType?: 'json' | 'any';
}

/** Issues of a failed zod parse, as every INVALID_REQUEST for a body carries them. */
export function invalidBody(error: z.ZodError): CodedError {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = issues[0];
  return new CodedError(
    'INVALID_REQUEST',
    first ? `Invalid body: ${first.path || '(root)'} ${first.message}` : 'Invalid body.',
    { issues },
  );
}

/**
 * A JSON body checked against `schema`: the typed value is
 * `c.req.valid('json')`, which also types the route for hc<AppType>.
 */
export function jsonBody<T extends z.ZodType>(schema: T, options: JsonBodyOptions = {}) {
  const maxBytes = options.maxBytes ?? MAX_REQUEST_BODY_BYTES;
  const contentType = options.contentType ?? 'json';
  return createMiddleware(async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    let value: unknown = {};
    if (contentType === 'any' || JSON_MEDIA_TYPE.test(mediaType)) value = await readBodyJson(c, maxBytes);
    else if (Number(c.req.header('content-length')) > maxBytes) throw tooLarge(maxBytes);
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw invalidBody(parsed.error);
    c.req.addValidatedData('json', parsed.data as object);
    await next();
  }) as MiddlewareHandler<any, string, { in: { json: z.input<T> }; out: { json: z.output<T> } }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Hono's own validator leaves the env open the same way
}
