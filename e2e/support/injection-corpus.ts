// Script-injection payloads an agent might write, for e2e/rooms-injection.spec.ts. Each one, if
// it ever ran, would set `window.__pwned` (to its own number) or open a dialog; the spec feeds
// every one through a real agent into every field the console shows and proves none runs.
// Classic vectors from the OWASP XSS filter-evasion cheat sheet and PortSwigger's XSS cheat
// sheet, one or two per family.

export interface Payload {
  readonly name: string;
  readonly text: string;
}

export const INJECTION_CORPUS: readonly Payload[] = [
  { name: 'script tag', text: '<script>window.__pwned=1</script>' },
  { name: 'script tag with alert', text: '<script>alert("pwned-2")</script>' },
  { name: 'img onerror', text: '<img src=x onerror="window.__pwned=3">' },
  { name: 'svg onload', text: '<svg onload="window.__pwned=4"></svg>' },
  { name: 'svg onload, slash separator', text: '<svg/onload=window.__pwned=5>' },
  { name: 'attribute break-out', text: '"><img src=x onerror=window.__pwned=6>' },
  { name: 'single-quote break-out', text: "'><svg onload=window.__pwned=7>" },
  { name: 'textarea/title break-out', text: '</textarea></title><script>window.__pwned=8</script>' },
  { name: 'javascript: URL', text: 'javascript:window.__pwned=9' },
  { name: 'mixed-case javascript: URL', text: 'JaVaScRiPt:alert("pwned-10")' },
  { name: 'anchor with javascript: href', text: '<a href="javascript:window.__pwned=11">click me</a>' },
  { name: 'data:text/html URL', text: 'data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xMjwvc2NyaXB0Pg==' },
  { name: 'iframe srcdoc', text: '<iframe srcdoc="<script>parent.__pwned=13</script>"></iframe>' },
  { name: 'iframe javascript: src', text: '<iframe src="javascript:parent.__pwned=14"></iframe>' },
  { name: 'entity-encoded tag', text: '&lt;img src=x onerror=window.__pwned=15&gt;' },
  { name: 'numeric-entity script', text: '&#60;script&#62;window.__pwned=16&#60;/script&#62;' },
  { name: 'unicode-escaped tag (as text)', text: '\\u003cimg src=x onerror=window.__pwned=17\\u003e' },
  { name: 'fullwidth brackets', text: '＜script＞window.__pwned=18＜/script＞' },
  { name: 'Angular/Vue template', text: "{{constructor.constructor('window.__pwned=19')()}}" },
  { name: 'JS template literal', text: '${window.__pwned=20}' },
  { name: 'markdown link', text: '[click](javascript:window.__pwned=21)' },
  { name: 'markdown image', text: '![x](x" onerror="window.__pwned=22)' },
  { name: 'CSS url(javascript:)', text: '<div style="background:url(javascript:window.__pwned=23)">x</div>' },
  { name: 'CSS @import', text: "<style>@import 'javascript:window.__pwned=24';</style>" },
  { name: 'object data', text: '<object data="javascript:window.__pwned=25"></object>' },
  { name: 'embed data: src', text: '<embed src="data:text/html,<script>parent.__pwned=26</script>">' },
  { name: 'details ontoggle', text: '<details open ontoggle="window.__pwned=27">' },
  { name: 'autofocus onfocus', text: '<input autofocus onfocus="window.__pwned=28">' },
  { name: 'meta refresh', text: '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=29">' },
  { name: 'base href', text: '<base href="javascript:window.__pwned=30//">' },
  { name: 'form action', text: '<form><button formaction="javascript:window.__pwned=31">go</button></form>' },
  {
    name: 'mutation XSS (math/style)',
    text: '<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=32>',
  },
  { name: 'null byte in tag', text: '<scr\u0000ipt>window.__pwned=33</scr\u0000ipt>' },
  { name: 'right-to-left override', text: '\u202e>tpircs/<33=denwp__.wodniw>tpircs<' },
];

/** The same payloads as the raw JSON an agent could write: `<` and `>` as \u escapes. */
export const unicodeEscaped = (json: string): string => json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/**
 * artifact_link URLs that are http(s) and so become links, each with something hostile in it.
 * `host` is what the console must show beside the link.
 */
export const HOSTILE_HTTP_LINKS: readonly { readonly url: string; readonly host: string }[] = [
  { url: 'https://example.com/"><img src=x onerror=window.__pwned=40>', host: 'example.com' },
  { url: 'https://example.com/?q=<script>window.__pwned=41</script>', host: 'example.com' },
  { url: 'https://example.com/#javascript:window.__pwned=42', host: 'example.com' },
  // A login-looking address whose real host is somewhere else: the host shown tells.
  { url: 'https://trusted.example@evil.example/login', host: 'evil.example' },
  { url: 'HTTP://EXAMPLE.ORG:8080/Report', host: 'example.org:8080' },
];

/** artifact_link URLs that are not http(s): never a link. */
export const NON_HTTP_LINKS: readonly string[] = [
  'javascript:window.__pwned=50',
  'JAVASCRIPT:window.__pwned=51',
  ' javascript:window.__pwned=52',
  'java\tscript:window.__pwned=53',
  'data:text/html,<script>parent.__pwned=54</script>',
  'vbscript:msgbox(55)',
  '//evil.example/protocol-relative',
  'file:///etc/passwd',
];
