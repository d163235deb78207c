// /mcp: the Model Context Protocol endpoint for agents (Streamable HTTP; docs/decisions-mcp.md).
// This route reads the body under the server's caps and bounds how many sessions one client
// address may try to open (each costs a password hash, like a sign-in); sessions and their tools
// are mcp/mcp-sessions.ts.
import { Hono } from 'hono';
import { CodedError, isCodedError } from '@shared/errors';
import { clientAddress, type TokenBucketLimiter } from '../http/rate-limit';
import { rateLimited } from '../http/error-family';
import { MAX_REQUEST_BODY_BYTES, readBodyJson } from '../http/request-body';
import type { McpSessions } from '../mcp/mcp-sessions';

export interface McpRouteDeps {
  readonly sessions: McpSessions;
  /** Session openings per client address, taken before the credential is checked (decisions-mcp.md §1). */
  readonly opens: TokenBucketLimiter;
}

export function mcpRoutes(deps: McpRouteDeps | undefined) {
  return new Hono().all('/', async (c) => {
    if (!deps) throw new CodedError('NOT_FOUND', 'This server has no MCP endpoint (it runs without a broker).');
    const opening = c.req.header('mcp-session-id') === undefined;
    if (opening && c.req.method === 'POST') {
      const verdict = deps.opens.take(clientAddress(c));
      if (!verdict.ok) throw rateLimited(verdict.retryAfterSeconds, 'MCP sessions opened');
    }
    const body = c.req.method === 'POST' ? await readBodyJson(c, MAX_REQUEST_BODY_BYTES) : undefined;
    try {
      return await deps.sessions.handle(c.req.raw, body);
    } catch (error) {
      // RFC 9110 §11.6.1: a 401 names the scheme to use.
      if (isCodedError(error) && error.code === 'UNAUTHORIZED')
        c.header('WWW-Authenticate', 'Basic realm="switchboard-mcp", charset="UTF-8"');
      throw error;
    }
  });
}
