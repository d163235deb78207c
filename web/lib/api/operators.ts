// /api/operators: the people who may sign in and the links that invite more (facilitators only;
// shapes: shared/contract/operators.ts). The token of a new link is in the answer that made it only.
import { queryOptions } from '@tanstack/react-query';
import {
  InviteAnswer,
  InviteRevoked,
  OperatorAnswer,
  OperatorRemoved,
  OperatorsAnswer,
  type InviteBody,
} from '@shared/contract/operators';
import type { OperatorRole } from '@shared/contract/auth';
import { deleteJson, getJson, postJson } from './http';

export type { InviteAnswer, OperatorEntry, OperatorsAnswer, PendingInvite } from '@shared/contract/operators';

const base = '/api/operators';
const one = (did: string) => `${base}/${encodeURIComponent(did)}`;

export const OPERATORS_KEY = ['operators'] as const;

export const operatorsQuery = queryOptions({
  queryKey: OPERATORS_KEY,
  queryFn: ({ signal }) => getJson(base, OperatorsAnswer, { signal }),
  refetchInterval: 15_000,
});

export const createInvite = (body: InviteBody) => postJson(`${base}/invites`, body, InviteAnswer);

export const revokeInvite = (id: string) => deleteJson(`${base}/invites/${encodeURIComponent(id)}`, InviteRevoked);

export const setOperatorRole = (did: string, role: OperatorRole) =>
  getJson(one(did), OperatorAnswer, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ role }),
  }).then((r) => r.operator);

export const removeOperator = (did: string) => deleteJson(one(did), OperatorRemoved);

/** The link a colleague opens: this console's own address, the token in the fragment (never sent to a server). */
export const inviteLink = (origin: string, token: string) => `${origin.replace(/\/+$/, '')}/enroll#token=${token}`;
