// The agent directory over HTTP. GET /agents is OSNAP §3.3 (a bare array of
// entries); registering and signed queries are ours (decisions-agora.md, "Directory"):
//   POST /agents              a signed `directory.register` REQUEST envelope
//   POST /agents/query        a signed REQUEST carrying an OSNAP agents_query or tools_query
//   GET  /agents/{did}/tools  tools_response for the operator's session (OSNAP §3.4)
//   GET  /agents/{did}/agent-card.json  the entry as an A2A Agent Card (decisions-mcp.md §7)
// Who asks is the operator's session or the envelope's verified signer, never a parameter.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { timestampMs } from '@shared/agora/fields';
import { agoraError } from '@shared/agora/reject-reasons';
import { parseAgentsQuery } from '@shared/osnap/agents-query';
import { parseOsnapMessage } from '@shared/osnap/parse-message';
import type { OsnapMessageOf } from '@shared/osnap/message';
import type { Clock } from '../clock';
import { CodedError } from '@shared/errors';
import { AgentDirectory, QueryAnswer, RegisterAnswer, ToolsResponse } from '@shared/contract/relay';
import { agoraErrors, AgoraRefusal } from '../http/error-family';
import { clientAddress } from '../http/rate-limit';
import { reply } from '../http/reply';
import { readBodyText } from '../http/request-body';
import { sessionFromCookieHeader } from '../http/session';
import { MAX_ENVELOPE_BYTES } from '../relay/agora-relay';
import type { RelayServices } from '../relay/relay-services';
import type { Store } from '../store/store';
import { accepted, takeBudget, type EventRouteLimits } from './events';
import { AgentCard, agentCardOf } from '@shared/a2a/agent-card';
import { requestOrigin } from '../http/request-origin';
import { VERSION } from '../version';

export const QUERY_INTENTS = { agents_query: 'osnap.agents_query', tools_query: 'osnap.tools_query' } as const;

export interface AgentRouteDeps {
  readonly services: RelayServices;
  readonly store: Store;
  readonly clock: Clock;
  /** The relay's budgets (http/limits.ts): registrations have their own, queries share the envelopes'. */
  readonly limits?: EventRouteLimits;
}

const notFound = (did: string) =>
  new CodedError('NOT_FOUND', `No agent ${did.slice(0, 300)} in the directory that you may see.`);

export function agentRoutes(deps: AgentRouteDeps) {
  const { services, store, clock, limits } = deps;
  const { relay, directory } = services;
  const sessionDid = async (c: Context) =>
    (await sessionFromCookieHeader(store, c.req.header('cookie'), clock.now()))?.did;

  return new Hono()
    .get('/', async (c) => {
      const query = parseAgentsQuery(c.req.queries());
      if (!query.ok) throw new CodedError(query.error.code, query.error.message, query.error.details);
      const caller = await sessionDid(c);
      return reply(
        c,
        AgentDirectory,
        await directory.list({ ...query.value, ...(caller === undefined ? {} : { caller }) }),
        200,
      );
    })
    .post('/', agoraErrors, async (c) => {
      // Per address before anything is read or verified; per signer once the signature verified.
      takeBudget(limits?.registrationsPerAddress, clientAddress(c), 'directory registrations from this address');
      const body = await readBodyText(c, MAX_ENVELOPE_BYTES);
      const verified = accepted(await relay.verify(body.text, body.bytes));
      takeBudget(limits?.registrationsPerDid, verified.envelope.sender.id, 'directory registrations from this agent');
      const registered = accepted(await directory.registerVerified(verified));
      return reply(
        c,
        RegisterAnswer,
        {
          ok: true as const,
          id: registered.id,
          registered: registered.did,
          ...(registered.outcome === 'duplicate' ? { duplicate: true as const } : {}),
        },
        200,
      );
    })
    .post('/query', agoraErrors, async (c) => {
      takeBudget(limits?.perAddress, clientAddress(c), 'envelopes from this address');
      const body = await readBodyText(c, MAX_ENVELOPE_BYTES);
      // Queries are verified like any envelope (window, signature) but only read, so they are not
      // stored; each is answered once per signer and id (QueryReplayGuard, decisions-agora.md §39).
      const { envelope } = accepted(await relay.verify(body.text, body.bytes));
      takeBudget(limits?.perDid, envelope.sender.id, 'envelopes from this sender');
      const intent = envelope.type === 'REQUEST' ? envelope.payload.intent : undefined;
      const message = parseOsnapMessage((envelope.payload as { params?: unknown }).params);
      if (!message.ok) throw new CodedError(message.error.code, message.error.message, message.error.details);
      const osnap = message.value;
      if (
        (osnap.message_type !== 'agents_query' && osnap.message_type !== 'tools_query') ||
        intent !== QUERY_INTENTS[osnap.message_type]
      ) {
        throw new AgoraRefusal(
          agoraError(
            'schema_invalid',
            'A directory query is a REQUEST with intent osnap.agents_query or osnap.tools_query and the OSNAP message as payload.params.',
          ),
        );
      }
      if (osnap.sender_agent_id !== envelope.sender.id) {
        throw new AgoraRefusal(
          agoraError('not_a_party', 'sender_agent_id must be the DID that signed the envelope.', {
            sender: envelope.sender.id,
          }),
        );
      }
      accepted(services.queries.admit(envelope.sender.id, envelope.id, timestampMs(envelope.ts), relay.now()));
      if (osnap.message_type === 'tools_query') {
        const answer = await directory.tools(osnap as OsnapMessageOf<'tools_query'>);
        if (!answer) throw notFound(osnap.receiver_agent_id);
        return reply(c, QueryAnswer, { ok: true as const, message: answer }, 200);
      }
      const { capability, scope } = (osnap as OsnapMessageOf<'agents_query'>).payload ?? {};
      const entries = await directory.list({
        caller: envelope.sender.id,
        ...(capability ? { capability } : {}),
        ...(scope ? { scope } : {}),
      });
      const answer: OsnapMessageOf<'agents_response'> = {
        sender_agent_id: osnap.receiver_agent_id,
        receiver_agent_id: envelope.sender.id,
        message_type: 'agents_response',
        payload: entries,
        metadata: { timestamp: new Date(relay.now()).toISOString() },
      };
      return reply(c, QueryAnswer, { ok: true as const, message: answer }, 200);
    })
    .get('/:did/agent-card.json', async (c) => {
      const did = c.req.param('did');
      const entry = await directory.entry(did, await sessionDid(c));
      if (!entry) throw notFound(did);
      return reply(c, AgentCard, agentCardOf(entry, `${requestOrigin(c)}/events`, VERSION), 200);
    })
    .get('/:did/tools', async (c) => {
      const did = c.req.param('did');
      const caller = await sessionDid(c);
      const answer = await directory.tools({
        sender_agent_id: caller ?? 'anonymous',
        receiver_agent_id: did,
        message_type: 'tools_query',
        metadata: { timestamp: new Date(relay.now()).toISOString() },
      });
      // An anonymous caller is 'anonymous', which no authorized_agents list can hold (not a DID).
      if (!answer) throw notFound(did);
      return reply(c, ToolsResponse, answer, 200);
    });
}
