// The REQUEST's `params`, from simple fields (one per key of the tool's request_format) or
// from JSON typed by the operator. Pure, so every refusal is a coded message a test can see.
export type ParamsResult =
  { readonly ok: true; readonly params: Record<string, unknown> } | { readonly ok: false; readonly message: string };

/** One input of a tool, as the form shows it. */
export interface FormatField {
  readonly key: string;
  readonly hint: string;
  /** The request does not go out without it (decisions-web.md §26). */
  readonly required: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const hintOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The inputs a tool declares in its request_format (the manifest's input_schema), in the order
 * declared. Agora leaves the schema's form open, so two are read: a JSON Schema object
 * (`properties`, with `required` naming what must be given), and the flat `{ key: hint }` the
 * demo's agents use, where every key is an input the tool needs unless its hint says "optional".
 */
export function formatFields(requestFormat: Record<string, unknown> | undefined): FormatField[] {
  if (!requestFormat) return [];
  if (isRecord(requestFormat.properties)) {
    const required = Array.isArray(requestFormat.required) ? requestFormat.required : [];
    return Object.entries(requestFormat.properties).map(([key, value]) => {
      const type = isRecord(value) ? (value.description ?? value.type) : value;
      return { key, hint: type === undefined ? 'any' : hintOf(type), required: required.includes(key) };
    });
  }
  return Object.entries(requestFormat).map(([key, value]) => {
    const hint = hintOf(value);
    return { key, hint, required: !/\boptional\b/i.test(hint) };
  });
}

/** "text is required by this capability.", for the first required key `params` lacks. */
export function missingRequired(fields: readonly FormatField[], params: Record<string, unknown>): string | undefined {
  const missing = fields.find(
    (f) => f.required && (params[f.key] === undefined || params[f.key] === null || params[f.key] === ''),
  );
  return missing ? `${missing.key} is required by this capability.` : undefined;
}

/**
 * Fields to params: empty fields are left out, and refused when required; a field whose format
 * says `number` must be a finite number and is sent as one; everything else is sent as typed.
 */
export function paramsFromFields(
  fields: readonly FormatField[],
  values: Readonly<Record<string, string>>,
): ParamsResult {
  const params: Record<string, unknown> = {};
  for (const { key, hint } of fields) {
    const raw = (values[key] ?? '').trim();
    if (raw === '') continue;
    if (/^(number|integer)$/i.test(hint)) {
      const value = Number(raw);
      if (!Number.isFinite(value)) return { ok: false, message: `${key} must be a number.` };
      params[key] = value;
    } else {
      params[key] = raw;
    }
  }
  const missing = missingRequired(fields, params);
  return missing ? { ok: false, message: missing } : { ok: true, params };
}

/** JSON typed by the operator: it must be one object (Agora's params is an object). */
export function paramsFromJson(text: string): ParamsResult {
  if (text.trim() === '') return { ok: true, params: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      message: `Params are not valid JSON: ${error instanceof Error ? error.message : 'parse error'}.`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'Params must be a JSON object, like {"text": "Hello world"}.' };
  return { ok: true, params: value as Record<string, unknown> };
}
