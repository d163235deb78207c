// One cap on every request body, whatever the route: routes with a smaller limit of their own
// (auth 16 KiB, envelopes and RFC 0002 documents 64 KiB, forwarding 256 KiB) refuse earlier, and
// a route that reads its body whole (a zod-validated JSON body) can never buffer more than this.
import { bodyLimit } from 'hono/body-limit';
import { CodedError } from '@shared/errors';

export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

export const bodyCap = () =>
  bodyLimit({
    maxSize: MAX_REQUEST_BODY_BYTES,
    onError: () => {
      throw new CodedError('PAYLOAD_TOO_LARGE', `A request body may be at most ${MAX_REQUEST_BODY_BYTES} bytes.`, { limit: MAX_REQUEST_BODY_BYTES });
    },
  });
