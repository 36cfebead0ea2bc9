/**
 * The client certificate chain of a Node TLS connection, as the web-standard handler's
 * ConnectionInfo (../authn/connection.ts): the DER certificates from the socket the handshake
 * received them on — never from a header, which any client could write. Read once per connection
 * (HTTP/2 multiplexes many requests over one).
 */
import type { PeerCertificate, TLSSocket } from 'node:tls';
import type { ConnectionInfo } from '../authn/connection.js';

const byConnection = new WeakMap<object, ConnectionInfo>();
const NONE: ConnectionInfo = {};

/** The chain Node reports for `socket`, leaf first, without repeating a self-signed root. */
function chainOf(socket: TLSSocket): Uint8Array[] {
  const out: Uint8Array[] = [];
  let cert: (PeerCertificate & { issuerCertificate?: PeerCertificate }) | undefined = socket.getPeerCertificate(true);
  const seen = new Set<PeerCertificate>();
  while (cert !== undefined && cert.raw !== undefined && !seen.has(cert)) {
    seen.add(cert);
    out.push(new Uint8Array(cert.raw));
    cert = cert.issuerCertificate;
  }
  return out;
}

/** The ConnectionInfo of the TLS socket a request came on (`{}` without a client certificate). */
export function connectionInfo(socket: unknown): ConnectionInfo {
  if (socket === null || typeof socket !== 'object') return NONE;
  const tls = socket as Partial<TLSSocket>;
  if (typeof tls.getPeerCertificate !== 'function') return NONE;
  const known = byConnection.get(socket);
  if (known !== undefined) return known;
  const chain = chainOf(tls as TLSSocket);
  const info: ConnectionInfo = chain.length === 0 ? NONE : { peerCertificates: chain };
  byConnection.set(socket, info);
  return info;
}
