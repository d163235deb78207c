// GET /openapi.json, generated from the one declaration of every operation (shared/contract/,
// decisions-server.md §52) with zod 4's JSON Schema output (draft 2020-12, which OpenAPI 3.1
// uses). Schemas the contract exports by name are components; the rest are inlined per operation.
import { z } from 'zod';
import { Envelope } from '@shared/agora/envelope';
import * as authContract from '@shared/contract/auth';
import * as consoleContract from '@shared/contract/console';
import { AgoraErrorBody, CodedErrorBody } from '@shared/contract/errors';
import * as negotiationContract from '@shared/contract/negotiation';
import type { Operation } from '@shared/contract/operation';
import { OPERATIONS } from '@shared/contract/operations';
import * as relayContract from '@shared/contract/relay';
import * as roomContract from '@shared/contract/rooms';
import { VERSION } from '../version';

const DESCRIPTION =
  'Agora v1.0 relay (/events, /seed) and the agent directory (OSNAP /agents); RFC 0002 negotiation (/oap/…); the operator console (/api/…). ' +
  'Agora envelopes are signed: remove `sig`, canonicalize with RFC 8785 (JCS), sign the UTF-8 bytes with the sender did:key Ed25519 key, put the unpadded base64url signature in `sig`. ' +
  'RFC 0002 documents are signed the same way in `signature`. ' +
  'Every path: a Host that is not localhost, an IP literal or a configured name answers 421 MISDIRECTED_REQUEST (/health and /ready excepted); a JSON body nested deeper than 64 levels answers 400 JSON_TOO_DEEP; a body over 1 MiB 413. ' +
  'Console writes need an operator session and a same-origin Origin (403 CSRF_REJECTED). ' +
  'Decisions where the specs are silent: docs/decisions-agora.md, docs/decisions-negotiation.md, docs/decisions-server.md.';

const uri = (id: string) => `#/components/schemas/${id}`;
const ref = (id: string) => ({ $ref: uri(id) });

/** Every zod schema the contract exports, by its export name. */
function namedSchemas(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>([
    [CodedErrorBody, 'CodedError'],
    [AgoraErrorBody, 'AgoraError'],
    [Envelope, 'Envelope'],
  ]);
  for (const module of [relayContract, negotiationContract, authContract, roomContract, consoleContract]) {
    for (const [name, value] of Object.entries(module))
      if (value instanceof z.ZodType && !names.has(value)) names.set(value, name);
  }
  return names;
}

const operationId = (op: Operation) =>
  op.method +
  op.path
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/[{}]/g, '').replace(/(^|[-_.])(\w)/g, (_m, _s, ch: string) => ch.toUpperCase()))
    .join('');

function withoutIdentity(schema: Record<string, unknown>) {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * Schemas of one direction: request bodies read as input (defaults optional), answers as output.
 * Unnamed schemas zod shares between components (the recursive JSON value of RFC 0002 terms)
 * come as `__shared#/$defs/…`: they become components of their own, named per direction.
 */
function convert(entries: ReadonlyMap<z.ZodType, string>, io: 'input' | 'output'): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri, unrepresentable: 'any', io });
  const { __shared: shared, ...named } = schemas as Record<string, Record<string, unknown>>;
  const all = { ...named, ...((shared?.['$defs'] as Record<string, Record<string, unknown>> | undefined) ?? {}) };
  const text = JSON.stringify(
    Object.fromEntries(
      Object.entries(all).map(([id, schema]) => [id in named ? id : `${io}_${id}`, withoutIdentity(schema)]),
    ),
  );
  return JSON.parse(
    text.replace(/#\/components\/schemas\/__shared#\/\$defs\/(\w+)/g, `#/components/schemas/${io}_$1`),
  ) as Record<string, unknown>;
}

function parameters(op: Operation) {
  const path = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = Object.entries(op.query?.shape ?? {}).map(([name, schema]) => {
    const field = schema as z.ZodType;
    return {
      name,
      in: 'query',
      required: !field.safeParse(undefined).success,
      schema: withoutIdentity(
        z.toJSONSchema(field, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>,
      ),
    };
  });
  return [...path, ...query];
}

export function openApiDocument(operations: readonly Operation[] = OPERATIONS) {
  const named = namedSchemas();
  const requests = new Map<z.ZodType, string>();
  const answers = new Map(named);
  const idOf = (map: Map<z.ZodType, string>, schema: z.ZodType, fallback: string) => {
    if (!map.has(schema)) map.set(schema, named.get(schema) ?? fallback);
    return map.get(schema)!;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const id = operationId(op);
    const responses: Record<string, unknown> = {};
    for (const [status, answer] of Object.entries(op.responses)) {
      responses[status] = {
        description: answer.description,
        ...(answer.schema
          ? {
              content: {
                [answer.contentType ?? 'application/json']: {
                  schema: ref(idOf(answers, answer.schema, `${id}${status}`)),
                },
              },
            }
          : {}),
      };
    }
    const error = ref(op.errors === 'agora' ? 'AgoraError' : 'CodedError');
    for (const [status, codes] of Object.entries(op.refusals ?? {}))
      responses[status] ??= { description: codes, content: { 'application/json': { schema: error } } };
    const params = parameters(op);
    (paths[op.path] ??= {})[op.method] = {
      operationId: id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(params.length ? { parameters: params } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: ref(idOf(requests, op.body, `${id}Body`)) } },
            },
          }
        : {}),
      responses,
    };
  }
  // Request bodies are shown as read (input: a field with a default is optional), answers as
  // written (output); a body's own schema takes the input form.
  const schemas = { ...convert(answers, 'output'), ...convert(requests, 'input') };
  return {
    openapi: '3.1.0',
    info: { title: 'Switchboard API', version: VERSION, description: DESCRIPTION },
    paths,
    components: { schemas },
  };
}
