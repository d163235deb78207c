// /api/directory/imports: outside A2A agents a facilitator imported into the directory by the URL
// of their Agent Card (decisions-mcp.md §9–§11). The card is fetched by the server through its
// guarded outbound fetcher, checked here, and kept as this schema parsed it: fields the schema
// does not name are dropped, every string and list is bounded, and what is kept is shown as text.
import { z } from 'zod';
import { operation } from './operation';

/** The card's bytes as fetched: a card with a hundred skills is tens of KiB. */
export const MAX_AGENT_CARD_BYTES = 256 * 1024;
export const MAX_CARD_URL_LENGTH = 2048;
export const MAX_CARD_SKILLS = 100;
/** At most this many imported agents; a facilitator removes one to import more. */
export const MAX_IMPORTED_AGENTS = 500;

const text = (max: number) => z.string().max(max);
const words = (items: number, max: number) => z.array(text(max)).max(items);
const HttpUrl = z.url({ protocol: /^https?$/ }).max(MAX_CARD_URL_LENGTH);

/** A2A `AgentSkill` (v0.3 and v1.0 alike). */
export const ImportedSkill = z.object({
  id: text(200).min(1),
  name: text(200).min(1),
  description: text(2_000),
  tags: words(32, 100),
  examples: words(16, 1_000).optional(),
  inputModes: words(16, 200).optional(),
  outputModes: words(16, 200).optional(),
});
export type ImportedSkill = z.infer<typeof ImportedSkill>;

/**
 * A2A `AgentCard`: v0.3 names where the agent is reached in `url` (with `preferredTransport`),
 * v1.0 in `supportedInterfaces`; a card must have one or the other. `name`, `description`,
 * `version` and `skills` are required as A2A requires them; the rest is optional here, so a card
 * missing, say, `defaultInputModes` still imports (decisions-mcp.md §10).
 */
export const ImportedAgentCard = z
  .object({
    name: text(200).min(1),
    description: text(4_000),
    version: text(100),
    url: HttpUrl.optional(),
    preferredTransport: text(50).optional(),
    protocolVersion: text(50).optional(),
    supportedInterfaces: z
      .array(
        z.object({ url: text(MAX_CARD_URL_LENGTH), protocolBinding: text(50), protocolVersion: text(50).optional() }),
      )
      .max(16)
      .optional(),
    provider: z.object({ organization: text(200), url: text(MAX_CARD_URL_LENGTH).optional() }).optional(),
    documentationUrl: text(MAX_CARD_URL_LENGTH).optional(),
    iconUrl: text(MAX_CARD_URL_LENGTH).optional(),
    capabilities: z
      .object({
        streaming: z.boolean().optional(),
        pushNotifications: z.boolean().optional(),
        stateTransitionHistory: z.boolean().optional(),
      })
      .optional(),
    defaultInputModes: words(32, 200).optional(),
    defaultOutputModes: words(32, 200).optional(),
    skills: z.array(ImportedSkill).max(MAX_CARD_SKILLS),
  })
  .refine((card) => card.url !== undefined || (card.supportedInterfaces?.length ?? 0) > 0, {
    message: 'A card names where the agent is reached: url (A2A 0.3) or supportedInterfaces (A2A 1.0)',
    path: ['url'],
  });
export type ImportedAgentCard = z.infer<typeof ImportedAgentCard>;

export const ImportInput = z.object({ url: z.string().trim().min(1).max(MAX_CARD_URL_LENGTH) });
export type ImportInput = z.infer<typeof ImportInput>;

export const ImportedAgentView = z.object({
  id: z.string(),
  /** The card's URL, as it was fetched. */
  url: z.string(),
  name: z.string(),
  card: ImportedAgentCard,
  importedBy: z.string(),
  importedAt: z.number(),
  lastFetchedAt: z.number(),
});
export type ImportedAgentView = z.infer<typeof ImportedAgentView>;

export const ImportedAgentList = z.object({
  imports: z.array(ImportedAgentView),
  maxImports: z.number().int(),
});
export type ImportedAgentList = z.infer<typeof ImportedAgentList>;

export const ImportDone = z.object({
  agent: ImportedAgentView,
  /** true: the URL was imported before, and its card was fetched again and replaced (decisions-mcp.md §11). */
  refreshed: z.boolean(),
});
export type ImportDone = z.infer<typeof ImportDone>;

const WRITE = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN, CSRF_REJECTED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

export const DIRECTORY_IMPORT_OPERATIONS = [
  operation({
    method: 'get',
    path: '/api/directory/imports',
    errors: 'coded',
    summary: 'A2A agents imported into the directory by their Agent Card URL',
    responses: { 200: { description: 'Imported agents, oldest import first', schema: ImportedAgentList } },
    refusals: { 401: 'UNAUTHORIZED' },
  }),
  operation({
    method: 'post',
    path: '/api/directory/imports',
    errors: 'coded',
    summary: 'Import an A2A agent by its Agent Card URL, or fetch an imported card again (facilitator)',
    body: ImportInput,
    responses: {
      200: { description: 'The URL was imported before: its card fetched again and replaced', schema: ImportDone },
      201: { description: 'Imported', schema: ImportDone },
    },
    refusals: {
      ...WRITE,
      400: 'INVALID_REQUEST, CARD_URL_NOT_PUBLIC',
      409: 'CONFLICT',
      422: 'CARD_INVALID',
      502: 'CARD_UNREACHABLE, CARD_TOO_LARGE',
    },
  }),
  operation({
    method: 'delete',
    path: '/api/directory/imports/{id}',
    errors: 'coded',
    summary: 'Remove an imported A2A agent from the directory (facilitator)',
    responses: { 204: { description: 'Removed' } },
    refusals: { ...WRITE, 404: 'NOT_FOUND' },
  }),
];
