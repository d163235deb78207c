import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8 } from './bytes';

export const sha256 = (data: Uint8Array | string): Uint8Array =>
  nobleSha256(typeof data === 'string' ? utf8(data) : data);

export const sha256Hex = (data: Uint8Array | string): string => toHex(sha256(data));
