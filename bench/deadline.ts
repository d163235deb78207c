// Every wait in a bench has a deadline, so a lost reply fails the run with what it waited for
// instead of hanging it (a hung bench also hangs `npm run bench`, which only kills it later).
export class DeadlineError extends Error {}

/** Resolves as `promise` does, or rejects after `ms` with "timed out after … waiting for <what>". */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`timed out after ${ms / 1000} s waiting for ${what()}`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Polls `done` every `everyMs` until it holds, or rejects after `ms` naming `what`. */
export async function waitUntil(done: () => boolean, ms: number, what: () => string, everyMs = 2): Promise<void> {
  const end = performance.now() + ms;
  while (!done()) {
    if (performance.now() > end) throw new DeadlineError(`timed out after ${ms / 1000} s waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
