// The only host APIs the protocol core relies on. Both exist unchanged in every
// supported runtime (browsers, Node >= 20, Deno, Bun); they are declared here
// rather than pulling in the DOM or Node type libraries (see shared/tsconfig.json).
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}
/** WHATWG URL, as far as the RFC 9421 signature base reads it (shared/http-signature). */
declare class URL {
  constructor(url: string, base?: string);
  readonly href: string;
  readonly host: string;
  readonly pathname: string;
  readonly search: string;
}
