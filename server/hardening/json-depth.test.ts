// JSON nesting is bounded explicitly (decisions-server.md §44): 64 levels of objects and arrays
// are read, 65 are refused with a coded 400 JSON_TOO_DEEP before any parser or schema recurses,
// in the body reader (http/request-body.ts: jsonBody, readBodyJson); brackets inside strings do not count.
import { afterEach, describe, expect, it } from 'vitest';
import { testApp } from '../test-support/test-app';
import { MAX_JSON_DEPTH, jsonDepth } from '../http/json-text';
import { tempStore, type TempStore } from '../test-support/temp-store';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.dispose();
  temp = undefined;
});

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

function app() {
  temp = tempStore();
  const a = testApp({ staticDir: '/nonexistent', store: temp.store });
  const post = async (path: string, body: string) => {
    const res = await a.request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost' },
      body,
    });
    return { status: res.status, code: ((await res.json()) as { code?: string }).code };
  };
  return post;
}

describe('the JSON depth bound', () => {
  it('counts containers, not brackets inside strings', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth(nested(64))).toBe(64);
    expect(jsonDepth(nestedObject(10))).toBe(10);
    expect(jsonDepth(`["${'['.repeat(500)}", "\\"[[[["]`)).toBe(1);
    expect(jsonDepth(nested(50_000))).toBe(65);
  });

  it.each([
    ['/api/auth/login (jsonBody)', '/api/auth/login'],
    ['/oap/negotiation/open (readBodyJson)', '/oap/negotiation/open'],
  ])('%s: 65 deep is 400 JSON_TOO_DEEP, 64 deep passes the bound', async (_label, path) => {
    const post = app();
    expect(await post(path, nested(65))).toEqual({ status: 400, code: 'JSON_TOO_DEEP' });
    expect(await post(path, nestedObject(65))).toEqual({ status: 400, code: 'JSON_TOO_DEEP' });
    expect(await post(path, nested(5_000))).toEqual({ status: 400, code: 'JSON_TOO_DEEP' });
    // 64 deep is read, then refused by the route for what it is (not the document it expects).
    const at = await post(path, nested(64));
    expect(at.status).toBeGreaterThanOrEqual(400);
    expect(at.code).not.toBe('JSON_TOO_DEEP');
    const object = await post(path, nestedObject(64));
    expect(object.code).not.toBe('JSON_TOO_DEEP');
  });
});
