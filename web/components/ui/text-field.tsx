import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  /** The input itself (React 19 passes `ref` as a prop), to move focus to it. */
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose hint and error are read out with it (aria-describedby). */
export function TextField({ label, hint, error, className = '', ...input }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 aria-invalid:border-rose-400 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:aria-invalid:border-rose-500"
        {...input}
      />
      {hint ? (
        <div id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-xs text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
