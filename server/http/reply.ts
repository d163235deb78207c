// Answers a route's JSON typed against the answer its operation declares in shared/contract
// (decisions-server.md §53): a route whose answer drifts from the contract fails typecheck
// instead of failing the browser's parse. Nothing is parsed at run time; every test app parses
// real answers (test-support/contract-check.ts, §54). The body keeps its own type, so `typeof app`
// still carries it for hc<AppType>.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

type JSONType = z.core.util.JSONType;
/**
 * Any JSON value, readonly all the way down: what `z.json()` reads (an agreement's terms), named
 * once so that Written stops at it instead of unfolding a recursive type without end ("type
 * instantiation is excessively deep").
 */
type ReadonlyJson =
  string | number | boolean | null | readonly ReadonlyJson[] | { readonly [key: string]: ReadonlyJson };

/**
 * What the schema reads, every array and object readonly (routes answer store records as they
 * are), and without the `[key: string]: unknown` of a loose object: the declared keys are checked,
 * the others are the route's (an interface has no index signature to match it). A schema that
 * reads any JSON value is checked as ReadonlyJson; one that reads anything (unknown) checks nothing.
 */
type Written<T> = [JSONType] extends [T]
  ? unknown extends T
    ? T
    : ReadonlyJson
  : T extends readonly unknown[]
    ? { readonly [I in keyof T]: Written<T[I]> }
    : T extends object
      ? { readonly [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Written<T[K]> }
      : T;

export const reply = <S extends z.ZodType, T extends Written<z.input<S>> & {}, U extends ContentfulStatusCode>(
  c: Context,
  _answer: S,
  body: T,
  status: U,
) => c.json(body, status);
