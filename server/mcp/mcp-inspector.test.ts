// The MCP Inspector's CLI mode lists /mcp's tools against a running server (docs/mcp.md). The
// inspector releases that run on Node 20 (0.15, this repository's engine) have no --header option,
// so the agent's Authorization header is added by a loopback forwarder in front of the server, as
// a person with that inspector would do; newer releases (Node ≥ 22.7.5) pass it with --header.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startSwitchboard, type RunningSwitchboard } from '../runtime/start-switchboard';
import { AgentService } from '../agents/agent-service';
import { basicAuthHeader } from './basic-auth';
import { storeOnlyAgentBroker } from '../agents/agent-broker';

const run = promisify(execFile);
const INSPECTOR = join(process.cwd(), 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');

let sb: RunningSwitchboard;
let dataDir: string;
let forwarder: Server;
let forwarderUrl: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'switchboard-inspector-'));
  sb = await startSwitchboard(loadConfig({ PORT: '0', MQTT_PORT: '0', DATA_DIR: dataDir, DEMO: '0' }));
  const agents = new AgentService({ store: sb.store, clock: { now: () => Date.now() }, broker: storeOnlyAgentBroker });
  const { password } = await agents.create('agent.inspected', 'cli');
  const authorization = basicAuthHeader('agent.inspected', password);
  const target = new URL(sb.url);
  forwarder = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, authorization },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  forwarderUrl = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  forwarder?.closeAllConnections();
  await new Promise((resolve) => forwarder?.close(resolve));
  await sb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('lists the tools with the inspector CLI', async () => {
  const { stdout } = await run(
    process.execPath,
    [INSPECTOR, '--cli', forwarderUrl, '--transport', 'http', '--method', 'tools/list'],
    { timeout: 25_000 },
  );
  const listed = JSON.parse(stdout) as { tools: { name: string; description: string }[] };
  expect(listed.tools.map((t) => t.name)).toEqual(
    expect.arrayContaining([
      'my_rooms',
      'join_room',
      'room_history',
      'wait_for_task',
      'post',
      'ask',
      'wait_for_answer',
    ]),
  );
  expect(listed.tools.every((t) => t.description.length > 40)).toBe(true);
});

it('is refused without the agent credential', async () => {
  const direct = run(
    process.execPath,
    [INSPECTOR, '--cli', `${sb.url}/mcp`, '--transport', 'http', '--method', 'tools/list'],
    {
      timeout: 25_000,
    },
  );
  await expect(direct).rejects.toThrow(/401|Unauthorized|UNAUTHORIZED/i);
});
