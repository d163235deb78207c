// `agents …`: broker credentials, suspension and "disconnect now" from the CLI. The CLI has no
// broker in this process: it writes the store, and the running server closes what the change
// revoked and ends a suspended agent's grants when it hears it (watchAccessChanges); with
// MQTT_URL the broker's dynamic security is changed too. Every verb that acts goes through the
// console's own service (agents/agent-service.ts), acting as `cli`, so each lands in the audit log.
import { SuspendReason } from '@shared/contract/agents';
import { dynsecAgentBroker, storeOnlyAgentBroker, type AgentBroker } from '../agents/agent-broker';
import { AgentService } from '../agents/agent-service';
import type { Config } from '../config';
import type { Store } from '../store/store';
import { agentId, brokerAdmin, iso, json, refused, usage, type CliIo, type Command } from './cli-kit';

/** The actor the audit log names for the CLI. */
const CLI = 'cli';

function agentBroker(config: Config): AgentBroker {
  if (!config.mqttExternal) return storeOnlyAgentBroker;
  return dynsecAgentBroker(async () => (await brokerAdmin(config))!);
}

const service = (store: Store, config: Config, io: CliIo) =>
  new AgentService({ store, clock: { now: io.now }, broker: agentBroker(config) });

function reason(value: string | undefined): string {
  if (value === undefined)
    throw usage('REASON_REQUIRED', '--reason <text> is required: the agent and its rooms read it');
  const parsed = SuspendReason.safeParse(value);
  if (!parsed.success) throw usage('INVALID_REASON', '--reason must be 1-300 characters, not only spaces');
  return parsed.data;
}

const ifFound = async <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'AGENT_NOT_FOUND')
      throw refused('AGENT_NOT_FOUND', (error as Error).message);
    throw error;
  });

export const AGENT_COMMANDS: Readonly<Record<string, Command>> = {
  'agents add': {
    args: ['agentId'],
    options: ['json', 'rotate'],
    async run({ args, values, io, config }, store) {
      const id = agentId(args[0]!);
      const existing = await store.access.getAgentCredential(id);
      if (existing && !values.rotate) {
        throw refused(
          'AGENT_EXISTS',
          `agent "${id}" already has a credential (since ${iso(existing.createdAt)}); pass --rotate to replace it`,
        );
      }
      // The service provisions the broker first (a credential in the store that the broker refuses
      // would mislead), keeps a suspension through a rotation, and audits the act.
      const agents = service(store, config, io);
      const { password } = existing ? await agents.rotate(id, CLI) : await agents.create(id, CLI);
      if (values.json) return json(io, { agentId: id, password });
      io.stdout(
        `${existing ? 'Replaced the credential of' : 'Created a credential for'} agent "${id}". Connect to the broker with\n` +
          `  username: ${id}\n  password: ${password}\n` +
          `This is the only time the password is shown; Switchboard keeps only its scrypt hash.\n`,
      );
    },
  },
  'agents list': {
    args: [],
    options: ['json'],
    async run({ values, io }, store) {
      const agents = (await store.access.listAgentCredentials()).map((a) => ({
        agentId: a.agentId,
        createdAt: a.createdAt,
        suspended: a.suspended,
      }));
      if (values.json) return json(io, agents);
      if (agents.length === 0) return io.stdout('No agent credentials yet. Add one with: agents add <agentId>\n');
      // The reason last: it may hold spaces; tabs and newlines are shown as spaces.
      io.stdout(
        agents
          .map(
            (a) =>
              `${a.agentId}\t${iso(a.createdAt)}` +
              (a.suspended
                ? `\tsuspended ${iso(a.suspended.at)} by ${a.suspended.by}: ${a.suspended.reason.replace(/\s/g, ' ')}`
                : '') +
              '\n',
          )
          .join(''),
      );
    },
  },
  'agents remove': {
    args: ['agentId'],
    options: [],
    async run({ args, io, config }, store) {
      const id = agentId(args[0]!);
      await ifFound(service(store, config, io).remove(id, CLI));
      io.stdout(`Removed the credential of agent "${id}"; it can no longer connect.\n`);
    },
  },
  'agents suspend': {
    args: ['agentId'],
    options: ['reason', 'json'],
    async run({ args, values, io, config }, store) {
      const id = agentId(args[0]!);
      const why = reason(values.reason);
      const { agent } = await ifFound(service(store, config, io).suspend(id, why, CLI));
      if (values.json) return json(io, { agentId: id, suspended: agent.suspended });
      io.stdout(
        `Suspended agent "${id}": its connections close, it cannot connect, and its grants end with this reason.\n`,
      );
    },
  },
  'agents resume': {
    args: ['agentId'],
    options: ['json'],
    async run({ args, values, io, config }, store) {
      const id = agentId(args[0]!);
      await ifFound(service(store, config, io).resume(id, CLI));
      if (values.json) return json(io, { agentId: id, suspended: null });
      io.stdout(`Resumed agent "${id}": it may connect again; the grants it lost stay ended.\n`);
    },
  },
  'agents disconnect': {
    args: ['agentId'],
    options: ['json'],
    async run({ args, values, io, config }, store) {
      const id = agentId(args[0]!);
      await ifFound(service(store, config, io).disconnect(id, CLI));
      if (values.json) return json(io, { agentId: id });
      io.stdout(`Closed the connections of agent "${id}"; it may connect again.\n`);
    },
  },
};
