// RFC 9421 (HTTP Message Signatures), the request-side subset the negotiation reads use: the
// derived components @method, @authority, @path, @query and @target-uri (§2.2), plain header
// fields (§2.1, no parameters), and the @signature-params line (§2.3), joined into the
// signature base of §2.5. Structured-field syntax is left to the `structured-headers` library.
import { serializeInnerList, type BareItem, type InnerList, type Parameters } from 'structured-headers';

/** What a signature is computed over: the request as the client sent it / the server received it. */
export interface SignableRequest {
  readonly method: string;
  /** Absolute: scheme, authority, path and query. */
  readonly url: string;
  /** Lower-cased header name → its value (several values already joined with ", "). */
  readonly header: (name: string) => string | undefined;
}

/** The signature parameters (§2.3) this subset writes and reads. */
export interface SignatureParams {
  readonly created: number;
  readonly expires?: number;
  readonly nonce?: string;
  readonly keyid: string;
  readonly alg?: string;
  readonly tag?: string;
}

const PARAM_ORDER = ['created', 'expires', 'nonce', 'alg', 'keyid', 'tag'] as const;

export class SignatureBaseError extends Error {}

function derived(component: string, url: URL, method: string): string {
  switch (component) {
    case '@method':
      return method.toUpperCase();
    // §2.2.3: host[:port] lower-cased, the default port omitted (URL.host does both).
    case '@authority':
      return url.host.toLowerCase();
    case '@path':
      return url.pathname === '' ? '/' : url.pathname;
    // §2.2.7: an absent query is "?".
    case '@query':
      return url.search === '' ? '?' : url.search;
    case '@target-uri':
      return url.href;
    default:
      throw new SignatureBaseError(`Unsupported derived component ${component}.`);
  }
}

/** The value of @signature-params: the covered components as an inner list with the parameters. */
export function serializeSignatureParams(components: readonly string[], params: SignatureParams | Parameters): string {
  const map: Parameters = params instanceof Map ? params : new Map();
  if (!(params instanceof Map)) {
    // The order of the parameters is part of the signed bytes; this order is the RFC's examples'.
    for (const key of PARAM_ORDER) {
      const value = (params as SignatureParams)[key];
      if (value !== undefined) map.set(key, value as BareItem);
    }
  }
  const list: InnerList = [components.map((c) => [c, new Map()]), map];
  return serializeInnerList(list);
}

/**
 * The signature base (§2.5) for `components` of `request`, ending in the @signature-params
 * line whose value is `paramsValue` (as serialized by the signer, byte for byte).
 */
export function signatureBase(request: SignableRequest, components: readonly string[], paramsValue: string): string {
  const url = new URL(request.url);
  const seen = new Set<string>();
  const lines = components.map((component) => {
    if (seen.has(component)) throw new SignatureBaseError(`Component ${component} is listed twice.`);
    seen.add(component);
    if (component !== component.toLowerCase() || component === '@signature-params')
      throw new SignatureBaseError(`Bad component ${component}.`);
    const value = component.startsWith('@') ? derived(component, url, request.method) : request.header(component);
    if (value === undefined) throw new SignatureBaseError(`The request has no ${component} header.`);
    // §2.1: obsolete line folding and surrounding whitespace are not part of the value.
    const clean = value.replace(/\r?\n[ \t]+/g, ' ').trim();
    if (/[\r\n]/.test(clean)) throw new SignatureBaseError(`Component ${component} has a line break.`);
    return `"${component}": ${clean}`;
  });
  lines.push(`"@signature-params": ${paramsValue}`);
  return lines.join('\n');
}
