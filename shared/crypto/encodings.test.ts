import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CodedError } from '../errors';
import { decodeBase64url, encodeBase64url } from './base64url';
import { bytesEqual, concatBytes, fromHex, fromUtf8, toHex, utf8 } from './bytes';
import { sha256Hex } from './sha256';

describe('base64url (RFC 4648 §5, unpadded)', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 96 }), (bytes) => {
        const text = encodeBase64url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(decodeBase64url(text)).toEqual(bytes);
      }),
      { seed: 4648, numRuns: 300 },
    );
  });

  it.each(['AQ==', 'a+b/', 'AQ A', 'AR'])('refuses non-canonical or foreign text %j', (text) => {
    expect(() => decodeBase64url(text)).toThrow(CodedError);
  });

  it('checks the input type', () => expect(() => decodeBase64url(1 as unknown as string)).toThrow(TypeError));
});

describe('SHA-256', () => {
  it('matches the FIPS 180-2 "abc" and empty-string digests', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('bytes', () => {
  it('decodes hex in either case and refuses odd lengths', () => {
    expect(fromHex('0aFF')).toEqual(Uint8Array.of(10, 255));
    expect(toHex(Uint8Array.of(10, 255))).toBe('0aff');
    expect(() => fromHex('abc')).toThrow(CodedError);
    expect(() => fromHex(3 as unknown as string)).toThrow(TypeError);
  });

  it('refuses malformed UTF-8 instead of substituting', () => {
    expect(fromUtf8(utf8('héllo ✓'))).toBe('héllo ✓');
    expect(() => fromUtf8(Uint8Array.of(0xc3, 0x28))).toThrow(CodedError);
  });

  it('compares and concatenates', () => {
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(bytesEqual(Uint8Array.of(1), Uint8Array.of(1, 2))).toBe(false);
    expect(concatBytes(Uint8Array.of(1), Uint8Array.of(), Uint8Array.of(2, 3))).toEqual(Uint8Array.of(1, 2, 3));
  });
});
