// AOR ids become MQTT topic levels (AOR §3) and MQTT usernames (AOR §8), and are shown to
// operators, so one rule serves every id in the protocol: message ids, room, agent and task ids.
import { z } from 'zod';
import { CodedError } from '../errors';

export const MAX_ID_LENGTH = 128;

// Refused: whitespace; "/" (topic level separator), "+" and "#" (wildcards) [MQTT-4.7.1];
// control characters (U+0000 is forbidden in topics [MQTT-4.7.3-2]); format characters
// (zero-width and bidi overrides would let one agent's id pass for another's on screen);
// lone surrogates (not encodable as UTF-8). Length is counted in code points.
const ID_PATTERN = /^[^\s/+#\p{Cc}\p{Cf}\p{Cs}]{1,128}$/u;

const ID_RULE = `1–${MAX_ID_LENGTH} characters, without whitespace, control characters, "/", "+" or "#"`;

export const isValidId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);

/** Schema for any AOR id field. */
export const AorId = z.string().regex(ID_PATTERN, `must be an AOR id: ${ID_RULE}`);

/** Boundary check for builders: a bad id is a programming error, so it throws. */
export function assertValidId(value: unknown, name: string): asserts value is string {
  if (!isValidId(value)) {
    throw new CodedError('invalid_id', `${name} must be an AOR id: ${ID_RULE}`, {
      name,
      value: typeof value === 'string' ? value.slice(0, MAX_ID_LENGTH + 1) : typeof value,
    });
  }
}
