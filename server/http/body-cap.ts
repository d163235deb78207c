// One cap on every request body, whatever the route: routes with a smaller limit of their own
// (auth 16 KiB, envelopes and RFC 0002 documents 64 KiB, forwarding 256 KiB) refuse earlier, and
// a route that reads its body whole (a zod-validated JSON body) can never buffer more than this.
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { CodedError } from '@shared/errors';

export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new CodedError('PAYLOAD_TOO_LARGE', `A request body may be at most ${MAX_REQUEST_BODY_BYTES} bytes.`, { limit: MAX_REQUEST_BODY_BYTES });

export const bodyCap = () => {
  const limit = bodyLimit({
    maxSize: MAX_REQUEST_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  });
  return createMiddleware(async (c, next) => {
    // A GET or HEAD request has no body (Fetch: such a Request cannot carry one), and a declared
    // length without transfer-encoding is the body's framing, all body-limit would compare. Only
    // a chunked body is counted by reading it: merely asking for the body makes @hono/node-server
    // build the full Request (headers, signal, web stream), which a waiting long-poll would hold
    // for its whole wait and every request would allocate (docs/benchmarks.md, relay wake-ups).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limit(c, next);
    if (Number.parseInt(declared, 10) > MAX_REQUEST_BODY_BYTES) throw tooLarge();
    return next();
  });
};
