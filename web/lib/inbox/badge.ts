// The count on the tab: "(3) Switchboard" and the favicon with a badge. The favicon is an SVG data
// URL, which the CSP's img-src allows ('self' and data:, server/http/security-headers.ts).

export const BASE_TITLE = 'Switchboard';

/** "(3) Switchboard"; above 99 it says "(99+)". */
export function titleWithCount(count: number, base = BASE_TITLE): string {
  return count > 0 ? `(${countLabel(count)}) ${base}` : base;
}

export const countLabel = (count: number): string => (count > 99 ? '99+' : String(Math.max(0, count)));

// public/favicon.svg's drawing, kept in step with that file.
const MARK =
  '<rect width="32" height="32" rx="7" fill="#0f766e"/><path d="M8 11h16M8 16h10M8 21h13" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/><circle cx="23" cy="16" r="2.2" fill="#5eead4"/>';

/** The favicon as SVG: the mark alone at zero, with a red count badge otherwise. */
export function faviconSvg(count: number): string {
  if (count <= 0) return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${MARK}</svg>`;
  const label = countLabel(count);
  const size = label.length > 2 ? 9 : label.length > 1 ? 11 : 13;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${MARK}` +
    `<circle cx="22" cy="10" r="10" fill="#dc2626" stroke="#fff" stroke-width="1.5"/>` +
    `<text x="22" y="10" dy="0.35em" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="700" font-size="${size}" fill="#fff">${label}</text></svg>`
  );
}

export const faviconDataUrl = (count: number): string => `data:image/svg+xml,${encodeURIComponent(faviconSvg(count))}`;
