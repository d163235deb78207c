// DNS rebinding defence (decisions-server.md §43): a page on a name its author controls can
// re-point that name at 127.0.0.1 and then talk to this server as its own origin. The browser
// always sends that name as Host, so a request is answered only when its Host is a name this
// server is known by: `localhost`, any IP literal (a browser that sends one connected to this
// server by that address; no name was rebound), or a name in ALLOWED_HOSTS. The port is not
// compared: a rebound name is refused whatever port it carries. /health and /ready answer any
// Host, for load balancers that probe an instance by a name of their own.
import { isIP } from 'node:net';
import { createMiddleware } from 'hono/factory';
import { CodedError } from '@shared/errors';

/** `*` allows any Host (a proxy in front checks it instead). */
export type AllowedHosts = readonly string[];

const PROBES = new Set(['/health', '/ready']);

/** A Host header's name, lower case, without port, brackets or trailing dot; undefined when it does not parse. */
export function hostName(host: string): string | undefined {
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  const name = url.hostname.replace(/\.$/, '');
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
}

export function isAllowedHost(host: string | undefined, allowed: AllowedHosts): boolean {
  if (allowed.includes('*')) return true;
  if (host === undefined) return false;
  const name = hostName(host);
  if (name === undefined) return false;
  return name === 'localhost' || isIP(name) !== 0 || allowed.includes(name);
}

/** The refusal of a request, or a /mqtt upgrade, under a Host this server does not answer to: 421. */
export const misdirected = (host: string | undefined) =>
  new CodedError(
    'MISDIRECTED_REQUEST',
    `This server does not answer to the host ${JSON.stringify((host ?? '').slice(0, 200))}; an administrator lists the names it is reached by in ALLOWED_HOSTS.`,
  );

export const hostCheck = (allowed: AllowedHosts) =>
  createMiddleware(async (c, next) => {
    if (PROBES.has(c.req.path)) return next();
    // Both the Host header and the URL's authority (an absolute request target sets the latter).
    const header = c.req.header('host');
    const authority = new URL(c.req.url).host;
    if (header !== undefined && !isAllowedHost(header, allowed)) throw misdirected(header);
    if (!isAllowedHost(authority, allowed)) throw misdirected(authority);
    return next();
  });
