// What the demo agents talk about: task topics with their question, answers, progress lines,
// findings, risks, artifact and results. Templates hold `{n:a-b}` (an integer drawn from the
// seeded PRNG) and `{goal}` (the task's goal), so a seed replays the same words.
import type { RiskNotice } from '@agents/aor/agent-client';
import { pick, randomInt, type Random } from './prng';

export interface TopicSpec {
  /** The task goal the facilitator sends (AOR §5.2 `goal`). */
  readonly goal: string;
  /** AOR §5.2 `format`. */
  readonly format: string;
  readonly question: string;
  /** The facilitator picks one when it answers the question. */
  readonly answers: readonly string[];
  readonly progress: readonly string[];
  readonly findings: readonly (readonly string[])[];
  readonly risks: readonly RiskNotice[];
  readonly artifact: { readonly label: string; readonly path: string };
  readonly results: readonly string[];
}

export interface WorkerProfile {
  readonly agentId: string;
  readonly description: string;
  readonly topics: readonly TopicSpec[];
  /** For a goal that is not one of `topics` (a task a person assigned from the console). */
  readonly fallback: (goal: string) => TopicSpec;
}

/** Answers for questions the facilitator does not recognise (a third-party agent's). */
export const GENERIC_ANSWERS = [
  'Use your best judgement and note your assumptions.',
  'Keep it simple for now; we can refine it later.',
  'Go with the option that is cheapest to reverse.',
] as const;

/** AOR §6.7 links are http(s) only (docs/decisions-aor.md §14); example.com is reserved for examples. */
export const artifactUrl = (path: string): string => `https://example.com/switchboard-demo/${path}`;

export function fill(template: string, rng: Random, vars: { readonly goal?: string } = {}): string {
  return template
    .replace(/\{n:(\d+)-(\d+)\}/g, (_m, a: string, b: string) => String(randomInt(rng, Number(a), Number(b))))
    .replace(/\{goal\}/g, vars.goal ?? 'the task');
}

export function topicFor(profile: WorkerProfile, goal: string): TopicSpec {
  return profile.topics.find((t) => t.goal === goal) ?? profile.fallback(goal);
}

/** The facilitator's answer to a question some demo topic asks, or a generic one. */
export function answerFor(question: string, profiles: readonly WorkerProfile[], rng: Random): string {
  for (const profile of profiles) {
    const topic = profile.topics.find((t) => t.question === question);
    if (topic) return pick(rng, topic.answers);
  }
  return pick(rng, GENERIC_ANSWERS);
}
