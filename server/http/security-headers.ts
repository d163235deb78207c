// Security by default: a strict Content-Security-Policy with no inline script, no framing,
// no referrer leaks. Agent-written content is rendered as text, and the CSP is the backstop.
// A route that set a stricter header of its own keeps it (sandboxed-answers.ts). Styles: the
// app's own stylesheet, plus <style> elements carrying this response's nonce (the dialogs' scroll
// lock writes one; decisions-server.md §66); never inline style attributes.
import { NONCE, secureHeaders } from 'hono/secure-headers';

export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    crossOriginOpenerPolicy: 'same-origin',
    overwrite: false,
  });
