import { describe, expect, it } from 'vitest';
import { formatFields, paramsFromFields, paramsFromJson } from './request-params';

describe('request params', () => {
  const fields = formatFields({ date: 'YYYY-MM-DD', minutes: 'number', extra: { nested: true } });

  it('lists the request_format keys in order with what each expects', () => {
    expect(fields).toEqual([
      { key: 'date', hint: 'YYYY-MM-DD' },
      { key: 'minutes', hint: 'number' },
      { key: 'extra', hint: '{"nested":true}' },
    ]);
    expect(formatFields(undefined)).toEqual([]);
  });

  it('sends numbers as numbers, text as typed (trimmed), and leaves empty fields out', () => {
    expect(paramsFromFields(fields, { date: ' 2026-12-01 ', minutes: '30', extra: '' })).toEqual({
      ok: true,
      params: { date: '2026-12-01', minutes: 30 },
    });
    expect(paramsFromFields(fields, { minutes: 'half an hour' })).toEqual({
      ok: false,
      message: 'minutes must be a number.',
    });
  });

  it('takes JSON only when it is one object', () => {
    expect(paramsFromJson('{"text":"<b>hi</b>"}')).toEqual({ ok: true, params: { text: '<b>hi</b>' } });
    expect(paramsFromJson('  ')).toEqual({ ok: true, params: {} });
    expect(paramsFromJson('[1]')).toMatchObject({ ok: false, message: expect.stringMatching(/JSON object/) });
    expect(paramsFromJson('{text:')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Params are not valid JSON/),
    });
  });
});
