// The REQUEST's `params`, from simple fields (one per key of the tool's request_format) or
// from JSON typed by the operator. Pure, so every refusal is a coded message a test can see.
export type ParamsResult =
  { readonly ok: true; readonly params: Record<string, unknown> } | { readonly ok: false; readonly message: string };

/** The keys a tool declares in its request_format, in the order declared, with what it says of each. */
export function formatFields(requestFormat: Record<string, unknown> | undefined): { key: string; hint: string }[] {
  if (!requestFormat) return [];
  return Object.entries(requestFormat).map(([key, value]) => ({
    key,
    hint: typeof value === 'string' ? value : JSON.stringify(value),
  }));
}

/**
 * Fields to params: empty fields are left out; a field whose format says `number` must be a
 * finite number and is sent as one; everything else is sent as the text typed.
 */
export function paramsFromFields(
  fields: readonly { key: string; hint: string }[],
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
  return { ok: true, params };
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
