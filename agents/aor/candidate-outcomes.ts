// What became of each candidate this agent sent to `rooms/{roomId}/public_candidates`. AOR §7:
// an approved candidate is republished unchanged to `rooms/{roomId}/public`; a refused one is
// answered by a `reject` on `rooms/{roomId}/control` whose `message_id` names it (§5.7).

export type CandidateOutcome =
  | { readonly status: 'approved'; readonly messageId: string }
  | { readonly status: 'rejected'; readonly messageId: string; readonly reason: string; readonly detail?: string }
  /** Neither arrived in time (a review-mode room where nobody decided), or the client closed. */
  | { readonly status: 'unknown'; readonly messageId: string; readonly why: 'timeout' | 'closed' };

interface Pending {
  readonly roomId: string;
  readonly text: string;
  readonly resolve: (outcome: CandidateOutcome) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class CandidateOutcomes {
  readonly #pending = new Map<string, Pending>();

  constructor(private readonly timeoutMs: number) {}

  /** Registers a candidate before it is published, so a fast verdict cannot be missed. */
  expect(messageId: string, roomId: string, text: string): Promise<CandidateOutcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => this.#settle(messageId, { status: 'unknown', messageId, why: 'timeout' }),
        this.timeoutMs,
      );
      timer.unref?.();
      this.#pending.set(messageId, { roomId, text, resolve, timer });
    });
  }

  /** A message on `rooms/{roomId}/public`: approved when it is, byte for byte, one we sent. */
  seenOnPublic(roomId: string, messageId: string, text: string): boolean {
    const pending = this.#pending.get(messageId);
    if (!pending || pending.roomId !== roomId || pending.text !== text) return false;
    return this.#settle(messageId, { status: 'approved', messageId });
  }

  /** A `reject` on `rooms/{roomId}/control`. */
  rejected(roomId: string, messageId: string, reason: string, detail?: string): boolean {
    const pending = this.#pending.get(messageId);
    if (!pending || pending.roomId !== roomId) return false;
    return this.#settle(messageId, {
      status: 'rejected',
      messageId,
      reason,
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /** The publish itself failed: nobody will decide on it. */
  forget(messageId: string): void {
    const pending = this.#pending.get(messageId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(messageId);
  }

  closeAll(): void {
    for (const messageId of [...this.#pending.keys()])
      this.#settle(messageId, { status: 'unknown', messageId, why: 'closed' });
  }

  #settle(messageId: string, outcome: CandidateOutcome): boolean {
    const pending = this.#pending.get(messageId);
    if (!pending) return false;
    clearTimeout(pending.timer);
    this.#pending.delete(messageId);
    pending.resolve(outcome);
    return true;
  }
}
