// A real HTTP receiver for webhook tests (node:http on an ephemeral port): it records every
// request with its headers and exact body bytes and answers with what `answer` says for it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: Uint8Array;
  readonly deliveryId: string;
  /** The status answered; null while the request is held unanswered. */
  status: number | null;
}

/** A status to answer, or 'hold': keep the request open without an answer. */
export type Answer = (request: ReceivedRequest, index: number) => number | 'hold';

export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedRequest[];
  answer: Answer;
  /** Resolves once `predicate` holds over what was received (checked at each request and answer). */
  until(predicate: (received: readonly ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: Answer = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedRequest = {
        headers: req.headers,
        body: new Uint8Array(Buffer.concat(chunks)),
        deliveryId: String(req.headers['switchboard-delivery'] ?? ''),
        status: null,
      };
      received.push(entry);
      const verdict = receiver.answer(entry, received.length - 1);
      if (verdict !== 'hold') {
        entry.status = verdict;
        res.writeHead(verdict, { 'content-type': 'text/plain' }).end('ok');
      }
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer,
    until(predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver did not see what was expected; it got ${received.length} requests`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
