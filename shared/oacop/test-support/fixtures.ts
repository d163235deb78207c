// Shared test data: the spec's own examples made complete, DIDs, and a seeded random source.
import type {
  AssignTask,
  CancelCollaboration,
  ConfirmCollaboration,
  ProposalResponse,
  ProposeCollaboration,
  TaskUpdate,
} from '../messages';

export const ALICE = 'did:key:z6MkAlice';
export const BOB = 'did:key:z6MkBob';
export const CHARLIE = 'did:key:z6MkCharlie';
export const DAVE = 'did:key:z6MkDave';

/** mulberry32: a tiny seeded PRNG returning [0, 1), so every random test replays. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// OACoP §3.1 with the §2.1 context, §2.2 object and §2.3 constraints filled in.
export const propose: ProposeCollaboration = {
  type: 'ProposeCollaboration',
  id: 'urn:uuid:msg-1',
  threadId: 'urn:uuid:meet-1',
  revision: 1,
  sender: ALICE,
  created: '2025-12-03T09:00:00Z',
  object: {
    type: 'Event',
    title: 'Strategy Workshop',
    description: 'Planning Q1 2026',
    duration: 'PT30M',
    location: 'Virtual',
  },
  constraints: {
    timeWindow: { start: '2025-12-10T08:00:00Z', end: '2025-12-12T18:00:00Z' },
    participants: [BOB, CHARLIE],
    requiredParticipants: [BOB],
  },
  proofOfBurn: { txId: 'oap:tx:burn_123', amount: '5' },
};

// OACoP §3.2
export const response: ProposalResponse = {
  type: 'ProposalResponse',
  threadId: 'urn:uuid:meet-1',
  respondingToRevision: 1,
  status: 'INTERESTED',
  availableSlots: [{ start: '2025-12-10T09:00:00Z', end: '2025-12-10T12:00:00Z' }],
};

// OACoP §3.3
export const confirm: ConfirmCollaboration = {
  type: 'ConfirmCollaboration',
  threadId: 'urn:uuid:meet-1',
  revision: 2,
  finalSlot: { start: '2025-12-10T10:00:00Z', end: '2025-12-10T10:30:00Z' },
};

// OACoP §3.5
export const cancel: CancelCollaboration = {
  type: 'CancelCollaboration',
  threadId: 'urn:uuid:meet-1',
  revision: 3,
  reason: 'SICKNESS',
};

// OACoP §4.1
export const assign: AssignTask = {
  type: 'AssignTask',
  threadId: 'urn:uuid:task-1',
  object: { type: 'Task', title: 'Report', parentTaskId: 'urn:uuid:project-alpha' },
  deadline: '2025-12-20T12:00:00Z',
};

// OACoP §4.2
export const update: TaskUpdate = {
  type: 'TaskUpdate',
  threadId: 'urn:uuid:task-1',
  status: 'ACCEPTED',
  progress: 25,
  comment: 'Draft started.',
};
