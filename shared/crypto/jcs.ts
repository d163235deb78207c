// RFC 8785 JSON Canonicalization Scheme, via the `canonicalize` package (written by the
// RFC's authors). What it cannot represent is refused here rather than silently dropped.
import canonicalizeJson from 'canonicalize';
import { CodedError } from '../errors';
import { utf8 } from './bytes';

function assertJson(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      // RFC 8785 §3.2.2.3: NaN and Infinity have no JSON form.
      if (!Number.isFinite(value)) throw new CodedError('JCS_INVALID', `${path} is not a finite number`);
      return;
    case 'object': {
      if (value === null) return;
      if (seen.has(value)) throw new CodedError('JCS_INVALID', `${path} is a circular reference`);
      seen.add(value);
      if (Array.isArray(value)) value.forEach((item, i) => assertJson(item, `${path}[${i}]`, seen));
      else {
        const proto = Object.getPrototypeOf(value) as unknown;
        if (proto !== Object.prototype && proto !== null) {
          throw new CodedError('JCS_INVALID', `${path} is not a plain JSON object`);
        }
        for (const [key, item] of Object.entries(value)) {
          if (item === undefined) throw new CodedError('JCS_INVALID', `${path}.${key} is undefined`);
          assertJson(item, `${path}.${key}`, seen);
        }
      }
      seen.delete(value);
      return;
    }
    case 'undefined':
    case 'bigint':
    case 'function':
    case 'symbol':
      throw new CodedError('JCS_INVALID', `${path} has no JSON form (${typeof value})`);
  }
}

/** The canonical JSON text of a JSON value (RFC 8785). */
export function canonicalize(value: unknown): string {
  assertJson(value, '$', new Set());
  const text = canonicalizeJson(value);
  if (text === undefined) throw new CodedError('JCS_INVALID', '$ has no JSON form');
  return text;
}

/**
 * The canonical text of a JSON object, and of the same object without one top-level member, from
 * one pass over its content. RFC 8785 §3.2.3 writes an object as its members sorted by key (UTF-16
 * code units, which is what `Array.prototype.sort` compares), so both texts are joins of the same
 * canonical members. A relay needs both for every envelope: the signed bytes leave out the
 * signature, and the digest and the stored text keep it.
 */
export function canonicalizeWithout(
  object: Readonly<Record<string, unknown>>,
  field: string,
): { readonly whole: string; readonly without: string } {
  assertJson(object, '$', new Set());
  if (object === null || typeof object !== 'object' || Array.isArray(object))
    throw new CodedError('JCS_INVALID', '$ is not a JSON object');
  const whole: string[] = [];
  const without: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const member = `${JSON.stringify(key)}:${canonicalizeJson(object[key])!}`;
    whole.push(member);
    if (key !== field) without.push(member);
  }
  return { whole: `{${whole.join(',')}}`, without: `{${without.join(',')}}` };
}

/** The UTF-8 bytes that get hashed or signed (RFC 8785 §3.2.4). */
export const canonicalBytes = (value: unknown): Uint8Array => utf8(canonicalize(value));
