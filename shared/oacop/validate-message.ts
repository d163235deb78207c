// Validates an untrusted, already-parsed JSON value as an OACoP message: the §7 schema for its
// `type` (normative), then the prose schema (prose-schemas.ts), then the rules across fields
// (check-message.ts). The first layer that finds problems reports all of them.
import { fail, ok, type Result } from '../errors';
import { checkMessage, type Problem } from './check-message';
import { OacopErrorCode, OacopLocalErrorCode } from './error-codes';
import type { OacopMessage } from './messages';
import { OACOP_MESSAGE_TYPES, type OacopMessageType } from './normative-schemas';
// Compiled ahead of time (scripts/generate-schema-validators.ts): compiling a schema at run time
// needs `new Function`, which the console's Content-Security-Policy refuses.
import { validators, type SchemaProblem } from './schema-validators.generated.js';

const fromAjv = (errors: readonly SchemaProblem[] | null | undefined): Problem[] =>
  (errors ?? []).map((e) => ({ path: e.instancePath, rule: e.keyword, message: e.message ?? e.keyword }));

const isMessageType = (value: unknown): value is OacopMessageType =>
  typeof value === 'string' && (OACOP_MESSAGE_TYPES as readonly string[]).includes(value);

export type MessageValidationCode = typeof OacopLocalErrorCode.INVALID_MESSAGE | typeof OacopErrorCode.INVALID_ICAL;

/**
 * `raw` as a typed OACoP message, or `OACOP_INVALID_MESSAGE` with `details.problems` (JSON Pointer
 * paths, as Ajv reports them) and `details.layer` (`schema` = §7, `prose` = §2–§4). A malformed
 * `icalComponent` is `OACOP_INVALID_ICAL` instead, the code §5 reserves for it.
 */
export function validateMessage(raw: unknown): Result<OacopMessage> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, 'An OACoP message must be a JSON object.');
  }
  const type = (raw as { type?: unknown }).type;
  if (!isMessageType(type)) {
    return fail(OacopLocalErrorCode.INVALID_MESSAGE, `Unknown OACoP message type ${JSON.stringify(type)}.`, {
      allowed: OACOP_MESSAGE_TYPES,
    });
  }
  const { normative, prose } = validators[type];
  if (!normative(raw)) return invalid(type, 'schema', fromAjv(normative.errors));
  if (!prose(raw)) return invalid(type, 'prose', fromAjv(prose.errors));
  const message = raw as OacopMessage;
  const problems = checkMessage(message);
  if (problems.length > 0) {
    const ical = problems.some((p) => p.rule === 'ical-component');
    return invalid(type, 'rules', problems, ical ? OacopErrorCode.INVALID_ICAL : OacopLocalErrorCode.INVALID_MESSAGE);
  }
  return ok(message);
}

function invalid(
  type: OacopMessageType,
  layer: 'schema' | 'prose' | 'rules',
  problems: readonly Problem[],
  code: MessageValidationCode = OacopLocalErrorCode.INVALID_MESSAGE,
): Result<never> {
  const first = problems[0];
  const where = first === undefined || first.path === '' ? '' : ` at ${first.path}`;
  return fail(code, `Invalid ${type}${where}: ${first?.message ?? 'rejected'}.`, {
    messageType: type,
    layer,
    problems,
  });
}
