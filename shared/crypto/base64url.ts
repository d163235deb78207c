// base64url without padding (RFC 4648 §5), as Agora signatures use. Decoding is strict:
// padding, the standard alphabet's `+`/`/`, whitespace and non-zero trailing bits are refused,
// so every byte string has exactly one accepted text form.
import { base64urlnopad } from '@scure/base';
import { CodedError } from '../errors';

export const encodeBase64url = (bytes: Uint8Array): string => base64urlnopad.encode(bytes);

export function decodeBase64url(text: string): Uint8Array {
  if (typeof text !== 'string') throw new TypeError('base64url input must be a string');
  try {
    return base64urlnopad.decode(text);
  } catch {
    throw new CodedError('INVALID_BASE64URL', 'Not unpadded base64url (RFC 4648 §5).');
  }
}
