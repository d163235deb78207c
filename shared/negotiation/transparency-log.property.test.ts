// Tamper-evidence and redaction of the transparency log, over random logs, from a fixed seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../errors';
import type { Agreement } from './agreement';
import { isMaterialPointer } from './field-commitments';
import { inclusionProof, verifyInclusion } from './inclusion-proof';
import { buildLog, signedAgreement } from './test-support/fixtures';
import { redactEntry, verifyChain, type LogEntry } from './transparency-log';

// Logs are built and verified once: Ed25519 verification (several ms each in pure JS) is the
// slow part, and the properties' random dimensions are which log, which byte, which field,
// which redactions. Every prefix of two orderings covers lengths 1–5 and every entry shape.
const POOL: readonly Agreement[] = [
  signedAgreement(1),
  signedAgreement(2, { confidentiality: 'confidential' }),
  signedAgreement(3, { cosigned: false }),
  signedAgreement(4, {
    terms: { price_eur: 12.5, volume: { min: 10, max: 1000 }, renew: true, note: null },
    cosigned: false,
  }),
  signedAgreement(5, { terms: {}, cosigned: false }),
];
const ORDERS = [
  [0, 1, 2, 3, 4],
  [4, 3, 2, 1, 0],
];
const LOGS: readonly LogEntry[][] = ORDERS.flatMap((order) =>
  order.map((_, n) => buildLog(order.slice(0, n + 1).map((i) => POOL[i] as Agreement))),
);
const HEADS = new Map(LOGS.map((log) => [log, unwrap(verifyChain(log))]));
const logArb = fc.constantFrom(...LOGS);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
function leafPaths(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [path];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  const inner = entries.flatMap(([k, v]) => leafPaths(v, [...path, k]));
  return inner.length > 0 ? inner : [path];
}
function setAt(value: Json, path: readonly (string | number)[], leaf: Json): Json {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, Json>;
  copy[head as string | number] = setAt(copy[head as string | number] as Json, rest, leaf);
  return copy as Json;
}

// A plausible edit of one leaf: same type, same character class, so that it usually still
// passes the schema and only the hashes can catch it (a random value mostly fails the schema).
const CLASSES = ['0123456789', 'abcdef', 'ghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '-_'];
function tweak(leaf: Json, n: number): Json {
  if (typeof leaf === 'string') {
    if (leaf.length === 0) return 'x';
    const i = n % leaf.length;
    const c = leaf[i] as string;
    const cls = CLASSES.find((k) => k.includes(c));
    const r =
      cls === undefined
        ? c === 'x'
          ? 'y'
          : 'x'
        : (cls[(cls.indexOf(c) + 1 + (n % (cls.length - 1))) % cls.length] as string);
    return leaf.slice(0, i) + r + leaf.slice(i + 1);
  }
  if (typeof leaf === 'number') return leaf + 1 + (n % 3);
  if (typeof leaf === 'boolean') return !leaf;
  if (leaf === null) return n % 2;
  return Array.isArray(leaf) ? [null] : { x: null };
}
const leafValue = (value: Json, path: readonly (string | number)[]): Json =>
  path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k] as Json, value);

describe('transparency log: every leaf of an entry is covered', () => {
  it('a same-type edit of any single leaf, in every shape of entry, breaks verification', () => {
    // One-entry logs: nothing after the entry can vouch for it, so only its own hashes can.
    for (const agreement of POOL) {
      const [entry] = buildLog([agreement]) as [LogEntry];
      const json = entry as unknown as Json;
      for (const [k, path] of leafPaths(json).entries()) {
        const r = verifyChain([setAt(json, path, tweak(leafValue(json, path), k))]);
        expect(r.ok, `${agreement.agreement_id} ${path.join('.')}`).toBe(false);
      }
    }
  }, 120_000);
});

describe('transparency log properties (fast-check, fixed seed)', () => {
  it('any single changed character anywhere in the serialized log is detected', () => {
    fc.assert(
      fc.property(logArb, fc.nat(), fc.integer({ min: 32, max: 126 }), (log, position, code) => {
        const text = JSON.stringify(log);
        const at = position % text.length;
        const original = text[at] as string;
        // Half the time a character of the same class (digit for digit…), which keeps most formats valid.
        const cls = CLASSES.find((k) => k.includes(original));
        const replacement =
          code % 2 === 0 && cls !== undefined ? (cls[code % cls.length] as string) : String.fromCharCode(code);
        fc.pre(text[at] !== replacement);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text.slice(0, at) + replacement + text.slice(at + 1));
        } catch {
          return; // no longer JSON: rejected before verification
        }
        expect(verifyChain(parsed as unknown[]).ok).toBe(false);
      }),
      { seed: 20260503, numRuns: 300 },
    );
  }, 120_000);

  it('any single changed field of any entry is detected, and the first broken index is reported', () => {
    const replacement = fc.oneof(
      { weight: 3, arbitrary: fc.nat().map((n) => ({ tweak: n })) },
      { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ value: value as Json })) },
    );
    fc.assert(
      fc.property(logArb, fc.nat(), fc.nat(), replacement, (log, entryPick, leafPick, change) => {
        const i = entryPick % log.length;
        const entry = log[i] as unknown as Json;
        const paths = leafPaths(entry);
        const path = paths[leafPick % paths.length] as (string | number)[];
        const leaf = 'tweak' in change ? tweak(leafValue(entry, path), change.tweak) : change.value;
        const mutated = setAt(entry, path, leaf);
        fc.pre(JSON.stringify(mutated) !== JSON.stringify(entry));
        const r = verifyChain(log.map((e, k) => (k === i ? mutated : e)));
        expect(r.ok).toBe(false);
        // Changing entry i can surface at i (its own hash) or at i + 1 (whose prev_hash names it) only.
        if (!r.ok) expect([i, i + 1]).toContain(r.error.details?.['index']);
      }),
      { seed: 20260504, numRuns: 300 },
    );
  }, 120_000);

  it('redacted entries still verify, against the same head and the same inclusion proofs', () => {
    fc.assert(
      fc.property(logArb, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (log, coin) => {
        const head = HEADS.get(log)!;
        let flip = 0;
        const redacted: LogEntry[] = log.map((entry) => {
          const hideable = Object.keys(entry.public.disclosures).filter((p) => !isMaterialPointer(p));
          return unwrap(
            redactEntry(
              entry,
              hideable.filter(() => coin[flip++ % coin.length]),
            ),
          );
        });
        expect(unwrap(verifyChain(redacted))).toEqual(head);
        for (const entry of redacted) {
          const proof = unwrap(inclusionProof(redacted, entry.index));
          expect(unwrap(verifyInclusion(proof, head.head_hash)).integrity_hash).toBe(entry.integrity_hash);
        }
      }),
      { seed: 20260505, numRuns: 60 },
    );
  }, 120_000);
});
