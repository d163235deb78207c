import { describe, expect, it } from 'vitest';
import { formatFields, missingRequired, paramsFromFields, paramsFromJson } from './request-params';

describe('request params', () => {
  const fields = formatFields({ date: 'YYYY-MM-DD', minutes: 'number', extra: { optional: true } });

  it('lists the request_format keys in order with what each expects, required unless said optional', () => {
    expect(fields).toEqual([
      { key: 'date', hint: 'YYYY-MM-DD', required: true },
      { key: 'minutes', hint: 'number', required: true },
      { key: 'extra', hint: '{"optional":true}', required: false },
    ]);
    expect(formatFields(undefined)).toEqual([]);
  });

  it('reads a JSON Schema: its properties, and required from its list', () => {
    expect(
      formatFields({
        type: 'object',
        properties: { text: { type: 'string' }, tone: { type: 'string', description: 'formal or casual' } },
        required: ['text'],
      }),
    ).toEqual([
      { key: 'text', hint: 'string', required: true },
      { key: 'tone', hint: 'formal or casual', required: false },
    ]);
  });

  it('does not send without a required value, from fields or from JSON', () => {
    const text = formatFields({ text: 'string' });
    expect(paramsFromFields(text, {})).toEqual({ ok: false, message: 'text is required by this capability.' });
    expect(paramsFromFields(text, { text: '   ' })).toEqual({
      ok: false,
      message: 'text is required by this capability.',
    });
    expect(missingRequired(text, {})).toBe('text is required by this capability.');
    expect(missingRequired(text, { text: 'hi' })).toBeUndefined();
  });

  it('sends numbers as numbers, text as typed (trimmed), and leaves empty optional fields out', () => {
    expect(paramsFromFields(fields, { date: ' 2026-12-01 ', minutes: '30', extra: '' })).toEqual({
      ok: true,
      params: { date: '2026-12-01', minutes: 30 },
    });
    expect(paramsFromFields(fields, { date: '2026-12-01', minutes: 'half an hour' })).toEqual({
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
