import { describe, expectTypeOf, it } from 'vitest';
import type { AssignTask, OacopMessage, ProposalResponse, ProposeCollaboration, TaskStatus } from './messages';

// The message types are read off the schemas (schema-types.ts); these pin what that yields.
describe('message types derived from the schemas', () => {
  it('keys the union on `type`', () => {
    expectTypeOf<OacopMessage['type']>().toEqualTypeOf<
      | 'ProposeCollaboration'
      | 'ProposalResponse'
      | 'ConfirmCollaboration'
      | 'AssignTask'
      | 'TaskUpdate'
      | 'CancelCollaboration'
    >();
  });

  it('makes required fields required and the rest optional', () => {
    expectTypeOf<ProposeCollaboration['revision']>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<ProposeCollaboration['proofOfBurn']>['txId']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<ProposeCollaboration['proofOfBurn']>['amount']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ProposalResponse['threadId']>().toEqualTypeOf<string>();
    expectTypeOf<ProposalResponse['availableSlots']>().toEqualTypeOf<
      readonly { readonly start: string; readonly end: string }[] | undefined
    >();
  });

  it('narrows AssignTask objects to Task (§7.4 const)', () => {
    expectTypeOf<AssignTask['object']['type']>().toEqualTypeOf<'Task'>();
    expectTypeOf<TaskStatus>().toEqualTypeOf<'ACCEPTED' | 'DECLINED' | 'IN_PROGRESS' | 'COMPLETED' | 'BLOCKED'>();
  });
});
