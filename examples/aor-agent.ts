// An AOR agent in TypeScript on the project's agent client (agents/aor): it joins a room, takes
// each task it is given, acknowledges it, reports progress and posts a result, each judged by the
// room's gateway. Run it against a Switchboard:
//
//   npm run --silent cli -- agents add agent.example --json     # prints the credential once
//   MQTT_URL=mqtt://127.0.0.1:1883 AGENT_ID=agent.example AGENT_PASSWORD=… ROOM=demo npx tsx examples/aor-agent.ts
//
// With ONCE=1 it leaves after its first task (the test suite runs it so).
import { connectAgent } from '../agents/aor/agent-client';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is not set (see the comment at the top of this file)`);
  return value;
};

const agent = await connectAgent({
  url: env('MQTT_URL', 'mqtt://127.0.0.1:1883'),
  agentId: env('AGENT_ID'),
  password: env('AGENT_PASSWORD'),
  rooms: [env('ROOM', 'demo')],
  description: 'Example agent: acknowledges, reports, answers',
});
console.log(`${agent.agentId} is in ${agent.rooms.join(', ')}; waiting for a task.`);

agent.onTask(async (task, ctx) => {
  console.log(`task ${task.task_id}: ${task.goal}`);
  if (!(await ctx.waitForGrant(60_000))) return console.log('no mic for it; skipping');
  await ctx.ack('On it.');
  await ctx.progress('Halfway there.');
  const outcome = await ctx.result(`Done: ${task.goal}`);
  console.log(`result ${outcome.status}${outcome.status === 'rejected' ? ` (${outcome.reason})` : ''}`);
  if (process.env.ONCE === '1') {
    await agent.close();
    process.exit(0);
  }
});

process.once('SIGINT', () => void agent.close().then(() => process.exit(0)));
