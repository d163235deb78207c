import { Hono } from 'hono';
import { AGORA_VERSION } from '@shared/agora/envelope';
import { Health } from '@shared/contract/relay';
import { reply } from '../http/reply';
import { VERSION } from '../version';

// Agora "Health Check" answers `{ ok, version }`; `version` stays the release (as before, and
// as the spec's "1.0.0" reads), and `agora` adds the protocol version (decisions-agora.md).
export const healthRoutes = new Hono().get('/', (c) =>
  reply(c, Health, { ok: true, version: VERSION, agora: AGORA_VERSION }, 200),
);
