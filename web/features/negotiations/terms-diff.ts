// The field-level diff from one proposal's terms to its counter: every leaf
// that was added, removed or changed, named by RFC 6901 JSON Pointer. Objects are compared key
// by key and arrays index by index, so a change deep inside a nested value names that value.

export type DiffKind = 'added' | 'removed' | 'changed';

export interface TermChange {
  readonly pointer: string;
  readonly kind: DiffKind;
  readonly before?: unknown;
  readonly after?: unknown;
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

function walk(before: unknown, after: unknown, pointer: string, out: TermChange[]): void {
  if (sameValue(before, after)) return;
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const p = `${pointer}/${escape(key)}`;
      if (!Object.hasOwn(after, key)) out.push({ pointer: p, kind: 'removed', before: before[key] });
      else if (!Object.hasOwn(before, key)) out.push({ pointer: p, kind: 'added', after: after[key] });
      else walk(before[key], after[key], p, out);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      const p = `${pointer}/${i}`;
      if (i >= after.length) out.push({ pointer: p, kind: 'removed', before: before[i] });
      else if (i >= before.length) out.push({ pointer: p, kind: 'added', after: after[i] });
      else walk(before[i], after[i], p, out);
    }
    return;
  }
  out.push({ pointer, kind: 'changed', before, after });
}

/** Changes from `before` to `after` (both terms objects), in pointer order; [] when equal. */
export function diffTerms(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): TermChange[] {
  const out: TermChange[] = [];
  walk(before, after, '', out);
  return out;
}

/** The value at an RFC 6901 pointer, or undefined; used to check a diff by applying it. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}
