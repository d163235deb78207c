// MQTT payloads arrive as a Buffer (or, from aedes' own publishes and mqtt.js, a string); the
// rest of the server reads bytes.

/** The payload's bytes: a view of a Buffer without copying, a string as UTF-8. */
export function payloadBytes(payload: Buffer | string): Uint8Array {
  return typeof payload === 'string'
    ? new TextEncoder().encode(payload)
    : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
}
