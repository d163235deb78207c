// A byte stream read whole up to a limit, never more: the one loop behind request bodies of no
// declared length and counterparty services' answers.

/** The bytes, or undefined once they pass `max` (the stream is cancelled, the rest never read). */
export async function readCapped(
  stream: ReadableStream<Uint8Array> | null | undefined,
  max: number,
): Promise<Buffer<ArrayBuffer> | undefined> {
  const reader = stream?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
