// A JSON request body read up to a byte limit, never more: a declared Content-Length above the
// limit is refused before reading, and a streamed body is cut one chunk past it. Refusals are
// PAYLOAD_TOO_LARGE (413), JSON_TOO_DEEP (400, json-text.ts) or INVALID_REQUEST (400, not UTF-8
// or not JSON).
import type { Context } from 'hono';
import { CodedError } from '@shared/errors';
import { parseJsonText } from './json-text';

export async function readJsonBody(c: Context, limitBytes: number): Promise<unknown> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) {
    throw new CodedError('PAYLOAD_TOO_LARGE', `A body may be at most ${limitBytes} bytes.`, { limit: limitBytes, size: declared });
  }
  const reader = c.req.raw.body?.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limitBytes) {
        await reader.cancel().catch(() => undefined);
        throw new CodedError('PAYLOAD_TOO_LARGE', `A body may be at most ${limitBytes} bytes.`, { limit: limitBytes });
      }
      chunks.push(value);
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new CodedError('INVALID_REQUEST', 'The body is not UTF-8 text.');
  }
  return parseJsonText(text);
}
