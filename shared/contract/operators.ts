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

/** An operator as the Operators screen lists them (decisions-server.md §84). */
export const OperatorEntry = z.object({
  did: z.string(),
  role: OperatorRole,
  name: z.string().nullable(),
  /** Epoch ms they enrolled or were added. */
  createdAt: z.number(),
});
export type OperatorEntry = z.infer<typeof OperatorEntry>;

/** A link neither used nor expired; the token itself is never shown again. */
export const PendingInvite = z.object({
  id: z.string(),
  role: OperatorRole,
  expiresAt: z.number(),
  createdAt: z.number().nullable(),
  /** A did, `cli`, or null for the first start's link. */
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
});
export type PendingInvite = z.infer<typeof PendingInvite>;

export const OperatorsAnswer = z.object({
  now: z.number(),
  operators: z.array(OperatorEntry),
  invites: z.array(PendingInvite),
});
export type OperatorsAnswer = z.infer<typeof OperatorsAnswer>;

/** Hours a link stays valid: one hour to one week, a day unless said. */
export const INVITE_HOURS = { min: 1, max: 168, default: 24 } as const;
export const InviteBody = z.strictObject({
  role: OperatorRole,
  expiresInHours: z.number().int().min(INVITE_HOURS.min).max(INVITE_HOURS.max).default(INVITE_HOURS.default),
});
export type InviteBody = z.input<typeof InviteBody>;

/** The answer that holds the token, once: the console builds the link from its own address. */
export const InviteAnswer = z.object({
  id: z.string(),
  role: OperatorRole,
  token: z.string(),
  expiresAt: z.number(),
});
export type InviteAnswer = z.infer<typeof InviteAnswer>;

export const RoleBody = z.strictObject({ role: OperatorRole });
export type RoleBody = z.input<typeof RoleBody>;
export const OperatorAnswer = z.object({ operator: OperatorEntry });
export const OperatorRemoved = z.object({ did: z.string(), removed: z.literal(true) });
export const InviteRevoked = z.object({ id: z.string(), revoked: z.literal(true) });

const ADMIN_READ = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' };
const ADMIN_WRITE = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN, CSRF_REJECTED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

export const OPERATOR_ADMIN_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/operators',
    errors: 'coded',
    summary: 'Operators and the invitation links not yet used (facilitator)',
    responses: { 200: { description: 'Operators and pending links', schema: OperatorsAnswer } },
    refusals: ADMIN_READ,
  }),
  operation({
    method: 'post',
    path: '/api/operators/invites',
    errors: 'coded',
    summary: 'Make a one-time enrollment link for a role (facilitator); the token is in this answer only',
    body: InviteBody,
    responses: { 201: { description: 'The link’s token, once', schema: InviteAnswer } },
    refusals: ADMIN_WRITE,
  }),
  operation({
    method: 'delete',
    path: '/api/operators/invites/{id}',
    errors: 'coded',
    summary: 'Withdraw a link not yet used (facilitator)',
    responses: { 200: { description: 'Withdrawn', schema: InviteRevoked } },
    refusals: { ...ADMIN_WRITE, 404: 'INVITE_NOT_FOUND' },
  }),
  operation({
    method: 'patch',
    path: '/api/operators/{did}',
    errors: 'coded',
    summary: 'Change an operator’s role (facilitator); never the last facilitator’s',
    body: RoleBody,
    responses: { 200: { description: 'The operator now', schema: OperatorAnswer } },
    refusals: { ...ADMIN_WRITE, 404: 'OPERATOR_NOT_FOUND', 409: 'LAST_FACILITATOR' },
  }),
  operation({
    method: 'delete',
    path: '/api/operators/{did}',
    errors: 'coded',
    summary: 'Remove an operator and end their sessions (facilitator); never the last facilitator',
    responses: { 200: { description: 'Removed', schema: OperatorRemoved } },
    refusals: { ...ADMIN_WRITE, 404: 'OPERATOR_NOT_FOUND', 409: 'LAST_FACILITATOR' },
  }),
];

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
