// Where RFC 0002 calls go: the built-in service's own `/oap/…`, or an external negotiation
// service's through the console's forwarder `/api/external/:serviceId/oap/…`, which passes the
// signed document on byte for byte. Same paths and bodies after the prefix.
export const oapBase = (source: string | undefined): string =>
  source === undefined ? '' : `/api/external/${encodeURIComponent(source)}`;
