// Security by default, sized to what each answer is (decisions-server.md §89). A page (text/html:
// the console's shell) gets the whole set: a strict Content-Security-Policy with no inline script,
// no framing, no referrer leaks, and styles from the app's own stylesheet plus <style> elements
// carrying this response's nonce (the dialogs' scroll lock writes one; decisions-server.md §66),
// never inline style attributes. Every other answer is never a page the console runs in: JSON,
// text and files a browser could still open as a document (SVG, XML) get a short static policy
// that lets such a document load and run nothing and be framed by nobody; scripts, stylesheets,
// images and fonts, which a browser never runs as a document, get nosniff alone. No nonce is made
// for an answer that is not a page. A route that set a policy of its own keeps it
// (sandboxed-answers.ts, the shell's nonce).
import { randomBytes } from 'node:crypto';
import { createMiddleware } from 'hono/factory';

/** The policy of the console's pages; `nonce` admits that response's <style> elements. */
export function pagePolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A fresh nonce for one page (16 random bytes, base64: what the shell's meta tag accepts). */
export const pageNonce = (): string => randomBytes(16).toString('base64');

/** For answers that are not pages: were one opened as a document, it loads nothing and is not framed. */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'";

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'DENY',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};

/** Types a browser runs only as a subresource of a page, never as a document of their own. */
const NEVER_A_DOCUMENT =
  /^(text\/(javascript|css)|application\/(javascript|wasm)|font\/|image\/(png|jpeg|gif|webp|avif|x-icon|vnd\.microsoft\.icon))/i;

export const securityHeaders = () =>
  createMiddleware(async (c, next) => {
    await next();
    const headers = c.res.headers;
    const type = headers.get('content-type') ?? '';
    const set = (name: string, value: string) => {
      if (!headers.has(name)) headers.set(name, value);
    };
    set('X-Content-Type-Options', 'nosniff');
    if (/^text\/html/i.test(type)) {
      set('Content-Security-Policy', pagePolicy());
      for (const [name, value] of Object.entries(PAGE_HEADERS)) set(name, value);
      return;
    }
    // A 304 keeps the headers stored with what it revalidates; nothing to add.
    if (NEVER_A_DOCUMENT.test(type) || c.res.status === 304) return;
    set('Content-Security-Policy', RESOURCE_CSP);
    set('Cross-Origin-Resource-Policy', 'same-origin');
  });
