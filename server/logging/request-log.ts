// One log line per HTTP request, when it ends (decisions-server.md §65): `reqId`, `method`,
// `route`, `status`, `durationMs`. `route` is the pattern that answered (`/api/rooms/:id`), never
// the URL, so a token in a path or a query cannot reach the log. A long-poll ends with its
// handler; an event stream (SSE) is logged when its body ends or the client goes away.
import { randomBytes } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import type { Context } from 'hono';
import type { Logger } from './logger';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id in the log and in X-Request-Id. */
    reqId: string;
  }
}

/** An inbound X-Request-Id is kept only when it is this: short, and safe to write anywhere. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Probes that would flood the log at info: health and readiness checks, metric scrapes. */
const PROBES = new Set(['/health', '/ready', '/metrics']);

export function requestId(inbound: string | undefined): string {
  return inbound !== undefined && SAFE_REQUEST_ID.test(inbound) ? inbound : randomBytes(12).toString('base64url');
}

export function requestLog(log: Logger) {
  return createMiddleware(async (c, next) => {
    const started = performance.now();
    const reqId = requestId(c.req.header('x-request-id'));
    c.set('reqId', reqId);
    await next();
    setHeader(c, 'X-Request-Id', reqId);
    const line = () => {
      const route = routePath(c) || null;
      const status = c.res.status;
      const fields = {
        reqId,
        method: c.req.method,
        route,
        status,
        durationMs: Math.round(performance.now() - started),
      };
      if (status >= 500) log.error(fields, 'request');
      else if (route !== null && PROBES.has(route)) log.debug(fields, 'request');
      else log.info(fields, 'request');
    };
    if (c.res.body && c.res.headers.get('content-type')?.startsWith('text/event-stream'))
      c.res = whenBodyEnds(c.res, line);
    else line();
  });
}

function setHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    // A response with immutable headers (one passed through from fetch): copied first.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}

/** The same response, whose body calls `ended` once: at its end, on an error, or when the client cancels it. */
function whenBodyEnds(res: Response, ended: () => void): Response {
  const reader = res.body!.getReader();
  let open = true;
  const end = () => {
    if (!open) return;
    open = false;
    ended();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
