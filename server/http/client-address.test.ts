import { describe, expect, it } from 'vitest';
import { isTrustedProxy, parseTrustedProxies, resolveClientAddress } from './client-address';

const trusted = parseTrustedProxies('127.0.0.1, 10.0.0.0/8, fd00::/8')!;

describe('resolveClientAddress (decisions-server.md §77)', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(resolveClientAddress('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
    expect(resolveClientAddress('203.0.113.9', '198.51.100.1', [])).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', '198.51.100.1', [])).toBe('127.0.0.1');
  });

  it('takes the rightmost hop that is not a trusted proxy, never what the client wrote left of it', () => {
    expect(resolveClientAddress('127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    // The client sent "X-Forwarded-For: 1.1.1.1"; the proxy appended the real peer.
    expect(resolveClientAddress('127.0.0.1', '1.1.1.1, 198.51.100.1', trusted)).toBe('198.51.100.1');
    // Two trusted proxies in a row.
    expect(resolveClientAddress('127.0.0.1', '1.1.1.1, 198.51.100.1, 10.1.2.3', trusted)).toBe('198.51.100.1');
    expect(resolveClientAddress('fd00::5', '2001:db8::7', trusted)).toBe('2001:db8::7');
  });

  it('compares IPv4-mapped peers as IPv4, and stops at a hop that is not an address', () => {
    expect(resolveClientAddress('::ffff:127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(resolveClientAddress('127.0.0.1', 'junk, 10.0.0.9', trusted)).toBe('10.0.0.9');
    expect(resolveClientAddress('127.0.0.1', '', trusted)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
  });

  it('says which socket peers are trusted proxies', () => {
    expect(isTrustedProxy('::ffff:10.9.9.9', trusted)).toBe(true);
    expect(isTrustedProxy('192.168.1.1', trusted)).toBe(false);
    expect(isTrustedProxy('127.0.0.1', [])).toBe(false);
    expect(isTrustedProxy(undefined, trusted)).toBe(false);
  });
});

describe('parseTrustedProxies', () => {
  it('reads addresses and CIDR ranges, and refuses anything else', () => {
    expect(parseTrustedProxies('127.0.0.1')).toHaveLength(1);
    expect(parseTrustedProxies('::1, 10.0.0.0/8, ::ffff:192.168.0.0/112')).toHaveLength(3);
    expect(isTrustedProxy('192.168.4.4', parseTrustedProxies('::ffff:192.168.0.0/112')!)).toBe(true);
    for (const bad of ['proxy.internal', '10.0.0.0/33', '10.0.0.1,', '*', '10.0.0.1 10.0.0.2'])
      expect(parseTrustedProxies(bad)).toBeUndefined();
  });
});
