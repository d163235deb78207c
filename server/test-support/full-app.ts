// The whole app (rooms included) over a real embedded broker and a real SQLite file, with
// operator sessions and a hand-moved clock, for the HTTP hardening tests. `serve()` also puts it
// on a real loopback port, for tests that need sockets (long-polls, slow readers, /mqtt).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import type { AppOptions } from '../app';
import { testApp } from './test-app';
import type { HttpLimits } from '../http/limits';
import { PresenceTracker } from '../rooms/presence-tracker';
import { sessionCookie } from './sessions';
import { startRoomHarness, type RoomHarness } from './room-harness';
import { startInbox, type RunningInbox } from '../runtime/inbox';
import type { InboxStreamLimits } from '../routes/inbox';
import { buildAppServices } from '../runtime/app-services';
import { RelayBridge } from '../external/relay-bridge';
import { embeddedAgentBroker } from '../agents/agent-broker';
import { AgentService } from '../agents/agent-service';

export interface FullApp {
  readonly app: ReturnType<typeof testApp>;
  readonly harness: RoomHarness;
  readonly dir: string;
  readonly file: string;
  readonly facilitator: string;
  readonly observer: string;
  readonly clock: { now(): number; advance(ms: number): void };
  readonly inbox: RunningInbox;
  serve(): Promise<{ server: HttpServer; url: string }>;
  close(): Promise<void>;
}

export async function fullApp(
  options: {
    limits?: Partial<HttpLimits>;
    extra?: Partial<AppOptions>;
    inboxStreams?: Partial<InboxStreamLimits>;
  } = {},
): Promise<FullApp> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-full-app-'));
  const staticDir = join(dir, 'static');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Switchboard</title>');
  const harness = await startRoomHarness({ dataDir: dir });
  const presence = new PresenceTracker(harness.broker, () => harness.clock.now);
  const clock = { now: () => harness.clock.now, advance: (ms: number) => void (harness.clock.now += ms) };
  const bridge = new RelayBridge({ store: harness.store, clock });
  const services = buildAppServices({ store: harness.store, clock, bridge, presence, demo: { on: false, seed: 2026 } });
  const inbox = await startInbox({
    store: harness.store,
    clock,
    broker: harness.broker,
    gateway: harness.gateway,
    presence,
    negotiations: services.negotiations,
    oacop: services.oacop,
    feed: services.relay.services.feed,
    services: bridge.status,
  });
  const app = testApp({
    ...services,
    staticDir,
    inbox: { service: inbox.service, ...(options.inboxStreams ? { streams: options.inboxStreams } : {}) },
    store: harness.store,
    clock,
    rooms: { store: harness.store, clock, rooms: harness.rooms, presence, gateway: harness.gateway },
    agents: {
      service: new AgentService({
        store: harness.store,
        clock,
        broker: embeddedAgentBroker(harness.broker),
        grants: harness.gateway,
        presence,
      }),
      mqttUrl: () => harness.url,
    },
    ...(options.limits ? { limits: options.limits } : {}),
    ...options.extra,
  });
  const facilitator = await sessionCookie(
    harness.store,
    'did:key:z6MkHardeningFacilitator',
    'facilitator',
    harness.clock.now,
  );
  const observer = await sessionCookie(harness.store, 'did:key:z6MkHardeningObserver', 'observer', harness.clock.now);
  const servers: ServerType[] = [];
  return {
    app,
    harness,
    dir,
    file: join(dir, 'switchboard.sqlite'),
    facilitator,
    observer,
    clock,
    inbox,
    async serve() {
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
      servers.push(server);
      await new Promise((resolve) => server.once('listening', resolve));
      return { server: server as HttpServer, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    },
    async close() {
      for (const server of servers) {
        (server as HttpServer).closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      inbox.stop();
      presence.stop();
      await harness.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
