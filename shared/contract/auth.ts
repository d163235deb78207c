// Operator sign-in (decisions-server.md §42): a challenge signed by the operator's did:key.
import { z } from 'zod';
import { isDidKey } from '../crypto/did-key';
import { operation } from './operation';
import { OperatorName } from './operator-name';

const Did = z
  .string()
  .max(128)
  .refine((value): boolean => isDidKey(value), 'must be an Ed25519 did:key (did:key:z…)');
const Base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

export const LoginBody = z.object({ did: Did, nonce: Base64url(128), signature: Base64url(128) });
export type LoginBody = z.infer<typeof LoginBody>;
/** `name` (optional) is the display name other operators see (operator-name.ts). */
export const EnrollBody = LoginBody.extend({ token: Base64url(128), name: OperatorName.optional() });
export type EnrollBody = z.input<typeof EnrollBody>;

export const OperatorRole = z.enum(['facilitator', 'observer']);
export type OperatorRole = z.infer<typeof OperatorRole>;
/** The answer of session, login and enroll alike; `name` is null until the operator gives one. */
export const OperatorSession = z.object({
  did: z.string().startsWith('did:key:z'),
  role: OperatorRole,
  name: z.string().nullable(),
});
export type OperatorSession = z.infer<typeof OperatorSession>;

/** What the browser signs: checked strictly, so it never signs another document a server slips in. */
export const LoginChallenge = z
  .object({
    purpose: z.literal('switchboard-login'),
    nonce: z.string().min(1).max(512),
    expiresAt: z.union([z.string().min(1).max(64), z.number().finite()]),
  })
  .strict();
export type LoginChallenge = z.infer<typeof LoginChallenge>;
export const Challenge = z.object({ challenge: LoginChallenge });

const SIGN_IN_REFUSALS = {
  400: 'INVALID_REQUEST, JSON_TOO_DEEP',
  401: 'CHALLENGE_INVALID, SIGNATURE_INVALID, ENROLLMENT_INVALID',
  403: 'NOT_ENROLLED, CSRF_REJECTED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

export const AUTH_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/auth/challenge',
    errors: 'coded',
    summary: 'A challenge to sign (expires in minutes, single use)',
    responses: { 200: { description: 'The challenge', schema: Challenge } },
    refusals: { 429: 'RATE_LIMITED' },
  }),
  operation({
    method: 'post',
    path: '/api/auth/login',
    errors: 'coded',
    summary: 'Sign in with a signed challenge',
    body: LoginBody,
    responses: { 200: { description: 'Signed in (sets the session cookie)', schema: OperatorSession } },
    refusals: SIGN_IN_REFUSALS,
  }),
  operation({
    method: 'post',
    path: '/api/auth/enroll',
    errors: 'coded',
    summary: 'Enroll a key with an enrollment token',
    body: EnrollBody,
    responses: { 200: { description: 'Enrolled and signed in', schema: OperatorSession } },
    refusals: SIGN_IN_REFUSALS,
  }),
  operation({
    method: 'get',
    path: '/api/auth/session',
    errors: 'coded',
    summary: 'Who the session cookie belongs to (optional=1: 204 when nobody is signed in)',
    query: z.object({ optional: z.literal('1').optional() }),
    responses: {
      200: { description: 'The session', schema: OperatorSession },
      204: { description: 'Nobody is signed in (only with optional=1)' },
    },
    refusals: { 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'post',
    path: '/api/auth/logout',
    errors: 'coded',
    summary: 'End the session',
    responses: { 204: { description: 'Signed out' } },
    refusals: { 403: 'CSRF_REJECTED', 429: 'RATE_LIMITED' },
  }),
];
