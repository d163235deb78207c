// An agent on an MCP client (the official SDK), as an LLM agent's host would drive it: it connects
// to Switchboard's /mcp with its agent credential, joins a room, waits for a task, and posts an
// ack, progress and a result through the gateway (docs/mcp.md). Run it against a Switchboard:
//
//   npm run --silent cli -- agents add agent.mcp --json          # prints the credential once
//   SWITCHBOARD_URL=http://127.0.0.1:8787 AGENT_ID=agent.mcp AGENT_PASSWORD=… ROOM=demo npx tsx examples/mcp-agent.ts
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is not set (see the comment at the top of this file)`);
  return value;
};
const agentId = env('AGENT_ID');
const room = env('ROOM', 'demo');
const authorization = `Basic ${Buffer.from(`${agentId}:${env('AGENT_PASSWORD')}`).toString('base64')}`;

const client = new Client({ name: 'switchboard-example', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL('/mcp', env('SWITCHBOARD_URL', 'http://127.0.0.1:8787')), {
  requestInit: { headers: { authorization } },
});
await client.connect(transport);

/** One tool call; its words are what a model would read. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const words = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  console.log(`${name}${result.isError ? ' (refused)' : ''}: ${words}`);
  return result;
}

const { tools } = await client.listTools();
console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);
await call('join_room', { room });

interface Task {
  readonly roomId: string;
  readonly taskId: string;
  readonly goal: string | null;
}
async function nextTask(): Promise<Task> {
  for (;;) {
    const found = (await call('wait_for_task', { wait_seconds: 30 })).structuredContent?.task as
      Task | null | undefined;
    if (found) return found;
  }
}
const task = await nextTask();

const post = (message_type: string, content: Record<string, unknown>) =>
  call('post', { room: task.roomId, task_id: task.taskId, message_type, content });
await post('ack', { text: 'On it.' });
await post('progress', { text: 'Halfway there.' });
await post('result', { text: `Done: ${task.goal ?? task.taskId}` });

await transport.terminateSession(); // leaves every room: offline at once
await client.close();
