// The address check at connect time (decisions-server.md §41): every connection to a service a
// facilitator registered resolves its host here, refuses it unless every address is public, and
// connects to the address it checked. Checking the name when it is registered is not enough: a
// name can answer a public address then and 127.0.0.1 a minute later (DNS rebinding), and a
// service can redirect. The TLS server name stays the host's, so certificates are checked as usual.
import type { lookup } from 'node:dns/promises';
import { buildConnector } from 'undici';
import { publicAddresses } from './address-policy';

export function guardedConnector(resolve?: typeof lookup): buildConnector.connector {
  const connect = buildConnector({});
  return (options, callback) => {
    publicAddresses(options.hostname, resolve).then(
      ([first]) => connect({ ...options, hostname: first!.address }, callback),
      (error: Error) => callback(error, null),
    );
  };
}
