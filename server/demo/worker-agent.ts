// A well-behaved demo agent: takes tasks from its inbox (AOR §5.2), waits for the mic (§5.3),
// acknowledges, sometimes asks a clarifying question and waits for the `say` answer (§6.2), then
// reports progress, findings, a risk, an artifact link and a result (§6), always within its
// grant (plan.ts), stopping before the grant expires and as soon as it is revoked (§5.4).
import type { MessageType } from '@shared/aor/payloads';
import type { AgentClient, CandidateOutcome, RiskNotice, TaskContext } from '@agents/aor/agent-client';
import { withoutMention } from '@agents/aor/mentions';
import { artifactUrl, fill, topicFor, type WorkerProfile } from './content';
import { sleep, type DemoPace, type Timers } from './demo-config';
import { planSteps, type Wishes } from './plan';
import { chance, pick, randomInt, type Random } from './prng';

export interface WorkerDeps {
  readonly profile: WorkerProfile;
  /** This agent's own stream: it draws the same numbers for the same sequence of tasks. */
  readonly rng: Random;
  readonly pace: DemoPace;
  readonly timers: Timers;
  /** Milliseconds since the epoch, the clock the gateway judges expiry by. */
  readonly now: () => number;
}

const ACKS = [
  'On it.',
  'Taking this one; findings to follow.',
  'Acknowledged, starting now.',
  'Got it. I will keep updates short.',
];

/** Everything one task will say, drawn before the grant is known so the PRNG stays in step. */
interface Script {
  readonly wishes: Wishes;
  readonly ack: string;
  readonly question: string;
  readonly progress: readonly string[];
  readonly findings: readonly (readonly string[])[];
  readonly risk: RiskNotice;
  readonly artifact: { readonly label: string; readonly url: string };
  readonly result: string;
  readonly delays: readonly number[];
}

function writeScript(goal: string, deps: WorkerDeps): Script {
  const { rng } = deps;
  const topic = topicFor(deps.profile, goal);
  const vars = { goal: goal.replace(/[.\s]+$/, '') };
  const findings = topic.findings.map((set) => set.map((b) => fill(b, rng, vars)));
  const progress = topic.progress.map((p) => fill(p, rng, vars));
  const risk = pick(rng, topic.risks);
  return {
    wishes: {
      ask: chance(rng, 0.35),
      secondFinding: chance(rng, 0.5) && findings.length > 1,
      secondProgress: chance(rng, 0.4) && progress.length > 1,
      risk: chance(rng, 0.6),
      artifact: chance(rng, 0.6),
    },
    ack: pick(rng, ACKS),
    question: topic.question,
    progress,
    findings,
    risk: {
      ...risk,
      text: fill(risk.text, rng, vars),
      ...(risk.mitigation === undefined ? {} : { mitigation: fill(risk.mitigation, rng, vars) }),
    },
    artifact: { label: topic.artifact.label, url: artifactUrl(topic.artifact.path) },
    result: fill(pick(rng, topic.results), rng, vars),
    delays: Array.from({ length: 9 }, () => randomInt(rng, deps.pace.stepDelayMs[0], deps.pace.stepDelayMs[1])),
  };
}

/** Makes `agent` a demo worker; returns a function that stops taking new tasks. */
export function runWorker(agent: AgentClient, deps: WorkerDeps): () => void {
  return agent.onTask((task, ctx) => work(writeScript(task.goal, deps), ctx, agent.agentId, deps));
}

async function work(script: Script, ctx: TaskContext, agentId: string, deps: WorkerDeps): Promise<void> {
  const grant = await ctx.waitForGrant(deps.pace.grantWaitMs);
  if (!grant) return; // no mic, nothing to say in public
  const steps = planSteps(grant, script.wishes);
  let answer: string | undefined;
  for (const [i, step] of steps.entries()) {
    if (!(await sleep(deps.timers, script.delays[i] ?? 0, ctx.revoked))) return;
    // Stop before expires_at: a message sent in the grant's last second could arrive after it.
    const live = ctx.grant;
    if (!live || Math.floor(deps.now() / 1000) >= live.expiresAt || !ctx.canSend(step.type)) return;
    if (step.type === 'clarifying_question') {
      const said = await ctx.ask(script.question, deps.pace.askTimeoutMs);
      answer = said === undefined ? undefined : withoutMention(said, agentId);
      continue;
    }
    const outcome = await post(step.type, step.index, script, answer, ctx);
    if (outcome.status !== 'approved') return;
  }
}

type Disclosure = Exclude<MessageType, 'clarifying_question'>;

function post(
  type: Disclosure,
  index: number,
  script: Script,
  answer: string | undefined,
  ctx: TaskContext,
): Promise<CandidateOutcome> {
  switch (type) {
    case 'ack':
      return ctx.ack(script.ack);
    case 'progress':
      return ctx.progress(script.progress[index] ?? script.progress[0]!);
    case 'finding':
      return ctx.finding(script.findings[index] ?? script.findings[0]!);
    case 'risk':
      return ctx.risk(script.risk);
    case 'artifact_link':
      return ctx.artifact(script.artifact.label, script.artifact.url);
    case 'result':
      // Whoever answered (the demo facilitator, an operator from the inbox) is not known here: the
      // answer is quoted as an answer, never as the reader's own (docs/decisions-demo.md §13).
      return ctx.result(answer ? `${script.result} (Following the answer to my question: “${answer}”)` : script.result);
    default: {
      const unhandled: never = type;
      throw new Error(`unhandled message type ${String(unhandled)}`);
    }
  }
}
