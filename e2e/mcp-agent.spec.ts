// An LLM-style agent over MCP (docs/mcp.md): it connects to /mcp with the official MCP client and
// its agent credential, joins a room, is given a task by a facilitator in the console, and posts
// an ack, progress and a result through the gateway; the room's timeline shows them with the agent
// present, and a message type its grant does not allow is refused in the tool's answer.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, type BrowserContext, type Page } from './support/test';
import { addAgentCredential } from './support/agents';
import { enrollNewKey, inviteOperator } from './support/operators';
import { perWorker } from './support/run-names';
import { snap } from './support/screenshots';

test.describe.configure({ mode: 'serial' });

const ROOM = perWorker('mcp');
const AGENT = perWorker('agent.mcp').replace(/[^A-Za-z0-9._-]/g, '-');

let context: BrowserContext;
let page: Page;
let mcp: Client;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as CallToolResult;

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  await enrollNewKey(page, await inviteOperator('facilitator'), 'Facilitator');
  const created = await page.evaluate(async (id) => {
    const res = await fetch('/api/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: 'MCP agents', moderation: 'auto' }),
    });
    return res.status;
  }, ROOM);
  expect(created).toBe(201);
  const password = await addAgentCredential(AGENT);
  mcp = new Client({ name: 'e2e-mcp-agent', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', process.env.SWITCHBOARD_URL), {
      requestInit: {
        headers: { authorization: `Basic ${Buffer.from(`${AGENT}:${password}`).toString('base64')}` },
      },
    }),
  );
});

test.afterAll(async () => {
  await mcp?.close();
  await context?.close();
});

test('an MCP agent joins, takes a task from the console, and its messages reach the timeline while present', async () => {
  expect((await call('join_room', { room: ROOM })).isError).toBeFalsy();
  await page.goto(`/rooms/${ROOM}`);
  await expect(page.getByTestId('connection-status')).toHaveText('Live');
  await expect(page.getByTestId(`agent-${AGENT}`)).toContainText('online', { timeout: 15_000 });

  const waiting = call('wait_for_task', { wait_seconds: 30 });
  await page.getByLabel('Agent', { exact: true }).fill(AGENT);
  await page.getByLabel('Goal').fill('Summarise the overnight alerts');
  await page.getByRole('button', { name: 'Assign with mic' }).click();
  const task = (await waiting).structuredContent as {
    task: { taskId: string; goal: string; grant: { allowedMessageTypes: string[] } };
  };
  expect(task.task.goal).toBe('Summarise the overnight alerts');
  const taskId = task.task.taskId;
  const post = (message_type: string, content: Record<string, unknown>) =>
    call('post', { room: ROOM, task_id: taskId, message_type, content });

  expect((await post('ack', { text: 'On it: reading the alerts.' })).structuredContent).toMatchObject({
    status: 'approved',
  });
  expect((await post('progress', { text: 'Three alerts share one cause.' })).structuredContent).toMatchObject({
    status: 'approved',
  });
  const refused = await post('artifact_link', { url: 'https://example.com/report', label: 'Report' });
  // The console's default grant allows ack, progress, finding and result.
  expect(task.task.grant.allowedMessageTypes).not.toContain('artifact_link');
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toMatchObject({ reason: 'message_type_not_allowed' });
  expect(
    (await post('result', { text: 'One disk filled up; cleaned and alerted on.' })).structuredContent,
  ).toMatchObject({
    status: 'approved',
  });

  for (const text of [
    'On it: reading the alerts.',
    'Three alerts share one cause.',
    'One disk filled up; cleaned and alerted on.',
  ])
    await expect(page.getByTestId('public-message').filter({ hasText: text })).toBeVisible();
  await expect(page.getByTestId(`agent-${AGENT}`)).toContainText('online');
  await expect(page.getByTestId(`agent-${AGENT}`)).toContainText('via MCP');
  await snap(page, 'room-mcp-agent');
});

test('closing the MCP session shows the agent offline', async () => {
  await (mcp.transport as StreamableHTTPClientTransport).terminateSession();
  await expect(page.getByTestId(`agent-${AGENT}`)).toContainText('offline', { timeout: 15_000 });
});
