// The console's /mqtt WebSocket when the rooms run on an external broker (MQTT_URL).
// The browser never holds a broker credential, so it cannot connect to Mosquitto itself: it
// connects, with its session cookie, to an aedes in this process that serves consoles only (no
// TCP listener, no agent can log in) and enforces the same operator ACL as embedded mode. The
// server bridges it to the external broker with its own credential:
// - broker → consoles: every `rooms/#` and `switchboard/#` message the server receives (or
//   publishes itself, the gateway's) is published to the consoles' aedes as the spec's topic;
// - console → broker: a facilitator's publish that passes the ACL is recorded in history and
//   audited (`beforeRoute`, as in embedded mode), then published on the external broker by the
//   server. The local aedes routes the original to the other consoles, so the copy the server's
//   own handlers see is not sent back to them (it would arrive twice).
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { BrokerIdentity } from './acl';
import type { BrokerMessage, BrokerPort } from './broker-port';
import { EmbeddedBroker } from './embedded-broker';
import type { SendLimits } from './send-limits';
import { moduleLogger } from '../logging/logger';

const log = moduleLogger('mqtt');

export interface ConsoleBridgeOptions {
  /** The external broker, reached with the server's credential. */
  readonly upstream: BrokerPort;
  /** Records and audits a console's publish before it goes upstream (a throw refuses it). */
  readonly beforeForward: (message: BrokerMessage) => Promise<void>;
  readonly now: () => number;
  /** What the consoles' aedes holds for a console that stops reading (send-limits.ts). */
  readonly sendLimits?: SendLimits;
  /** How often open consoles' sessions are checked again (ms); see EmbeddedBrokerOptions. */
  readonly revalidateEveryMs?: number;
}

/** What the console reads: the rooms and the console's own notices (review queue, moderation). */
const CONSOLE_FILTERS = ['rooms/#', 'switchboard/#'];

export class ConsoleBridge {
  readonly #local: EmbeddedBroker;
  readonly #unsubscribe: (() => void)[];

  private constructor(local: EmbeddedBroker, unsubscribe: (() => void)[]) {
    this.#local = local;
    this.#unsubscribe = unsubscribe;
  }

  static async create(options: ConsoleBridgeOptions): Promise<ConsoleBridge> {
    // Payloads this bridge forwarded upstream: the upstream port hands each back to the server's
    // handlers (by the same object), and the consoles already have it from the local route.
    const forwarded = new WeakSet<Uint8Array>();
    const local = await EmbeddedBroker.create({
      now: options.now,
      ...(options.sendLimits ? { sendLimits: options.sendLimits } : {}),
      ...(options.revalidateEveryMs ? { revalidateEveryMs: options.revalidateEveryMs } : {}),
      // Agents use the external broker; here only session-authenticated consoles connect.
      verifyAgent: async () => false,
      beforeRoute: async (message) => {
        await options.beforeForward(message);
        forwarded.add(message.payload);
        await options.upstream.publish(message.topic, message.payload, 1);
      },
    });
    const unsubscribe = CONSOLE_FILTERS.map((filter) =>
      options.upstream.onMessage(filter, (message) => {
        if (forwarded.has(message.payload)) return;
        local
          .publish(message.topic, message.payload, 1)
          .catch((error: unknown) =>
            log.error({ topic: message.topic, err: error }, 'the console bridge could not relay'),
          );
      }),
    );
    return new ConsoleBridge(local, unsubscribe);
  }

  /** Serves consoles at `/mqtt` on the console's HTTP server, authenticated by `authenticate`. */
  attachWebSocket(
    server: HttpServer,
    authenticate: (request: IncomingMessage) => Promise<BrokerIdentity | null>,
  ): void {
    this.#local.attachWebSocket(server, authenticate);
  }

  /** Checks every open console's session again now; closes those that ended (EmbeddedBroker.revalidate). */
  revalidate(): Promise<number> {
    return this.#local.revalidate();
  }

  get connectedConsoles(): number {
    return this.#local.connectedClients;
  }

  async close(): Promise<void> {
    for (const off of this.#unsubscribe.splice(0)) off();
    await this.#local.close();
  }
}
