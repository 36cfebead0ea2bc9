/**
 * The cluster's certificate authority and the apiserver's serving certificate, made with WebCrypto
 * (no node: modules, so it also runs in a browser worker). kubectl and client-node only send
 * credentials over TLS (../shared/reference/api.md §0.1), hence a real CA on first start.
 */
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  certPem: string;
  keyPem: string;
}

/** What a server front serves with: its key pair, and the client CA it asks client certificates of. */
export interface ServingTls extends KeyPair {
  /** --client-ca-file PEM: clients are asked for a certificate, which authentication verifies against it. */
  clientCA?: string;
}

export interface ServingOptions {
  /** DNS names the serving certificate is valid for. */
  dnsNames: string[];
  /** IP addresses the serving certificate is valid for. */
  ips: string[];
}

function serial(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] as number) & 0x7f; // positive
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await globalThis.crypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function importKey(pem: string): Promise<CryptoKey> {
  const [der] = x509.PemConverter.decode(pem);
  if (!der) throw new Error('no PEM block in key');
  return globalThis.crypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

/** A new self-signed certificate authority, `CN=kubewasm-ca`. */
export async function createCertificateAuthority(now = new Date()): Promise<KeyPair> {
  const keys = await globalThis.crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=kubewasm-ca',
    notBefore: now,
    notAfter: new Date(now.getTime() + TEN_YEARS_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** A leaf certificate signed by `ca`: for serving (SANs) or for a client (CN = user, O = groups). */
export async function issueCertificate(
  ca: KeyPair,
  subject: { commonName: string; organizations?: string[] },
  usage: { serving: ServingOptions } | { client: true },
  now = new Date(),
): Promise<KeyPair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const keys = await globalThis.crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const name = [`CN=${subject.commonName}`, ...(subject.organizations ?? []).map((o) => `O=${o}`)].join(', ');
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
  ];
  if ('serving' in usage) {
    extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]));
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        ...usage.serving.dnsNames.map((value) => ({ type: 'dns' as const, value })),
        ...usage.serving.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
    );
  } else {
    extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]));
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: name,
    issuer: caCert.subject,
    notBefore: now,
    notAfter: new Date(now.getTime() + TEN_YEARS_MS),
    signingKey: await importKey(ca.keyPem),
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}
