// The six OACoP messages as one union keyed on `type`. Each type is read off its
// §7 schema and the prose schema beside it, never written by hand.
import type { FromSchema } from './schema-types';
import type {
  AssignTaskSchema,
  CancelCollaborationSchema,
  ConfirmCollaborationSchema,
  ProposalResponseSchema,
  ProposeCollaborationSchema,
  TaskUpdateSchema,
} from './normative-schemas';
import type {
  AssignTaskProse,
  CancelCollaborationProse,
  ConfirmCollaborationProse,
  ProposalResponseProse,
  ProposeCollaborationProse,
  TaskUpdateProse,
} from './prose-schemas';

type Both<N, P> = FromSchema<N> & FromSchema<P>;

export type ProposeCollaboration = Both<typeof ProposeCollaborationSchema, typeof ProposeCollaborationProse>;
export type ProposalResponse = Both<typeof ProposalResponseSchema, typeof ProposalResponseProse>;
export type ConfirmCollaboration = Both<typeof ConfirmCollaborationSchema, typeof ConfirmCollaborationProse>;
export type AssignTask = Both<typeof AssignTaskSchema, typeof AssignTaskProse>;
export type TaskUpdate = Both<typeof TaskUpdateSchema, typeof TaskUpdateProse>;
export type CancelCollaboration = Both<typeof CancelCollaborationSchema, typeof CancelCollaborationProse>;

export type OacopMessage =
  ProposeCollaboration | ProposalResponse | ConfirmCollaboration | AssignTask | TaskUpdate | CancelCollaboration;

export type CollaborationObject = ProposeCollaboration['object'];
export type Constraints = NonNullable<ProposeCollaboration['constraints']>;
export type ProposalStatus = ProposalResponse['status'];
export type TaskStatus = TaskUpdate['status'];
export type ProofOfBurn = NonNullable<ProposeCollaboration['proofOfBurn']>;

/** A DID (OAEP identity, OACoP §1.2). */
export type Did = string;

/** A time range at the edges: UTC ISO 8601 strings, `start` < `end` (OACoP §3.2). */
export interface Slot {
  readonly start: string;
  readonly end: string;
}
