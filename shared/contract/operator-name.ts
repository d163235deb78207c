// An operator's display name (decisions-server.md §55): shown to other
// operators beside decisions and presence, so it must read as the same text everywhere.
import { z } from 'zod';

/** C0 and C1 controls (NUL, newline, ESC, …) and DEL. */
const isControl = (unit: number): boolean => unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f);
/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the three marks. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;
export const OPERATOR_NAME_MAX = 60;

/** Why `name` (untrimmed) is refused as an operator's display name, or undefined when it is fine. */
export function operatorNameProblem(name: string): string | undefined {
  for (let i = 0; i < name.length; i += 1)
    if (isControl(name.charCodeAt(i))) return 'must not contain control characters';
  if (BIDI.test(name)) return 'must not contain bidirectional control characters';
  const length = [...name.trim()].length;
  if (length < 1) return 'must not be empty';
  if (length > OPERATOR_NAME_MAX) return `must be at most ${OPERATOR_NAME_MAX} characters`;
  return undefined;
}

/** A display name: 1–60 characters once trimmed, without control or bidi control characters. */
export const OperatorName = z
  .string()
  .max(1024)
  .superRefine((name, ctx) => {
    const problem = operatorNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((name) => name.trim())
  .describe('1–60 characters, trimmed; control and bidirectional control characters are refused');

/** `did:key:z6Mk…` plus the last six characters (which differ from key to key): a did for people. */
export function shortDid(did: string): string {
  return did.length <= 24 ? did : `${did.slice(0, 12)}…${did.slice(-6)}`;
}

/**
 * An operator who gave no name, as people read them (decisions-web.md §46): "Operator …K7Qm2x",
 * the did's last six characters, as a shared name is told apart (`withDidTail`). The whole did
 * stays one click away wherever this is shown.
 */
export function unnamedOperator(did: string): string {
  return `Operator …${did.slice(-6)}`;
}

/**
 * What two names are compared by (decisions-server.md §82): NFKC, format characters (zero-width
 * spaces and joiners, bidi marks) dropped, whitespace folded, case folded. "Ada", "ada" and
 * "A\u200Bda" read alike on screen, so they are the same name here.
 */
export function nameKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
}

/**
 * A name shared with someone else, told apart by the did's last six characters (which differ from
 * key to key): "Ada (…K7Qm2x)". A second operator who takes a first one's name cannot pass as them.
 */
export function withDidTail(name: string, did: string): string {
  return `${name} (…${did.slice(-6)})`;
}
