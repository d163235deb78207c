// Server and network errors in words an operator reads: zod issues and transport failures never
// reach a sentence raw ("Invalid body: name Too big", "fetch failed"); the code stays available
// for a tooltip (decisions-web.md §28).
import { ApiError } from './http';

interface Issue {
  readonly path: string;
  readonly message: string;
}

const ACRONYMS: Readonly<Record<string, string>> = { url: 'URL', did: 'DID', id: 'ID', ics: 'iCalendar file' };

/** A field's path in words: `baseUrl` → "base URL", `terms.price_eur` → "price eur". */
export function fieldInWords(path: string): string {
  const last =
    path
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .at(-1) ?? '';
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  return words.join(' ');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One zod issue (as the server's `details.issues` carry them) as a sentence. */
export function issueInWords({ path, message }: Issue): string {
  const field = fieldInWords(path);
  const the = field ? `The ${field}` : 'The request';
  let m: RegExpMatchArray | null;
  if ((m = /^Too big: expected string to have <=?(\d+) characters/.exec(message)))
    return `${the} is too long (at most ${plural(Number(m[1]), 'character', 'characters')}).`;
  if ((m = /^Too small: expected string to have >=?(\d+) characters/.exec(message)))
    return Number(m[1]) <= 1
      ? `${the} is empty.`
      : `${the} is too short (at least ${plural(Number(m[1]), 'character', 'characters')}).`;
  if ((m = /^Too big: expected array to have <=?(\d+) items/.exec(message)))
    return `${the} has too many entries (at most ${m[1]}).`;
  if ((m = /^Too small: expected array to have >=?(\d+) items/.exec(message)))
    return `${the} needs at least ${plural(Number(m[1]), 'entry', 'entries')}.`;
  if ((m = /^Too big: expected number to be <=?(-?[\d.]+)/.exec(message)))
    return `${the} is too large (at most ${m[1]}).`;
  if ((m = /^Too small: expected number to be >=?(-?[\d.]+)/.exec(message)))
    return `${the} is too small (at least ${m[1]}).`;
  if (/^Invalid URL/.test(message)) return `${the} is not a web address (https://…).`;
  if ((m = /^Invalid option: expected one of (.+)$/.exec(message)))
    return `${the} must be one of ${m[1]!.replaceAll('"', '').split('|').join(', ')}.`;
  if (/received undefined$/.test(message)) return `${the} is missing.`;
  if (/^Invalid input: expected (\w+)/.test(message)) return `${the} has the wrong kind of value.`;
  return `${the} is not valid.`;
}

const issuesOf = (details: unknown): readonly Issue[] => {
  const issues = (details as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues)
    ? issues.filter((i): i is Issue => typeof i === 'object' && i !== null && typeof (i as Issue).message === 'string')
    : [];
};

// What fetch throws when the network fails differs by engine: Chromium, Firefox, Safari, Node.
const NETWORK_FAILURE =
  /^(fetch failed|failed to fetch|networkerror when attempting to fetch resource\.?|load failed)$/i;

/** Any error the console shows, in words. */
export function errorInWords(error: unknown): string {
  if (error instanceof ApiError) {
    const issues = issuesOf(error.details).map((i) => ({ path: i.path ?? '', message: i.message }));
    if (error.code === 'INVALID_REQUEST' && issues.length) return issues.map(issueInWords).join(' ');
    // An imported Agent Card's fields are the remote card's, not the form's (decisions-mcp.md §10).
    if (error.code === 'CARD_INVALID' && issues.length)
      return `The address answered, but not with an A2A Agent Card this console imports. ${issues.slice(0, 3).map(issueInWords).join(' ')}`;
    if (error.code === 'INVALID_REQUEST' && /^Invalid body/.test(error.message))
      return 'The server refused the input as malformed.';
    return error.message || `The server answered ${error.status}.`;
  }
  if (error instanceof Error && NETWORK_FAILURE.test(error.message))
    return 'The server cannot be reached. Check the connection and try again.';
  return error instanceof Error && error.message ? error.message : 'Something went wrong.';
}

/** The code behind an error, for a tooltip: never part of the sentence. */
export const errorCode = (error: unknown): string | undefined => (error instanceof ApiError ? error.code : undefined);

/** An external service's last failure (the bridge's words, often Node's), said plainly. */
export function serviceProblemInWords(lastError: string): string {
  if (NETWORK_FAILURE.test(lastError.trim()) || /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/.test(lastError))
    return 'It cannot be reached.';
  return lastError;
}
