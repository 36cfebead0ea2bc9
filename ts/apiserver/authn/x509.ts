/**
 * Client certificate authentication (k8s.io/apiserver pkg/authentication/request/x509/x509.go): the
 * certificate the TLS handshake received must chain to the client CA (--client-ca-file), every
 * certificate of the chain be valid now, and the leaf allow client authentication; then the
 * subject's CommonName is the user and its Organizations the groups (CommonNameUserConversion).
 * WebCrypto through @peculiar/x509, so it runs in a browser worker too.
 */
import * as x509 from '@peculiar/x509';
import { CREDENTIAL_ID_KEY } from './service-account-jwt.js';
import type { UserInfo } from './tokens.js';

x509.cryptoProvider.set(globalThis.crypto);

/** Go's x509 verification depth limit is far larger; a client chain longer than this is not ours. */
const MAX_CHAIN = 8;

/** RFC 5280 anyExtendedKeyUsage (Go's ExtKeyUsageAny, which satisfies any requested usage). */
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/**
 * The outcome, as an authenticator answers: a user; an `error` (the request is refused unless
 * another authenticator takes it); or neither (no certificate, or no CommonName).
 */
export type CertificateResult = { user: UserInfo } | { error: string } | Record<string, never>;

/** Go's `%X`-per-byte, colon-joined form of a hex key id (x509.go's certificateIdentifier). */
function hexColons(hex: string | undefined): string {
  return (hex ?? '').toUpperCase().match(/../g)?.join(':') ?? '';
}

/** x509.go certificateIdentifier: `SN=…, SKID=…, AKID=…` (the error the log gets; clients see 401). */
function certificateIdentifier(cert: x509.X509Certificate): string {
  const skid = cert.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const akid = cert.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId;
  return `SN=${BigInt(`0x${cert.serialNumber}`).toString()}, SKID=${hexColons(skid)}, AKID=${hexColons(akid)}`;
}

function validAt(cert: x509.X509Certificate, now: Date): boolean {
  return cert.notBefore.getTime() <= now.getTime() && now.getTime() <= cert.notAfter.getTime();
}

/** Go's checkChainForKeyUsage for ExtKeyUsageClientAuth: a certificate without the extension allows any. */
function allowsClientAuth(cert: x509.X509Certificate): boolean {
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  if (eku === null || eku.usages.length === 0) return true;
  return eku.usages.some((u) => u === x509.ExtendedKeyUsage.clientAuth || u === ANY_EXTENDED_KEY_USAGE);
}

function isCa(cert: x509.X509Certificate): boolean {
  return cert.getExtension(x509.BasicConstraintsExtension)?.ca === true;
}

/**
 * What a connection's certificates cost once, not per request (HTTP/2 carries many requests over
 * one connection, and its ConnectionInfo keeps one chain array): the parsed chain, each signature
 * check, the leaf's fingerprint. Validity and usage are checked at every request's time.
 */
const parsedChains = new WeakMap<readonly Uint8Array[], x509.X509Certificate[]>();
const signatures = new WeakMap<x509.X509Certificate, Map<x509.X509Certificate, Promise<boolean>>>();
const fingerprints = new WeakMap<x509.X509Certificate, Promise<string>>();

function parsedChain(chain: readonly Uint8Array[]): x509.X509Certificate[] {
  let certs = parsedChains.get(chain);
  if (certs === undefined) {
    certs = chain.map((der) => new x509.X509Certificate(Uint8Array.from(der)));
    parsedChains.set(chain, certs);
  }
  return certs;
}

function signedBy(cert: x509.X509Certificate, issuer: x509.X509Certificate): Promise<boolean> {
  if (cert.issuer !== issuer.subject) return Promise.resolve(false);
  let checked = signatures.get(cert);
  if (checked === undefined) {
    checked = new Map();
    signatures.set(cert, checked);
  }
  let verdict = checked.get(issuer);
  if (verdict === undefined) {
    verdict = cert.verify({ publicKey: issuer.publicKey, signatureOnly: true }).catch(() => false);
    checked.set(issuer, verdict);
  }
  return verdict;
}

/** The SHA-256 of the leaf's DER, in hex (the `X509SHA256=` credential id). */
function fingerprint(leaf: x509.X509Certificate): Promise<string> {
  let id = fingerprints.get(leaf);
  if (id === undefined) {
    id = globalThis.crypto.subtle
      .digest('SHA-256', leaf.rawData)
      .then((d) => Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join(''));
    fingerprints.set(leaf, id);
  }
  return id;
}

/** The certificates of a PEM bundle (a --client-ca-file may hold several roots). */
export function parseCertificateBundle(pem: string): x509.X509Certificate[] {
  return x509.PemConverter.decode(pem).map((der) => new x509.X509Certificate(der));
}

/**
 * Authenticator.AuthenticateRequest over the DER chain a connection presented (leaf first),
 * checked against `roots` at `now`.
 */
export async function authenticateCertificate(
  chain: readonly Uint8Array[] | undefined,
  roots: readonly x509.X509Certificate[],
  now: Date,
): Promise<CertificateResult> {
  if (chain === undefined || chain.length === 0) return {};
  let certs: x509.X509Certificate[];
  try {
    certs = parsedChain(chain);
  } catch {
    return { error: 'x509: malformed certificate' };
  }
  const leaf = certs[0] as x509.X509Certificate;
  const intermediates = certs.slice(1);
  const fail = (why: string): CertificateResult => ({
    error: `verifying certificate ${certificateIdentifier(leaf)} failed: ${why}`,
  });
  // Certificate.Verify: walk up through the intermediates to one of the roots.
  let current = leaf;
  let verified = false;
  for (let depth = 0; depth < MAX_CHAIN && !verified; depth++) {
    if (!validAt(current, now)) return fail('x509: certificate has expired or is not yet valid');
    if (!allowsClientAuth(current)) return fail('x509: certificate specifies an incompatible key usage');
    let next: x509.X509Certificate | undefined;
    for (const root of roots) {
      if (validAt(root, now) && (await signedBy(current, root))) {
        verified = true;
        break;
      }
    }
    if (verified) break;
    for (const candidate of intermediates) {
      if (candidate !== current && isCa(candidate) && (await signedBy(current, candidate))) {
        next = candidate;
        break;
      }
    }
    if (next === undefined) break;
    current = next;
  }
  if (!verified) return fail('x509: certificate signed by unknown authority');
  // CommonNameUserConversion: no CommonName is no user (and no error).
  const commonNames = leaf.subjectName.getField('CN');
  // pkix.Name keeps the last CommonName attribute.
  const name = commonNames[commonNames.length - 1] ?? '';
  if (name === '') return {};
  const id = await fingerprint(leaf);
  return {
    user: {
      name,
      uid: '',
      groups: leaf.subjectName.getField('O'),
      extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${id}`] },
    },
  };
}
