// Byte helpers shared by the crypto primitives. Inputs are checked at the boundary,
// as noble does: TypeError for the wrong type, RangeError for the wrong length.
import { hex } from '@scure/base';
import { CodedError } from '../errors';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** Decodes UTF-8, refusing malformed sequences instead of substituting U+FFFD. */
export function fromUtf8(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new CodedError('INVALID_UTF8', 'Bytes are not valid UTF-8.');
  }
}

export function assertBytes(value: unknown, name: string, length?: number): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
  if (length !== undefined && value.length !== length) {
    throw new RangeError(`${name} must be ${length} bytes, got ${value.length}`);
  }
}

export const toHex = (bytes: Uint8Array): string => hex.encode(bytes);

export function fromHex(text: string): Uint8Array {
  if (typeof text !== 'string') throw new TypeError('hex input must be a string');
  try {
    return hex.decode(text.toLowerCase());
  } catch {
    throw new CodedError('INVALID_HEX', 'Not a hexadecimal string of whole bytes.');
  }
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Constant-time for equal lengths; used where a digest or token is compared. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
