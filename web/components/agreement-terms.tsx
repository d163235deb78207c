// An agreement's terms as labelled fields with units (decisions-web.md §32): the labels and units
// from this Tool's manifest (negotiation.terms, shared/negotiation/term-fields.ts) where it names
// the category, any other term by its key in words. Values are agents' words: text only.
import { useQuery } from '@tanstack/react-query';
import { LongText } from '@web/components/ui/long-text';
import { useDisplayZone } from '@web/components/when';
import { negotiationManifestQuery } from '@web/lib/api/negotiation-manifest';
import { termLines } from '@web/lib/negotiation/agreement-words';
import { useNow } from '@web/lib/use-now';

export function AgreementTerms({
  terms,
  category,
  hidden = [],
  ownManifest = true,
  className = '',
}: {
  terms: Readonly<Record<string, unknown>>;
  category: string | undefined;
  /** Terms a party redacted: listed as hidden, without a value. */
  hidden?: readonly string[];
  /** False for an external service's agreement: its manifest is not ours, so keys name the terms. */
  ownManifest?: boolean;
  className?: string;
}) {
  const manifest = useQuery({ ...negotiationManifestQuery, enabled: ownManifest });
  const zone = useDisplayZone();
  const now = useNow(60_000);
  const fields = ownManifest && category ? manifest.data?.terms?.[category] : undefined;
  const lines = termLines(terms, fields, zone, now, hidden);
  if (lines.length === 0) return <p className="text-sm text-slate-500">No terms.</p>;
  return (
    <dl
      data-testid="agreement-terms"
      className={`grid grid-cols-[minmax(0,max-content)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm ${className}`}
    >
      {lines.map((l) => (
        <div key={l.key} className="contents" data-testid="agreement-term" data-key={l.key}>
          <dt className="min-w-0 text-slate-600 dark:text-slate-400">
            <abbr title={l.key} className="no-underline">
              {l.label}
            </abbr>
          </dt>
          <dd className="min-w-0 font-medium">
            {l.value === null ? (
              <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                hidden by a party
              </span>
            ) : (
              <LongText text={l.value} preserveLines />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
