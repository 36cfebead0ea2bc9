/**
 * What the server front knows of a request's connection and a request header cannot say: the
 * client certificate chain the TLS handshake received (Go's `req.TLS.PeerCertificates`). The Node
 * fronts (../node/bridge.ts) fill it from the socket; in-process callers have no connection.
 */
export interface ConnectionInfo {
  /** The DER certificates the client presented, its own first, then any intermediates it sent. */
  peerCertificates?: readonly Uint8Array[];
}
