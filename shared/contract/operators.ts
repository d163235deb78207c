// Operators as people to each other: a display name (PATCH /api/me), who else is on a console
// page (POST/GET /api/presence, decisions-server.md §56), and the detail a lost
// race carries (decisions-server.md §57).
import { z } from 'zod';
import { operation } from './operation';
import { OperatorRole } from './auth';
import { OperatorName } from './operator-name';

export const MeBody = z.strictObject({ name: OperatorName });
export type MeBody = z.input<typeof MeBody>;

/** Who an operator is, in words: the name they gave, else null (show a short did). */
export const Me = z.object({
  did: z.string().startsWith('did:key:z'),
  role: OperatorRole,
  name: z.string().nullable(),
});
export type Me = z.infer<typeof Me>;

/**
 * A console page (`/rooms/ops`, `/rooms/ops/review`): an absolute path of at most 200
 * characters from a small alphabet, so it is a key, never markup or a URL to another place.
 */
export const PresenceWhere = z
  .string()
  .min(2)
  .max(200)
  .regex(/^(\/[A-Za-z0-9._~%:@!$&'()*+,;=-]+)+$/, 'must be a console path such as /rooms/ops');
export const PresenceBody = z.strictObject({ where: PresenceWhere });
export const PresenceQuery = z.object({ where: PresenceWhere });

export const PresentOperator = z.object({
  did: z.string(),
  name: z.string().nullable(),
  role: OperatorRole,
  /** When this operator's last heartbeat for the page arrived (epoch ms, the server's clock). */
  seenAt: z.number(),
});
export type PresentOperator = z.infer<typeof PresentOperator>;
export const PresenceAnswer = z.object({
  where: z.string(),
  /** The server's clock, so "seen 5 s ago" needs no trust in the browser's. */
  now: z.number(),
  /** Heartbeat every `heartbeatMs`; an operator not heard from for `expiresMs` is gone. */
  heartbeatMs: z.number(),
  expiresMs: z.number(),
  operators: z.array(PresentOperator),
});
export type PresenceAnswer = z.infer<typeof PresenceAnswer>;

/** The `details` of a 409 that lost a race: who decided, and when (epoch ms). */
export const DecidedDetail = z.object({
  decision: z.string(),
  decidedBy: z.object({ did: z.string(), name: z.string() }).nullable(),
  decidedAt: z.number().nullable(),
});
export type DecidedDetail = z.infer<typeof DecidedDetail>;

export const OPERATOR_OPERATIONS = [
  operation({
    method: 'patch',
    path: '/api/me',
    errors: 'coded',
    summary: 'Set your display name',
    body: MeBody,
    responses: { 200: { description: 'Who you are now', schema: Me } },
    refusals: {
      400: 'INVALID_REQUEST',
      401: 'UNAUTHORIZED',
      403: 'CSRF_REJECTED',
      413: 'PAYLOAD_TOO_LARGE',
      429: 'RATE_LIMITED',
    },
  }),
  operation({
    method: 'post',
    path: '/api/presence',
    errors: 'coded',
    summary: 'Say you are on a console page (every 15 s), and read who else is',
    body: PresenceBody,
    responses: { 200: { description: 'Who is on the page, you included', schema: PresenceAnswer } },
    refusals: { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED', 403: 'CSRF_REJECTED', 429: 'RATE_LIMITED' },
  }),
  operation({
    method: 'get',
    path: '/api/presence',
    errors: 'coded',
    summary: 'Who is on a console page',
    query: PresenceQuery,
    responses: { 200: { description: 'Who is on the page', schema: PresenceAnswer } },
    refusals: { 400: 'INVALID_REQUEST', 401: 'UNAUTHORIZED' },
  }),
];
