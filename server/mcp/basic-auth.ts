// HTTP Basic credentials of an agent (RFC 7617; docs/decisions-mcp.md §1): the same agent id and
// credential as its MQTT username and password. Anything else is no credential at all.
import { isValidId } from '@shared/aor/ids';

/** The longest header value read: a credential is short, and scrypt is never fed a novel. */
const MAX_HEADER = 1024;

export function parseBasicAuth(header: string): { readonly agentId: string; readonly password: string } | undefined {
  if (header.length > MAX_HEADER) return undefined;
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const agentId = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (!isValidId(agentId) || password.length === 0) return undefined;
  return { agentId, password };
}

/** The Authorization header for an agent's credential, as clients send it. */
export const basicAuthHeader = (agentId: string, password: string): string =>
  `Basic ${Buffer.from(`${agentId}:${password}`, 'utf8').toString('base64')}`;
