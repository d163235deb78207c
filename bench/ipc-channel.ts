// The request/reply channel between a bench and the clients process it forks (BENCH_CLIENTS=process):
// numbered requests in both directions over Node's IPC, each answered once by a result or an error.
export type Request = { readonly req: number; readonly kind: string; readonly args: unknown[] };
export type Reply = { readonly res: number; readonly result?: unknown; readonly error?: string };
export type Wire = Request | Reply;

export function channel(send: (message: Wire) => void, serve: (kind: string, args: unknown[]) => Promise<unknown>) {
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  return {
    request: (kind: string, ...args: unknown[]) =>
      new Promise<unknown>((resolve, reject) => {
        pending.set(++next, { resolve, reject });
        send({ req: next, kind, args });
      }),
    /** Rejects every request still waiting for its reply (the other side is gone). */
    failAll(error: Error): void {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    },
    receive(message: Wire): void {
      if ('res' in message) {
        const waiting = pending.get(message.res);
        pending.delete(message.res);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result);
        return;
      }
      serve(message.kind, message.args).then(
        (result) => send({ res: message.req, result }),
        (error: unknown) =>
          send({ res: message.req, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
      );
    },
  };
}
