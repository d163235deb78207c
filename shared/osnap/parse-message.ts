// Reading an OSNAP message from untrusted input: coded errors, never a throw.
import { ok } from '../errors';
import type { Result } from '../errors';
import { MESSAGE_TYPES, MESSAGE_TYPE_ALIASES, OsnapMessage } from './message';
import type { MessageType } from './message';
import { OsnapErrorCode, issueList, osnapFail } from './osnap-errors';
import type { OsnapError } from './osnap-errors';

const known = new Set<string>(MESSAGE_TYPES);

/**
 * Parses a message. An alias (`task_request`) is read as the type it stands for and the
 * result carries the canonical `message_type`, so the rest of the system sees one name.
 */
export function parseOsnapMessage(raw: unknown): Result<OsnapMessage, OsnapError> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return osnapFail(OsnapErrorCode.INVALID_MESSAGE, 'An OSNAP message must be a JSON object.', { issues: [] });
  }
  const record = raw as Record<string, unknown>;
  const type = record.message_type;
  if (typeof type === 'string' && !known.has(type)) {
    const alias = Object.hasOwn(MESSAGE_TYPE_ALIASES, type) ? MESSAGE_TYPE_ALIASES[type] : undefined;
    if (alias === undefined) {
      return osnapFail(OsnapErrorCode.UNKNOWN_MESSAGE_TYPE, `Unknown OSNAP message_type "${type}".`, {
        received: type,
        known: MESSAGE_TYPES,
      });
    }
    return parseAs({ ...record, message_type: alias });
  }
  return parseAs(record);
}

function parseAs(record: Record<string, unknown>): Result<OsnapMessage, OsnapError> {
  const parsed = OsnapMessage.safeParse(record);
  if (!parsed.success) {
    return osnapFail(OsnapErrorCode.INVALID_MESSAGE, 'Not a valid OSNAP message.', {
      issues: issueList(parsed.error.issues),
    });
  }
  return ok(parsed.data);
}

/** The canonical name of a message type or alias, or undefined when it is neither. */
export function canonicalMessageType(type: string): MessageType | undefined {
  if (known.has(type)) return type as MessageType;
  return Object.hasOwn(MESSAGE_TYPE_ALIASES, type) ? MESSAGE_TYPE_ALIASES[type] : undefined;
}
