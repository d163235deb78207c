// Term names in words: "price_per_call_eur" → "price per call (EUR)", the JSON Pointer
// "/sla/latency_ms" → "SLA › latency (ms)". The pointer itself stays for the tooltip and the
// inspector; screens say the words (decisions-web §30).

const CURRENCIES = new Set(['eur', 'usd', 'gbp', 'chf', 'jpy']);
const UNITS: Readonly<Record<string, string>> = { ms: 'ms', s: 's', pct: '%', percent: '%', kb: 'KB', mb: 'MB' };
const WORDS: Readonly<Record<string, string>> = { sla: 'SLA', id: 'ID', url: 'URL', api: 'API', tz: 'time zone' };

/** One key ("calls_per_month", "priceEur") in words. */
export function termName(key: string): string {
  const parts = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-\s]+/)
    .filter(Boolean);
  if (parts.length === 0) return key;
  const last = parts[parts.length - 1]!;
  const unit = CURRENCIES.has(last) ? last.toUpperCase() : parts.length > 1 ? UNITS[last] : undefined;
  const words = (unit ? parts.slice(0, -1) : parts).map((w) => WORDS[w] ?? w).join(' ');
  return unit ? `${words} (${unit})` : words;
}

const unescape = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~');

/** An RFC 6901 pointer in words: "/slots/0/start" → "slots › item 1 › start"; "" → "the terms". */
export function pointerInWords(pointer: string): string {
  if (pointer === '' || pointer === '/') return 'the terms';
  return pointer
    .split('/')
    .slice(1)
    .map((t) => (/^\d+$/.test(t) ? `item ${Number(t) + 1}` : termName(unescape(t))))
    .join(' › ');
}

/** Pointers quoted inside a sentence (a server's refusal) said in words, each in quotes. */
export const pointersInSentence = (text: string): string =>
  text.replace(
    /(^|[\s(:“"'])(\/[A-Za-z_][\w~]*(?:\/[\w~]+)*)(?=$|[\s),.:;”"'])/g,
    (_m, before: string, p: string) => `${before}“${pointerInWords(p)}”`,
  );
