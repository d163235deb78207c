// The demo's negotiating agents answering negotiations addressed to them by anyone outside the
// demo (an operator from the console, a third-party agent), so co-signing can be tried outside
// the guided demo (docs/decisions-demo.md §13). They hear that a negotiation moved from `watch`
// (the service's save notifications, as the room demo observes the broker), then read, verify
// and sign over HTTP like any party. Negotiations between two demo agents are scripted elsewhere
// and left alone. One negotiation is answered by one chain at a time; a save heard meanwhile
// makes it look again.
import type { NegotiationParty } from '@agents/negotiation/negotiation-client';
import { answerNegotiation, type AgentPolicy } from './answer-policy';

export interface Responder {
  readonly party: NegotiationParty;
  readonly policy: AgentPolicy;
}

export interface NegotiationResponderOptions {
  readonly agents: readonly Responder[];
  /** Hears every stored negotiation (id and parties); returns the unsubscribe. */
  readonly watch: (listener: (id: string, parties: readonly string[]) => void) => () => void;
  readonly now: () => number;
  /** The agent's "thinking" before it signs an answer. */
  readonly think: (signal: AbortSignal) => Promise<void>;
  readonly validityMs: number;
  readonly onError: (error: unknown) => void;
}

export interface NegotiationResponderHandle {
  /** Settles once no answer is under way (tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startNegotiationResponder(options: NegotiationResponderOptions): NegotiationResponderHandle {
  const stopped = new AbortController();
  const demoDids = new Set<string>(options.agents.map((a) => a.party.did));
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();

  const answerOnce = async (id: string, agent: Responder): Promise<boolean> => {
    const decide = async () =>
      answerNegotiation(await agent.party.state(id), agent.party.did, options.now(), agent.policy);
    if ((await decide()).kind === 'wait') return false;
    await options.think(stopped.signal);
    // Decided again after thinking: the other party may have moved or walked away meanwhile.
    const answer = await decide();
    switch (answer.kind) {
      case 'wait':
        return false;
      case 'cosign':
        await agent.party.cosign(id);
        return true;
      case 'accept':
        await agent.party.accept(id);
        return true;
      case 'counter':
        await agent.party.propose(id, answer.terms, options.validityMs);
        return true;
      case 'reject':
        await agent.party.reject(id, answer.reason);
        return true;
      default: {
        const unhandled: never = answer;
        throw new Error(`unhandled answer ${JSON.stringify(unhandled)}`);
      }
    }
  };

  const run = (id: string, agent: Responder) => {
    if (running.has(id)) return void again.add(id);
    const chain = (async () => {
      do {
        again.delete(id);
        // Its own step saves too, and that save is heard: looking once more finds nothing to do.
        if (await answerOnce(id, agent)) again.add(id);
      } while (again.has(id) && !stopped.signal.aborted);
    })()
      .catch((error: unknown) => {
        if (!stopped.signal.aborted) options.onError(error);
      })
      .finally(() => running.delete(id));
    running.set(id, chain);
  };

  const unsubscribe = options.watch((id, parties) => {
    if (stopped.signal.aborted || parties.every((p) => demoDids.has(p))) return;
    const agent = options.agents.find((a) => parties.includes(a.party.did));
    if (agent) run(id, agent);
  });

  const idle = async () => {
    while (running.size > 0) await Promise.all(running.values());
  };
  return {
    idle,
    async stop() {
      stopped.abort();
      unsubscribe();
      await idle();
    },
  };
}
