// Terms as form fields: one per term the Tool's manifest names for the category
// (negotiation.terms, shared/negotiation/term-fields.ts), numbers and dates checked as they are
// typed; every other term as JSON behind "Advanced". Reports the terms, or null while a field or
// the JSON is wrong, to its parent.
import { fieldsFromTerms, termsFromFields, type TermField } from '@shared/negotiation/term-fields';
import type { Terms } from '@shared/negotiation/primitives';
import { TextField } from '@web/components/ui/text-field';
import { DayField } from '@web/components/ui/day-field';
import { useEffect, useId, useMemo, useState } from 'react';

function parseOther(text: string): Terms | string {
  if (text.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Terms)
      : 'Other terms are a JSON object, e.g. {"payment_terms": "net 30"}.';
  } catch (error) {
    return `Not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const INPUT_MODE: Readonly<Record<TermField['type'], 'decimal' | 'numeric' | 'text' | undefined>> = {
  decimal: 'decimal',
  number: 'decimal',
  integer: 'numeric',
  date: undefined,
  text: 'text',
};

export interface TermsEditorProps {
  readonly fields: readonly TermField[];
  readonly initial: Terms;
  /** The terms to send, or null while something is wrong. */
  readonly onChange: (terms: Terms | null) => void;
  /** Show every field's problem, also of fields not typed in yet (after a submit). */
  readonly showAll?: boolean;
}

export function TermsEditor({ fields, initial, onChange, showAll = false }: TermsEditorProps) {
  const [start] = useState(() => fieldsFromTerms(fields, initial));
  const [values, setValues] = useState<Record<string, string>>({ ...start.values });
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [otherText, setOtherText] = useState(() =>
    Object.keys(start.other).length > 0 ? JSON.stringify(start.other, null, 2) : '',
  );
  const otherId = useId();
  const other = parseOther(otherText);
  const check = useMemo(
    () => termsFromFields(fields, values, typeof other === 'string' ? {} : other),
    [fields, values, other],
  );
  const result = typeof other === 'string' || !check.ok ? null : check.terms;
  const resultKey = result === null ? '' : JSON.stringify(result);
  useEffect(() => onChange(result), [resultKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const otherCount = typeof other === 'string' ? 0 : Object.keys(other).length;

  return (
    <div className="space-y-3" data-testid="terms-editor">
      {fields.length > 0 ? (
        <div className="grid gap-3 sm:grid-cols-2">
          {fields.map((f) => {
            const label = `${f.label}${f.required ? '' : ' (optional)'}`;
            const error =
              !check.ok && (showAll || touched.has(f.name) || (values[f.name] ?? '') !== '')
                ? check.problems[f.name]
                : undefined;
            // Dates as the console writes them, not the browser's US order (decisions-web.md §36).
            return f.type === 'date' ? (
              <DayField
                key={f.name}
                label={label}
                value={values[f.name] ?? ''}
                onChange={(v) => setValues((vs) => ({ ...vs, [f.name]: v }))}
                onBlur={() => setTouched((t) => new Set(t).add(f.name))}
                error={error}
              />
            ) : (
              <TextField
                key={f.name}
                label={label}
                type="text"
                inputMode={INPUT_MODE[f.type]}
                value={values[f.name] ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
                onBlur={() => setTouched((t) => new Set(t).add(f.name))}
                hint={f.hint}
                spellCheck={false}
                autoComplete="off"
                error={error}
              />
            );
          })}
        </div>
      ) : null}
      <details open={fields.length === 0 || undefined} className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-700 dark:text-slate-300">
          {fields.length > 0 ? 'Advanced: other terms as JSON' : 'Terms as JSON'}
          {otherCount > 0 ? ` (${otherCount})` : ''}
        </summary>
        <label htmlFor={otherId} className="sr-only">
          Other terms as JSON
        </label>
        <textarea
          id={otherId}
          value={otherText}
          onChange={(e) => setOtherText(e.target.value)}
          rows={Math.min(10, Math.max(3, otherText.split('\n').length + 1))}
          spellCheck={false}
          placeholder='{"payment_terms": "net 30"}'
          aria-invalid={typeof other === 'string' || undefined}
          className="mt-2 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
        />
        {typeof other === 'string' ? <p className="mt-1 text-xs text-rose-700 dark:text-rose-300">{other}</p> : null}
      </details>
    </div>
  );
}
