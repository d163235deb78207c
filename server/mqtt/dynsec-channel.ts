// The dynamic-security plugin's command channel: commands go over MQTT to
// `$CONTROL/dynamic-security/v1` as the plugin's admin, answers come back on `…/response`,
// matched to their request by correlation data. Every failure is a CodedError.
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { CodedError } from '@shared/errors';
import { isAuthRefusal } from './broker-refusals';

export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

export interface DynsecConnection {
  /** `mqtt://host:port` (or mqtts://). */
  readonly url: string;
  /** The dynamic-security admin (MQTT_ADMIN_USERNAME / MQTT_ADMIN_PASSWORD). */
  readonly username: string;
  readonly password: string;
  /** How long to wait for the plugin's answer; default 10 s. */
  readonly timeoutMs?: number;
  /** Usernames agents may never take (the server's own); the admin's is always reserved. */
  readonly reservedUsernames?: readonly string[];
}

export interface DynsecResponse {
  readonly command: string;
  readonly error?: string;
  readonly data?: Record<string, unknown>;
  readonly correlationData?: string;
}

export type DynsecCommand = Record<string, unknown> & { readonly command: string };

export class DynsecChannel {
  readonly #client: MqttClient;
  readonly #timeoutMs: number;
  readonly #pending = new Map<
    string,
    { resolve: (r: DynsecResponse[]) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();

  private constructor(client: MqttClient, timeoutMs: number) {
    this.#client = client;
    this.#timeoutMs = timeoutMs;
    client.on('message', (topic, payload) => {
      if (topic === DYNSEC_RESPONSE_TOPIC) this.#answer(payload);
    });
  }

  static async connect(options: DynsecConnection): Promise<DynsecChannel> {
    let client: MqttClient;
    try {
      client = await mqtt.connectAsync(options.url, {
        username: options.username,
        password: options.password,
        protocolVersion: 5,
        reconnectPeriod: 0,
        connectTimeout: options.timeoutMs ?? 10_000,
        clientId: `switchboard-admin-${randomUUID().slice(0, 8)}`,
      });
    } catch (error) {
      const message = (error as Error).message;
      if (isAuthRefusal(message)) {
        throw new CodedError(
          'BROKER_AUTH_FAILED',
          `the broker at ${options.url} refused the admin "${options.username}" (${message}); check MQTT_ADMIN_USERNAME and MQTT_ADMIN_PASSWORD`,
        );
      }
      throw new CodedError('BROKER_UNREACHABLE', `cannot reach the broker at ${options.url}: ${message}`);
    }
    client.on('error', () => undefined); // surfaced through the pending requests instead
    const channel = new DynsecChannel(client, options.timeoutMs ?? 10_000);
    try {
      const granted = await client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
      if ((granted[0]?.qos ?? 0x80) >= 0x80) throw new Error('refused');
    } catch {
      await client.endAsync(true);
      throw new CodedError(
        'DYNSEC_NOT_ADMIN',
        `"${options.username}" may not read ${DYNSEC_RESPONSE_TOPIC}; it is not the dynamic-security admin`,
      );
    }
    return channel;
  }

  async close(): Promise<void> {
    for (const [, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(new CodedError('DYNSEC_CLOSED', 'the dynamic-security connection was closed'));
    }
    this.#pending.clear();
    await this.#client.endAsync();
  }

  #answer(payload: Buffer): void {
    let responses: DynsecResponse[];
    try {
      responses = (JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] }).responses ?? [];
    } catch {
      return;
    }
    const batch = responses[0]?.correlationData?.split(':')[0];
    const pending = batch ? this.#pending.get(batch) : undefined;
    if (!batch || !pending) return; // another admin's answer
    this.#pending.delete(batch);
    clearTimeout(pending.timer);
    pending.resolve(responses);
  }

  /** Sends commands in one request; answers in the same order. Errors stay in the answers. */
  async send(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]> {
    if (commands.length === 0) return [];
    const batch = randomUUID();
    const answered = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(batch);
        reject(
          new CodedError(
            'DYNSEC_TIMEOUT',
            `no answer on ${DYNSEC_RESPONSE_TOPIC} within ${this.#timeoutMs} ms: is the dynamic-security plugin loaded?`,
          ),
        );
      }, this.#timeoutMs);
      this.#pending.set(batch, { resolve, reject, timer });
    });
    const body = { commands: commands.map((c, i) => ({ ...c, correlationData: `${batch}:${i}` })) };
    try {
      await this.#client.publishAsync(DYNSEC_TOPIC, JSON.stringify(body), { qos: 1 });
    } catch (error) {
      const pending = this.#pending.get(batch);
      if (pending) clearTimeout(pending.timer);
      this.#pending.delete(batch);
      throw new CodedError('DYNSEC_FAILED', `cannot send to ${DYNSEC_TOPIC}: ${(error as Error).message}`);
    }
    const responses = await answered;
    return commands.map(
      (c, i) =>
        responses.find((r) => r.correlationData === `${batch}:${i}`) ?? { command: c.command, error: 'no answer' },
    );
  }

  /** One command; its error (other than those in `tolerate`) is thrown as DYNSEC_FAILED. */
  async one(command: DynsecCommand, tolerate: readonly string[] = []): Promise<DynsecResponse> {
    const [response] = await this.send([command]);
    if (response?.error && !tolerate.includes(response.error)) throw failed(command.command, response.error);
    return response!;
  }

  /** Several commands in one request; the first error is thrown as DYNSEC_FAILED. */
  async all(commands: readonly DynsecCommand[]): Promise<void> {
    const responses = await this.send(commands);
    const refused = responses.find((r) => r.error);
    if (refused) throw failed(refused.command, refused.error!);
  }
}

const failed = (command: string, error: string) =>
  new CodedError('DYNSEC_FAILED', `dynamic-security ${command} failed: ${error}`, { command, error });
