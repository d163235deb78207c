// The origin a request was addressed to, as the browser saw it. Behind a TLS-terminating proxy
// the connection is plain HTTP, so X-Forwarded-Proto decides the scheme. Trusting it is safe
// here: a browser cannot set it on a cross-origin request (it is not CORS-safelisted), and a
// client that lies about it only affects its own cookie's Secure flag.
import type { Context } from 'hono';

export function requestOrigin(c: Context): string {
  const url = new URL(c.req.url);
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const protocol = forwarded === 'https' || forwarded === 'http' ? `${forwarded}:` : url.protocol;
  return `${protocol}//${url.host}`;
}

export const isHttps = (c: Context): boolean => requestOrigin(c).startsWith('https:');
