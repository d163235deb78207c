// The enrollment link the server prints: /enroll#token=…. The token rides in the fragment so
// it never reaches a server log, a proxy or a Referer header.
export function readEnrollToken(hash: string): string | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = params.get('token')?.trim();
  return token ? token : null;
}
