// A URL the server will call (a webhook receiver, an A2A card), as people paste it.

/**
 * http(s) only, no credentials in the authority, no fragment (a query is kept: some receivers
 * take a token there), as the URL parser writes it and at most `maxLength` long; undefined otherwise.
 */
export function normaliseHttpUrl(raw: string, maxLength: number): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.hash) return undefined;
  const text = url.toString();
  return text.length <= maxLength ? text : undefined;
}
