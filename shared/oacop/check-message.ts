// The OACoP rules a JSON Schema cannot state because they relate two values: time order, subsets,
// self-references, the duration grammar. They run only on messages that already passed both
// schemas, so every field has its schema type here.
import { assertNever } from '../errors';
import { parseDuration } from './duration';
import { parseIcalComponent } from './ical-component';
import type { CollaborationObject, Constraints, OacopMessage, Slot } from './messages';
import { parseUtc } from './utc-time';

/** One broken rule; `path` is a JSON Pointer into the message, as Ajv reports schema errors. */
export interface Problem {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

type Add = (path: string, rule: string, message: string) => void;

export function checkMessage(message: OacopMessage): Problem[] {
  const problems: Problem[] = [];
  const add: Add = (path, rule, text) => problems.push({ path, rule, message: text });
  if (message.created !== undefined) checkUtc(message.created, '/created', add);
  switch (message.type) {
    case 'ProposeCollaboration':
      checkObject(message.object, message.threadId, add);
      if (message.constraints !== undefined) checkConstraints(message.constraints, add);
      break;
    case 'ProposalResponse':
      (message.availableSlots ?? []).forEach((slot, i) => checkSlot(slot, `/availableSlots/${i}`, add));
      // §3.2: slots are availability; a refusal that offers time contradicts itself.
      if (message.status === 'DECLINED' && (message.availableSlots?.length ?? 0) > 0) {
        add('/availableSlots', 'declined-with-slots', 'a DECLINED response must not offer slots');
      }
      break;
    case 'ConfirmCollaboration':
      checkSlot(message.finalSlot, '/finalSlot', add);
      break;
    case 'AssignTask':
      checkObject(message.object, message.threadId, add);
      checkUtc(message.deadline, '/deadline', add);
      break;
    case 'TaskUpdate':
      break;
    case 'CancelCollaboration':
      // §3.5: the reason is what participants are told; an empty one tells them nothing.
      if (message.reason.trim() === '') add('/reason', 'reason-empty', 'a cancellation needs a reason');
      break;
    default:
      assertNever(message, 'OACoP message');
  }
  return problems;
}

// §2.4: all times are UTC; `Z` is the only offset accepted (docs/decisions-oacop.md, "UTC only").
function checkUtc(value: string, path: string, add: Add): number | undefined {
  const ms = parseUtc(value);
  if (ms === undefined) add(path, 'utc', `${value} is not a UTC date-time ending in Z`);
  return ms;
}

function checkSlot(slot: Slot, path: string, add: Add): void {
  const start = checkUtc(slot.start, `${path}/start`, add);
  const end = checkUtc(slot.end, `${path}/end`, add);
  if (start !== undefined && end !== undefined && start >= end) {
    add(path, 'slot-order', 'start must be before end');
  }
}

function checkObject(object: CollaborationObject, threadId: string, add: Add): void {
  if (object.duration !== undefined && parseDuration(object.duration) === undefined) {
    add(
      '/object/duration',
      'duration',
      `${object.duration} is not a positive RFC 5545 duration (weeks, days, hours, minutes, seconds)`,
    );
  }
  // §2.2: a task's own id is its threadId (§4.1); pointing at itself can never be resolved.
  if (object.parentTaskId === threadId) add('/object/parentTaskId', 'task-self', 'a task cannot be its own parent');
  object.dependencies?.forEach((dependency, i) => {
    if (dependency === threadId) add(`/object/dependencies/${i}`, 'task-self', 'a task cannot depend on itself');
  });
  if (object.icalComponent !== undefined) {
    const parsed = parseIcalComponent(object.icalComponent, object.type);
    if (!parsed.ok) add('/object/icalComponent', 'ical-component', parsed.error.message);
  }
}

function checkConstraints(constraints: Constraints, add: Add): void {
  if (constraints.timeWindow !== undefined) checkSlot(constraints.timeWindow, '/constraints/timeWindow', add);
  // §2.3: required participants are the participants who must attend, so a subset of them.
  const participants = new Set(constraints.participants ?? []);
  constraints.requiredParticipants?.forEach((did, i) => {
    if (!participants.has(did)) {
      add(`/constraints/requiredParticipants/${i}`, 'required-subset', `${did} is required but not a participant`);
    }
  });
}
