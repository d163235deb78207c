// A JSON request body read up to a byte limit, never more: a declared Content-Length above the
// limit is refused before reading, and a streamed body is cut one chunk past it. Refusals are
// PAYLOAD_TOO_LARGE (413), JSON_TOO_DEEP (400, json-text.ts) or INVALID_REQUEST (400, not UTF-8
// or not JSON).
import type { Context } from 'hono';
import { CodedError } from '@shared/errors';
import { parseJsonText } from './json-text';
import { readCapped } from './read-capped';

export async function readJsonBody(c: Context, limitBytes: number): Promise<unknown> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    throw new CodedError('PAYLOAD_TOO_LARGE', `A body may be at most ${limitBytes} bytes.`, { limit: limitBytes, size: declared });
  }
  const body = await readCapped(c.req.raw.body, limitBytes);
  if (!body) throw new CodedError('PAYLOAD_TOO_LARGE', `A body may be at most ${limitBytes} bytes.`, { limit: limitBytes });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new CodedError('INVALID_REQUEST', 'The body is not UTF-8 text.');
  }
  return parseJsonText(text);
}
