// One HTTP operation of the server, declared once: the routes validate with
// these schemas, the browser parses answers with them, and GET /openapi.json is generated from
// them (server/http/openapi.ts). Paths are written as OpenAPI writes them (`/rooms/{id}`).
import type { z } from 'zod';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/** An answer: its description and, unless it has no body (204), its schema. */
export interface Answer {
  readonly description: string;
  readonly schema?: z.ZodType;
  /** The media type of a non-JSON answer (GET /metrics' text exposition); JSON when absent. */
  readonly contentType?: string;
}

export interface Operation {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** The family of the route: its error bodies are `AgoraErrorBody` or `CodedErrorBody`. */
  readonly errors: 'agora' | 'coded';
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Success answers by status; error answers are added from `refusals`. */
  readonly responses: Readonly<Record<number, Answer>>;
  /** Error statuses this operation answers, each with the codes it may carry. */
  readonly refusals?: Readonly<Record<number, string>>;
}

export const operation = (op: Operation): Operation => op;
