import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, parseCsv, toCsv } from './csv';

describe('csv', () => {
  it('quotes only fields that need it, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField(false)).toBe('false');
  });

  it('writes a header and CRLF-terminated records', () => {
    const text = toCsv(
      [
        { header: 'id', value: (r: { id: number; text: string }) => r.id },
        { header: 'text', value: (r) => r.text },
      ],
      [
        { id: 1, text: 'hello, world' },
        { id: 2, text: '"quoted"\nnext' },
      ],
    );
    expect(text).toBe('id,text\r\n1,"hello, world"\r\n2,"""quoted""\nnext"\r\n');
    expect(parseCsv(text)).toEqual([
      ['id', 'text'],
      ['1', 'hello, world'],
      ['2', '"quoted"\nnext'],
    ]);
  });

  it('round-trips any strings (seeded)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const width = rows[0]!.length;
          const table = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
          const columns = Array.from({ length: width }, (_, i) => ({ header: `c${i}`, value: (r: string[]) => r[i] }));
          expect(parseCsv(toCsv(columns, table)).slice(1)).toEqual(table);
        },
      ),
      { seed: 2026, numRuns: 300 },
    );
  });
});
