// Fetch wrapper: every non-2xx answer becomes an ApiError carrying the server's stable code.
import type { z } from 'zod';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error body's `details`, when it has them (Agora refusals carry `details.reason`). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A 404 from the server: the thing asked for does not exist, so "try again" would not help. */
export const isNotFound = (error: unknown): boolean => error instanceof ApiError && error.status === 404;

async function request(path: string, init?: RequestInit): Promise<{ res: Response; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(path, {
      credentials: 'same-origin',
      ...init,
      headers: { accept: 'application/json', ...init?.headers },
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached. Check that Switchboard is running.');
  }
  const body: unknown = res.status === 204 ? undefined : await res.json().catch(() => undefined);
  if (!res.ok) {
    const coded = body as { code?: unknown; message?: unknown; details?: unknown } | undefined;
    throw new ApiError(
      res.status,
      typeof coded?.code === 'string' ? coded.code : 'HTTP_' + res.status,
      typeof coded?.message === 'string' ? coded.message : `The server answered ${res.status}.`,
      coded?.details,
    );
  }
  return { res, body };
}

function parse<T>(status: number, body: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError(status, 'BAD_RESPONSE', 'The server sent an answer this console does not understand.');
  return parsed.data;
}

export async function getJson<T>(path: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const { res, body } = await request(path, init);
  return parse(res.status, body, schema);
}

/** POSTs a JSON body (the server checks content-type and Origin) and parses the JSON answer. */
export async function postJson<T>(
  path: string,
  payload: unknown,
  schema: z.ZodType<T>,
  init?: RequestInit,
): Promise<T> {
  const { res, body } = await request(path, {
    ...init,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init?.headers },
    body: JSON.stringify(payload),
  });
  return parse(res.status, body, schema);
}

/** POSTs without expecting a body back (204 No Content). */
export async function postEmpty(path: string, payload: unknown = {}, init?: RequestInit): Promise<void> {
  await request(path, {
    ...init,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init?.headers },
    body: JSON.stringify(payload),
  });
}

/** DELETE (the server checks Origin) and parse the JSON answer. */
export async function deleteJson<T>(path: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const { res, body } = await request(path, { ...init, method: 'DELETE' });
  return parse(res.status, body, schema);
}

/** DELETE (the server checks Origin) without expecting a body back (204 No Content). */
export async function deleteEmpty(path: string, init?: RequestInit): Promise<void> {
  await request(path, { ...init, method: 'DELETE' });
}
