// Fields every OSNAP message shares (OSNAP §3.1.1: sender and receiver identifiers, message
// type, payload, metadata).
import { z } from 'zod';

/**
 * Agent, request and task ids. The spec shows `agent-123` and UUIDs and sets no rules; we
 * bound them (printable ASCII without spaces, 1-256 characters) as the Agora ids are, so a
 * did:key fits too.
 */
export const OsnapId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const PRIORITIES = ['low', 'medium', 'high'] as const;

/** Every example carries `timestamp` (ISO 8601 UTC); `priority` and `order` appear in some. */
export const Metadata = z.looseObject({
  timestamp: z.iso.datetime(),
  priority: z.enum(PRIORITIES).optional(),
  order: z.int().nonnegative().optional(),
});
export type Metadata = z.infer<typeof Metadata>;
