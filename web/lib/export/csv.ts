// CSV as RFC 4180 describes it: a field holding a comma, a double quote, CR or LF is quoted, and
// its quotes are doubled (§2.6, §2.7); records end with CRLF (§2.1). A field that starts with
// =, +, - or @ is kept as given: escaping formulas is the spreadsheet's job, and exports must
// round-trip byte for byte.

export type CsvValue = string | number | boolean | null | undefined;

/** One field: empty for null/undefined, quoted only when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRecord = (values: readonly CsvValue[]): string => values.map(csvField).join(',') + '\r\n';

export interface CsvColumn<T> {
  readonly header: string;
  readonly value: (row: T) => CsvValue;
}

/** The header record, then one record per row, as chunks for a Blob (no one big string). */
export function* csvChunks<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>): Generator<string> {
  yield csvRecord(columns.map((c) => c.header));
  for (const row of rows) yield csvRecord(columns.map((c) => c.value(row)));
}

export const toCsv = <T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>): string =>
  [...csvChunks(columns, rows)].join('');

/** Parses CSV text back into records (for tests and checks; strict RFC 4180 quoting). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records;
}
