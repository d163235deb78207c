// The demo's rogue: misbehaves on purpose so a newcomer sees moderation work. For each task it
// gets, it tries every way past the gateway the spec closes, one at a time, and reports what
// happened to each (the expected answer is in `EXPECTED`):
//   no_grant       a candidate for a task it holds no grant for          → reject no_mic_grant (§7)
//   direct_public  a publish straight to rooms/{room}/public            → refused by the broker ACL (§2, §8)
//   impersonate    a candidate under another agent's name               → reject sender_mismatch
//   wrong_type     a message type its grant does not allow              → reject message_type_not_allowed (§7)
//   over_budget    one message more than max_messages                   → reject message_limit_exceeded (§7)
// Between them it spends its small grant properly, so its approved messages show too.
import { buildEnvelope } from '@shared/aor/control-envelopes';
import type { ResultEnvelope } from '@shared/aor/envelope';
import { MESSAGE_TYPES, type MessageType, type ResultPayload } from '@shared/aor/payloads';
import { RejectReason } from '@shared/aor/reject-reasons';
import { publicTopic } from '@shared/aor/topics';
import type { AgentClient, TaskContext } from '@agents/aor/agent-client';
import { sleep, type DemoPace, type Timers } from './demo-config';
import { pick, randomInt, type Random } from './prng';

export const ROGUE = {
  agentId: 'agent.rogue',
  description: 'Rogue — misbehaves on purpose so moderation is visible',
} as const;

export const ROGUE_TRICKS = ['no_grant', 'direct_public', 'impersonate', 'wrong_type', 'spend', 'over_budget'] as const;
export type RogueTrick = (typeof ROGUE_TRICKS)[number];

/** What each trick should get: a gateway reject reason, the broker's refusal, or approval. */
export const EXPECTED: Readonly<Record<RogueTrick, string>> = {
  no_grant: RejectReason.noMicGrant,
  direct_public: 'refused_by_broker',
  impersonate: RejectReason.senderMismatch,
  wrong_type: RejectReason.messageTypeNotAllowed,
  spend: 'approved',
  over_budget: RejectReason.messageLimitExceeded,
};

export interface TrickReport {
  readonly trick: RogueTrick;
  readonly taskId: string;
  /** A reject reason, `approved`, `refused_by_broker`, `published` (the ACL failed!) or `unknown`. */
  readonly outcome: string;
}

export interface RogueDeps {
  readonly rng: Random;
  readonly pace: DemoPace;
  readonly timers: Timers;
  readonly now: () => number;
  readonly newId: () => string;
  /** Whose name it borrows for `impersonate`. */
  readonly impersonate: string;
  /** Aborts when the demo stops; the rogue ignores revokes on purpose, not shutdowns. */
  readonly stopped: AbortSignal;
  readonly onTrick?: (report: TrickReport) => void;
}

const LINES = {
  no_grant: ['Nobody gave me the mic, but here is my opinion anyway.', 'Posting on a task I was never given.'],
  direct_public: ['Skipping the gateway: straight to public!', 'Who needs moderation? Publishing directly.'],
  impersonate: ['This is agent.researcher speaking (honestly).', 'Signed, a totally different agent.'],
  wrong_type: ['A finding nobody asked for: the moon is made of cheese.', 'Unsolicited finding: everything is fine.'],
  spend: ['Fine, I will use my mic properly for once.', 'Working on it, as permitted.'],
  over_budget: ['One more message, budget be damned.', 'Just one more thing…'],
} as const satisfies Record<RogueTrick, readonly string[]>;

/** Makes `agent` (connected with MQTT 5, so a refused publish keeps the connection) the rogue. */
export function runRogue(agent: AgentClient, deps: RogueDeps): () => void {
  return agent.onTask((_task, ctx) => misbehave(agent, ctx, deps));
}

async function misbehave(agent: AgentClient, ctx: TaskContext, deps: RogueDeps): Promise<void> {
  const { rng } = deps;
  const report = (trick: RogueTrick, outcome: string) => deps.onTrick?.({ trick, taskId: ctx.taskId, outcome });
  const pause = () =>
    sleep(deps.timers, randomInt(rng, deps.pace.stepDelayMs[0], deps.pace.stepDelayMs[1]), deps.stopped);
  const line = (trick: RogueTrick) => pick(rng, LINES[trick]);
  const envelope = (over: { taskId?: string; fromId?: string; type?: MessageType; text: string }): ResultEnvelope =>
    buildEnvelope(
      {
        type: 'result',
        roomId: ctx.roomId,
        from: { kind: 'agent', id: over.fromId ?? agent.agentId },
        payload: contentFor(over.taskId ?? ctx.taskId, over.type ?? 'progress', over.text),
      },
      { newId: deps.newId, now: deps.now() / 1000 },
    );
  const submit = async (e: ResultEnvelope) => {
    const outcome = await agent.submit(e, ctx.roomId);
    return outcome.status === 'rejected' ? outcome.reason : outcome.status;
  };

  if (!(await pause())) return;
  report('no_grant', await submit(envelope({ taskId: `${ctx.taskId}.sidequest`, text: line('no_grant') })));

  if (!(await pause())) return;
  const direct = JSON.stringify(envelope({ type: 'ack', text: line('direct_public') }));
  report(
    'direct_public',
    await agent.mqtt.publishAsync(publicTopic(ctx.roomId), direct, { qos: 1 }).then(
      () => 'published',
      () => 'refused_by_broker',
    ),
  );

  if (!(await pause())) return;
  report('impersonate', await submit(envelope({ fromId: deps.impersonate, text: line('impersonate') })));

  const grant = await ctx.waitForGrant(deps.pace.grantWaitMs);
  if (!grant || deps.stopped.aborted) return;
  const forbidden = MESSAGE_TYPES.find((t) => t !== 'clarifying_question' && !grant.allowedMessageTypes.includes(t));
  if (forbidden !== undefined) {
    if (!(await pause())) return;
    report('wrong_type', await submit(envelope({ type: forbidden, text: line('wrong_type') })));
  }

  // Spend the budget properly: these are the rogue's approved messages.
  const allowed = grant.allowedMessageTypes.filter((t) => t !== 'clarifying_question');
  for (let i = 0; i < grant.maxMessages && allowed.length > 0; i++) {
    if (!(await pause())) return;
    report('spend', await submit(envelope({ type: allowed[Math.min(i, allowed.length - 1)]!, text: line('spend') })));
  }

  if (!(await pause())) return;
  report('over_budget', await submit(envelope({ type: allowed[0] ?? 'progress', text: line('over_budget') })));
}

/** A well-formed §6 content for any type, so only the rule under test can refuse it. */
function contentFor(taskId: string, type: MessageType, text: string): ResultPayload {
  switch (type) {
    case 'ack':
    case 'progress':
    case 'result':
      return { task_id: taskId, message_type: type, content: { text } };
    case 'clarifying_question':
      return { task_id: taskId, message_type: type, content: { question: text } };
    case 'finding':
      return { task_id: taskId, message_type: type, content: { bullets: [text] } };
    case 'risk':
      return { task_id: taskId, message_type: type, content: { text, severity: 'low' } };
    case 'artifact_link':
      return {
        task_id: taskId,
        message_type: type,
        content: { label: text, url: 'https://example.com/switchboard-demo/rogue' },
      };
    default: {
      const unhandled: never = type;
      throw new Error(`unhandled message type ${String(unhandled)}`);
    }
  }
}
