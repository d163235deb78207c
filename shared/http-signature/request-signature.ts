// Signing and verifying a request with Ed25519 under RFC 9421 (§3.1, §3.2), the key being a
// party's did:key (keyid = the DID). The verifier insists on what makes a captured request
// useless elsewhere or later: the method, authority, path and query are covered, `created`
// is recent, `expires` (when given) not passed, and a nonce is present for the caller to
// remember (docs/decisions-negotiation.md, "Signed reads").
import { parseDictionary, serializeDictionary, type Item, type InnerList } from 'structured-headers';
import { utf8 } from '../crypto/bytes';
import { isDidKey } from '../crypto/did-key';
import { sign } from '../crypto/ed25519';
import type { DidSignatureCheck } from '../crypto/signed-document';
import { fail, ok, type Result } from '../errors';
import { serializeSignatureParams, signatureBase, type SignableRequest, type SignatureParams } from './signature-base';

export const HTTP_SIGNATURE_CODES = {
  MISSING: 'HTTP_SIGNATURE_MISSING',
  INVALID: 'HTTP_SIGNATURE_INVALID',
  EXPIRED: 'HTTP_SIGNATURE_EXPIRED',
  REPLAYED: 'HTTP_SIGNATURE_REPLAYED',
} as const;
const Code = HTTP_SIGNATURE_CODES;

/** What this Tool signs and requires: enough to pin the request to one method, host and resource. */
export const READ_COMPONENTS = ['@method', '@authority', '@path', '@query'] as const;

export const SIGNATURE_LABEL = 'sig';

export interface SignOptions {
  readonly keyid: string;
  readonly secretKey: Uint8Array;
  /** Unix seconds. */
  readonly created: number;
  readonly expires?: number;
  readonly nonce: string;
  readonly components?: readonly string[];
  readonly label?: string;
}

/** The Signature-Input and Signature headers for `request`. */
export function signRequest(
  request: SignableRequest,
  options: SignOptions,
): { 'signature-input': string; signature: string } {
  const components = options.components ?? READ_COMPONENTS;
  const params: SignatureParams = {
    created: options.created,
    ...(options.expires === undefined ? {} : { expires: options.expires }),
    nonce: options.nonce,
    alg: 'ed25519',
    keyid: options.keyid,
  };
  const paramsValue = serializeSignatureParams(components, params);
  const signature = sign(utf8(signatureBase(request, components, paramsValue)), options.secretKey);
  const label = options.label ?? SIGNATURE_LABEL;
  return {
    'signature-input': `${label}=${paramsValue}`,
    signature: serializeDictionary(new Map([[label, [signature.slice().buffer, new Map()] as Item]])),
  };
}

export interface VerifyOptions {
  /** Unix seconds. */
  readonly now: number;
  /** How old `created` may be, and so how long a nonce must be remembered. */
  readonly maxAgeSeconds: number;
  /** How far in the future `created` may be (clock skew). */
  readonly skewSeconds: number;
  readonly check: DidSignatureCheck;
}

export interface VerifiedSignature {
  readonly keyid: string;
  readonly nonce: string;
  readonly created: number;
  /** When the request stops being acceptable anyway: remember the nonce until then. */
  readonly staleAt: number;
}

const isInnerList = (member: Item | InnerList): member is InnerList => Array.isArray(member[0]);

function parse(header: string | undefined, name: string): Result<Map<string, Item | InnerList>> {
  if (header === undefined) return fail(Code.MISSING, `Sign this request (RFC 9421): the ${name} header is missing.`);
  try {
    return ok(parseDictionary(header));
  } catch {
    return fail(Code.INVALID, `The ${name} header is not a structured-field dictionary.`);
  }
}

/**
 * Verifies the first signature of the request. On success answers the signer's DID (keyid)
 * and the nonce; the caller refuses a nonce it has seen before `staleAt`.
 */
export function verifyRequest(request: SignableRequest, options: VerifyOptions): Result<VerifiedSignature> {
  const inputs = parse(request.header('signature-input'), 'Signature-Input');
  if (!inputs.ok) return inputs;
  const signatures = parse(request.header('signature'), 'Signature');
  if (!signatures.ok) return signatures;
  const first = [...inputs.value.entries()][0];
  if (first === undefined) return fail(Code.MISSING, 'Signature-Input names no signature.');
  const [label, input] = first;
  const value = signatures.value.get(label);
  if (!isInnerList(input) || value === undefined || isInnerList(value) || !(value[0] instanceof ArrayBuffer)) {
    return fail(Code.INVALID, `Signature-Input ${label} has no matching byte-sequence Signature.`);
  }
  const [items, params] = input;
  const components = items.map(([item]) => item);
  if (!components.every((c): c is string => typeof c === 'string') || items.some(([, p]) => p.size > 0)) {
    return fail(Code.INVALID, 'Covered components are plain strings in this profile.');
  }
  const missing = READ_COMPONENTS.filter((c) => !components.includes(c));
  if (missing.length > 0) return fail(Code.INVALID, `The signature must cover ${missing.join(', ')}.`, { missing });
  const created = params.get('created');
  const expires = params.get('expires');
  const keyid = params.get('keyid');
  const nonce = params.get('nonce');
  const alg = params.get('alg');
  if (typeof created !== 'number' || !Number.isInteger(created))
    return fail(Code.INVALID, 'The signature needs an integer created parameter.');
  if (expires !== undefined && (typeof expires !== 'number' || !Number.isInteger(expires)))
    return fail(Code.INVALID, 'expires is an integer.');
  if (typeof keyid !== 'string' || !isDidKey(keyid)) return fail(Code.INVALID, "keyid must be the signer's did:key.");
  if (typeof nonce !== 'string' || nonce.length < 8 || nonce.length > 128)
    return fail(Code.INVALID, 'The signature needs a nonce (8–128 characters).');
  if (alg !== undefined && alg !== 'ed25519') return fail(Code.INVALID, 'Only alg="ed25519" is accepted.');
  if (created > options.now + options.skewSeconds)
    return fail(Code.EXPIRED, 'The signature was created in the future.', { created });
  if (created < options.now - options.maxAgeSeconds)
    return fail(Code.EXPIRED, `The signature is older than ${options.maxAgeSeconds} s.`, { created });
  if (typeof expires === 'number' && expires < options.now)
    return fail(Code.EXPIRED, 'The signature has expired.', { expires });

  let base: string;
  try {
    base = signatureBase(request, components, serializeSignatureParams(components, params));
  } catch (error) {
    return fail(Code.INVALID, (error as Error).message);
  }
  const signature = new Uint8Array(value[0]);
  if (!options.check(keyid, utf8(base), signature)) return fail(Code.INVALID, 'The signature does not verify.');
  const staleAt = Math.min(created + options.maxAgeSeconds, typeof expires === 'number' ? expires : Infinity);
  return ok({ keyid, nonce, created, staleAt });
}
