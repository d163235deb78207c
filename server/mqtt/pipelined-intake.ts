// How the server's one connection to an external broker takes messages
// (docs/decisions-external-broker.md §4). mqtt.js handles one packet at a time
// and sends a QoS 1 PUBACK when `handleMessage` calls back; waiting there for each commit would
// let one message through per commit, so commits could never be grouped. Here `handleMessage`
// calls back at once, and the PUBACK mqtt.js then sends is held, by packet id (which the broker
// cannot reuse before it is acknowledged), until that message's hooks settled. A message whose
// hooks fail is never acknowledged: the connection is dropped and the broker sends it again. How
// many are held at once is the broker's business (its in-flight window).
//
// The PUBACK is held by wrapping mqtt.js's internal `_sendPacket`: mqtt.js has no public way to
// acknowledge later (`customHandleAcks` runs earlier in the same one-at-a-time chain).
// external-broker.test.ts "takes the next message while earlier ones are being recorded…" fails
// if an mqtt.js upgrade changes that.
import type { Socket } from 'node:net';
import type { IPublishPacket, MqttClient, Packet } from 'mqtt';

type SendPacket = (
  packet: Packet & { messageId?: number },
  callback?: (error?: Error) => void,
  ...rest: unknown[]
) => void;

/**
 * Installs the pipelined intake on `client`: `receive` runs for every PUBLISH as it arrives, and a
 * QoS 1 message is acknowledged once its promise resolves (with `beforeWrite` called first).
 */
export function pipelineIntake(
  client: MqttClient,
  receive: (packet: IPublishPacket) => Promise<void>,
  beforeWrite: () => void,
): void {
  const held = new Map<number, Promise<void>>();
  const internals = client as unknown as { _sendPacket: SendPacket };
  const send = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, callback, ...rest) => {
    const settled = packet.cmd === 'puback' && packet.messageId !== undefined ? held.get(packet.messageId) : undefined;
    if (!settled) return send(packet, callback, ...rest);
    held.delete(packet.messageId!);
    const stream = client.stream;
    callback?.(); // the reader goes on to the next packet
    settled.then(
      // A PUBACK belongs to the connection the message came on: after a reconnect the broker
      // sends the message again, and it is acknowledged then.
      () => {
        if (client.stream !== stream || !client.connected) return;
        beforeWrite();
        send(packet);
      },
      () => stream.destroy(),
    );
  };
  client.handleMessage = (packet, done) => {
    const settled = receive(packet);
    // A failure is answered where the PUBACK is (never, for QoS 0: the broker does not send such
    // a message again). QoS 2 never comes: the server subscribes at 1.
    settled.catch(() => undefined);
    if (packet.qos === 1 && packet.messageId !== undefined) held.set(packet.messageId, settled);
    done();
  };
}

/**
 * One group commit settles many messages at once: their PUBACKs and hand-overs go out in one
 * write (one system call, one wake-up of the broker) instead of one each. mqtt-packet uncorks
 * after every packet; the returned function corks the socket until the loop's next check phase,
 * which comes without waiting for I/O while it is pending.
 */
export function writeCoalescer(client: MqttClient): () => void {
  let corked = false;
  return () => {
    if (corked) return;
    const stream = client.stream as Partial<Socket> | undefined;
    if (!stream?.cork || !stream.uncork) return;
    stream.cork();
    corked = true;
    setImmediate(() => {
      corked = false;
      stream.uncork!();
    });
  };
}
