// Where the server may send a request for a facilitator (decisions-server.md §41): only to public
// unicast addresses. Loopback, RFC 1918 and RFC 4193 private ranges, link-local (cloud metadata
// at 169.254.169.254 included), CGNAT, unspecified, multicast, reserved and the IPv6 forms that
// embed an IPv4 address (IPv4-mapped, IPv4-compatible `::/96`, NAT64, 6to4, Teredo) are refused.
// ipaddr.js classifies; anything it does not call plain `unicast` is private for this purpose.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // IPv4-compatible `::a.b.c.d` (deprecated, RFC 4291 §2.5.5.1): ipaddr.js calls `::7f00:1`, which
  // is how a URL writes `[::127.0.0.1]`, unicast, and reads the text `::8.8.8.8` as IPv4-mapped; a
  // stack may still route either to the IPv4 address (decisions-server.md §81). None is public,
  // whatever IPv4 address it embeds: the address is read in the WHATWG URL parser's form first.
  const raw = ipaddr.parse(urlForm(address));
  if (raw.kind() === 'ipv6' && (raw as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** An IPv6 address as a URL's hostname writes it (`::8.8.8.8` → `::808:808`); anything else as it is. */
function urlForm(address: string): string {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address; // a zone id (`fe80::1%eth0`) is no URL host
  }
}

/** A URL's hostname as an address when it is an IP literal (IPv6 without its brackets). */
export function ipLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** RFC 6761 §6.3: `localhost` and names under it are loopback whatever a resolver says. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is ${address === host ? 'not a public address' : `at ${address}, not a public address`}`);
  }
}

/**
 * The addresses `hostname` stands for, each checked: an IP literal is itself, a name is what the
 * resolver answers now. Throws AddressRefusedError when any of them is not public (a name
 * answering one public and one private address is refused whole: the connection could take
 * either).
 */
export async function publicAddresses(
  hostname: string,
  resolve: typeof lookup = lookup,
): Promise<{ address: string; family: number }[]> {
  const literal = ipLiteral(hostname);
  if (literal !== undefined) {
    if (!isPublicAddress(literal)) throw new AddressRefusedError(hostname, literal);
    return [{ address: literal, family: isIP(literal) }];
  }
  if (isLocalhostName(hostname)) throw new AddressRefusedError(hostname, 'loopback');
  const found = await resolve(hostname, { all: true, verbatim: true });
  for (const { address } of found) if (!isPublicAddress(address)) throw new AddressRefusedError(hostname, address);
  return found;
}
