// What a script injected into the console's origin could take away: every value of every
// IndexedDB store, searched for anything that signs as the operator. Runs in the page, so it is
// self-contained (no outer references): page.evaluate sends its source text.

export interface KeyScanReport {
  readonly databases: string[];
  /** How many values were read across all stores. */
  readonly values: number;
  /** Byte strings of Ed25519 secret size (32 or 64) found, raw or encoded. */
  readonly candidates: number;
  /** Where a candidate that signs for the operator's public key was found. */
  readonly secretsFound: string[];
  /** Private CryptoKeys found, and whether exportKey gave up their bytes in any format. */
  readonly privateKeys: { readonly path: string; readonly extractable: boolean; readonly exported: string[] }[];
}

export async function scanIndexedDbForSecret(publicKeyBytes: number[]): Promise<KeyScanReport> {
  const subtle = crypto.subtle;
  const publicKey = await subtle.importKey('raw', new Uint8Array(publicKeyBytes), { name: 'Ed25519' }, false, [
    'verify',
  ]);
  const message = new TextEncoder().encode('key-custody probe: sign me');
  // PKCS#8 wrapping of a 32-byte Ed25519 seed (RFC 8410 §7).
  const pkcs8Prefix = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
  const candidates: { path: string; bytes: Uint8Array }[] = [];
  const privateKeys: { path: string; extractable: boolean; exported: string[] }[] = [];
  const keyObjects: { path: string; key: CryptoKey }[] = [];

  const decodings = (text: string): Uint8Array[] => {
    const out: Uint8Array[] = [];
    if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0) {
      out.push(new Uint8Array(text.match(/../g)!.map((h) => parseInt(h, 16))));
    }
    if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
      try {
        const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
        const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
        out.push(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
      } catch {
        // not base64 after all
      }
    }
    return out;
  };

  const seen = new Set<unknown>();
  let values = 0;
  const walk = (value: unknown, path: string): void => {
    if (value === null || value === undefined) return;
    if (typeof value === 'string') {
      for (const bytes of decodings(value))
        if (bytes.length === 32 || bytes.length === 64) candidates.push({ path, bytes });
      return;
    }
    if (typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (value instanceof CryptoKey) {
      keyObjects.push({ path, key: value });
      return;
    }
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      const bytes =
        value instanceof ArrayBuffer
          ? new Uint8Array(value)
          : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      if (bytes.length === 32 || bytes.length === 64) candidates.push({ path, bytes: bytes.slice() });
      return;
    }
    if (value instanceof Map) {
      for (const [k, v] of value) {
        walk(k, `${path}.key`);
        walk(v, `${path}[${String(k)}]`);
      }
      return;
    }
    for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
  };

  const databases = (await indexedDB.databases()).map((d) => d.name).filter((n): n is string => typeof n === 'string');
  for (const name of databases) {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error(`indexedDB.open(${name}) failed`));
    });
    for (const storeName of Array.from(db.objectStoreNames)) {
      const store = db.transaction(storeName, 'readonly').objectStore(storeName);
      const [keys, all] = await Promise.all(
        [store.getAllKeys(), store.getAll()].map(
          (request) =>
            new Promise<unknown[]>((resolve, reject) => {
              request.onsuccess = () => resolve(request.result as unknown[]);
              request.onerror = () => reject(request.error ?? new Error(`reading ${storeName} failed`));
            }),
        ),
      );
      all!.forEach((value, i) => {
        values += 1;
        walk(keys![i], `${name}/${storeName}#key${i}`);
        walk(value, `${name}/${storeName}[${String(keys![i])}]`);
      });
    }
    db.close();
  }

  for (const { path, key } of keyObjects) {
    const exported: string[] = [];
    for (const format of ['raw', 'pkcs8', 'jwk', 'spki'] as const) {
      try {
        const out = await subtle.exportKey(format, key);
        exported.push(format);
        walk(out, `${path}<${format}>`);
      } catch {
        // refused: what a non-extractable key must do
      }
    }
    if (key.type === 'private') privateKeys.push({ path, extractable: key.extractable, exported });
  }

  const secretsFound: string[] = [];
  for (const { path, bytes } of candidates) {
    // A 64-byte secret (seed ‖ public key, as NaCl keeps it) signs with its first half.
    const seeds = bytes.length === 64 ? [bytes.slice(0, 32)] : [bytes];
    for (const seed of seeds) {
      try {
        const key = await subtle.importKey(
          'pkcs8',
          new Uint8Array([...pkcs8Prefix, ...seed]),
          { name: 'Ed25519' },
          false,
          ['sign'],
        );
        const signature = await subtle.sign({ name: 'Ed25519' }, key, message);
        if (await subtle.verify({ name: 'Ed25519' }, publicKey, signature, message)) secretsFound.push(path);
      } catch {
        // not a key
      }
    }
  }
  return { databases, values, candidates: candidates.length, secretsFound, privateKeys };
}
