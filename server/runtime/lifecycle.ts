// One start order and its reverse (docs/decisions-server.md §46): each part that has started
// says how it stops; close() stops them last-started first, and a start that fails part-way
// stops what had already started before its error goes on.

type Stop = () => Promise<void> | void;

export class Lifecycle {
  readonly #stops: Stop[] = [];

  /** Starts one part; its stop runs before the stops of every part started earlier. */
  async open<T>(start: () => Promise<T> | T, stop: (part: T) => Promise<void> | void): Promise<T> {
    const part = await start();
    this.#stops.push(() => stop(part));
    return part;
  }

  /** A part that started without a start of its own (constructed, or started by another call). */
  started(stop: Stop): void {
    this.#stops.push(stop);
  }

  /** Stops every part in reverse, each after the one started after it has stopped. */
  async close(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse()) await stop();
  }

  /** After a failed start: stops what started, in reverse, ignoring their failures so the start's own error is the one reported. */
  async unwind(): Promise<void> {
    for (const stop of this.#stops.splice(0).reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => undefined);
  }
}
