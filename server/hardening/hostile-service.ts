// A counterparty service that misbehaves on purpose, on a real local socket: it answers HTML
// with script, JSON labelled text/html with headers of its own, a body far past any cap, a body
// that never ends, a redirect and JSON nested past the depth bound. It counts every request it
// receives, so a test can also prove that nothing reached it.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileService {
  readonly url: string;
  /** Requests received so far, by `METHOD path`. */
  readonly requests: string[];
  /** Bytes of the 50 MB body written before the proxy hung up. */
  hugeBytesWritten(): number;
  close(): Promise<void>;
}

export const HOSTILE_HTML = '<!doctype html><script>fetch("/api/auth/session").then(r=>r.text()).then(alert)</script>';
export const HUGE_BYTES = 50 * 1024 * 1024;

export async function startHostileService(): Promise<HostileService> {
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let hugeWritten = 0;
  const html = (res: ServerResponse, body: string, status = 200) =>
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const path = (req.url ?? '').split('?')[0] ?? '';
    switch (path) {
      case '/oap/manifest':
      case '/health':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      case '/events':
      case '/oap/negotiation/html':
        return html(res, HOSTILE_HTML);
      case '/oap/negotiation/json-as-html':
        return res
          .writeHead(200, {
            'content-type': 'text/html',
            'set-cookie': 'sb_session=planted; Path=/',
            'x-upstream': 'leaked',
            refresh: '0; url=https://evil.example',
          })
          .end('{"negotiation":{"id":"neg_1","note":"<script>alert(1)</script>"}}');
      case '/oap/negotiation/huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (hugeWritten < HUGE_BYTES && !res.destroyed) {
            hugeWritten += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.write('[');
        return pump();
      }
      case '/oap/negotiation/slow': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 200);
        timers.add(drip);
        return;
      }
      case '/oap/negotiation/redirect':
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      case '/oap/negotiation/deep':
        return res.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(100) + ']'.repeat(100));
      default:
        return res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"NOT_FOUND"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hugeBytesWritten: () => hugeWritten,
    close: async () => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
