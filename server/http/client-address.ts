// Who a request comes from (decisions-server.md §77). The direct peer, unless it is one of the
// proxies the administrator trusts (TRUST_PROXY): then `X-Forwarded-For` is read from the right,
// skipping trusted hops, and the first address that is not a trusted proxy is the client. Every
// entry left of that one was written by the client itself and is never believed. Without
// TRUST_PROXY the header is ignored, so a client cannot choose its own rate-limit key.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Addresses and CIDR ranges whose `X-Forwarded-For` is believed. */
export type TrustedProxies = readonly (readonly [Address, number])[];

/** One address or range ("10.0.0.5", "10.0.0.0/8", "fd00::/8"); undefined when it is neither. */
function parseEntry(text: string): readonly [Address, number] | undefined {
  try {
    if (text.includes('/')) {
      const [range, bits] = ipaddr.parseCIDR(text);
      // An IPv4-mapped range is the IPv4 range it stands for, as peers are compared.
      if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
        return [(range as ipaddr.IPv6).toIPv4Address(), bits - 96];
      return [range, bits];
    }
    if (!ipaddr.isValid(text)) return undefined;
    const address = ipaddr.process(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** "10.0.0.5, 192.168.0.0/16" → the trusted proxies; undefined when any entry is not an address or a range. */
export function parseTrustedProxies(raw: string): TrustedProxies | undefined {
  const entries = raw.split(',').map((entry) => entry.trim());
  const parsed = entries.map(parseEntry);
  return parsed.every((entry) => entry !== undefined) ? parsed : undefined;
}

/** An address in one form (IPv4-mapped IPv6 as its IPv4 address); undefined when it is not one. */
function normalised(text: string): Address | undefined {
  return ipaddr.isValid(text) ? ipaddr.process(text) : undefined;
}

function isTrusted(address: Address, trusted: TrustedProxies): boolean {
  return trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** Whether a socket's peer is a trusted proxy (the per-address connection cap leaves those to the proxy). */
export function isTrustedProxy(peer: string | undefined, trusted: TrustedProxies): boolean {
  const address = peer === undefined ? undefined : normalised(peer);
  return address !== undefined && trusted.length > 0 && isTrusted(address, trusted);
}

/**
 * The client's address: `peer` itself unless it is trusted; then the rightmost `X-Forwarded-For`
 * hop that is not a trusted proxy. A hop that is not an address ends the walk at the last trusted
 * one (a proxy that wrote junk is not a client to key on).
 */
export function resolveClientAddress(peer: string, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let current = normalised(peer);
  if (current === undefined) return peer;
  if (trusted.length === 0 || forwardedFor === undefined) return current.toString();
  const hops = forwardedFor.split(',').map((hop) => hop.trim());
  while (isTrusted(current, trusted)) {
    const hop = hops.pop();
    if (hop === undefined) break;
    const next = normalised(hop);
    if (next === undefined) break;
    current = next;
  }
  return current.toString();
}
