/**
 * Service account tokens as kube-apiserver issues and checks them (pkg/serviceaccount jwt.go,
 * claims.go, openidmetadata.go, v1.32): RS256 JWTs signed with the service-account signing key,
 * the `kid` derived from the public key, the `kubernetes.io` private claims, the JWKS and OpenID
 * discovery documents, and the verifier the authenticator will use. WebCrypto only (no node:
 * modules), so it runs in a browser too.
 *
 *   const key = await importServiceAccountKey(await generateServiceAccountKeyPem());
 *   const token = await signServiceAccountToken(key, claims);
 *   const result = await verifyServiceAccountToken(token, { keys: [key], now: Date.now() });
 */
import * as x509 from '@peculiar/x509';

/** The issuer kube-apiserver is given by kubeadm and most distributions (--service-account-issuer). */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** pkg/serviceaccount/openidmetadata.go: OpenIDConfigPath and JWKSPath. */
export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** go-jose's jwt.DefaultLeeway, the clock skew claims.go's Validate allows (1 minute). */
const DEFAULT_LEEWAY_SECONDS = 60;

/** k8s.io/apiserver/pkg/authentication/serviceaccount/util.go: the user.Info extra keys. */
export const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
export const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
export const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The signing key: the private key (absent for verify-only keys), the public key, its `kid`. */
export interface ServiceAccountKey {
  privateKey?: CryptoKey;
  publicKey: CryptoKey;
  /** keyIDFromPublicKey: base64url(SHA-256(PKIX DER of the public key)). */
  kid: string;
}

/** `{name, uid}` of an object a token names (claims.go `ref`). */
export interface ClaimRef {
  name: string;
  uid?: string;
}

/** What claims.go's Claims puts into a token. */
export interface ServiceAccountClaimsInput {
  issuer: string;
  audiences: readonly string[];
  namespace: string;
  serviceAccount: ClaimRef;
  pod?: ClaimRef;
  secret?: ClaimRef;
  node?: ClaimRef;
  /** Seconds since the epoch (iat and nbf). */
  issuedAt: number;
  expirationSeconds: number;
  /** Seconds after issuedAt from which users are warned (the extended projected-token expiry); 0 = none. */
  warnAfterSeconds?: number;
  /** The jti claim (ServiceAccountTokenJTI, on by default in 1.32). */
  id?: string;
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64.RawURLEncoding.DecodeString: undefined for anything it would refuse. */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** JSON with object keys sorted at every depth, as Go's encoding/json writes the map go-jose merges claims into. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A new RSA 2048 service-account signing key as PKCS#8 PEM (what kubeadm writes to sa.key). */
export async function generateServiceAccountKeyPem(): Promise<string> {
  const pair = await globalThis.crypto.subtle.generateKey(
    { ...RSA, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  );
  const der = await globalThis.crypto.subtle.exportKey('pkcs8', pair.privateKey);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** The signing key from a PKCS#8 RSA private key PEM. */
export async function importServiceAccountKey(privateKeyPem: string): Promise<ServiceAccountKey> {
  const [der] = x509.PemConverter.decode(privateKeyPem);
  if (der === undefined) throw new Error('no PEM block in the service account key');
  const privateKey = await globalThis.crypto.subtle.importKey('pkcs8', der, RSA, true, ['sign']);
  // The public half, through the JWK form (WebCrypto derives no public key from a private one).
  const jwk = await globalThis.crypto.subtle.exportKey('jwk', privateKey);
  const publicKey = await globalThis.crypto.subtle.importKey(
    'jwk',
    { kty: 'RSA', n: jwk.n ?? '', e: jwk.e ?? '', ext: true },
    RSA,
    true,
    ['verify'],
  );
  return { privateKey, publicKey, kid: await keyIdOf(publicKey) };
}

/** keyIDFromPublicKey (jwt.go). */
async function keyIdOf(publicKey: CryptoKey): Promise<string> {
  const spki = await globalThis.crypto.subtle.exportKey('spki', publicKey);
  return base64url(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', spki)));
}

/** The public key as SPKI PEM (what kubeadm writes to sa.pub). */
export async function publicKeyPem(key: ServiceAccountKey): Promise<string> {
  return x509.PemConverter.encode(await globalThis.crypto.subtle.exportKey('spki', key.publicKey), 'PUBLIC KEY');
}

/** claims.go Claims: the registered claims and the `kubernetes.io` private claims of a token. */
export function serviceAccountClaims(input: ServiceAccountClaimsInput): Record<string, unknown> {
  const ref = (r: ClaimRef) => ({ name: r.name || undefined, uid: r.uid || undefined });
  if (input.secret !== undefined && (input.pod !== undefined || input.node !== undefined)) {
    throw new Error('internal error, token can only be bound to one object type');
  }
  const k8s: Record<string, unknown> = {
    namespace: input.namespace || undefined,
    serviceaccount: ref(input.serviceAccount),
  };
  if (input.pod !== undefined) {
    k8s.pod = ref(input.pod);
    if (input.node !== undefined) k8s.node = ref(input.node);
  } else if (input.secret !== undefined) {
    k8s.secret = ref(input.secret);
  } else if (input.node !== undefined) {
    k8s.node = ref(input.node);
  }
  if (input.warnAfterSeconds) k8s.warnafter = input.issuedAt + input.warnAfterSeconds;
  return {
    iss: input.issuer,
    sub: `system:serviceaccount:${input.namespace}:${input.serviceAccount.name}`,
    aud: [...input.audiences],
    exp: input.issuedAt + input.expirationSeconds,
    nbf: input.issuedAt,
    iat: input.issuedAt,
    jti: input.id,
    'kubernetes.io': k8s,
  };
}

/** jwtTokenGenerator.GenerateToken: `{"alg":"RS256","kid":…}` over the claims, RS256 signed. */
export async function signServiceAccountToken(
  key: ServiceAccountKey,
  claims: Record<string, unknown>,
): Promise<string> {
  if (key.privateKey === undefined) throw new Error('the service account key has no private half');
  const header = base64url(utf8.encode(sortedJson({ alg: 'RS256', kid: key.kid })));
  const payload = base64url(utf8.encode(sortedJson(claims)));
  const input = `${header}.${payload}`;
  const signature = await globalThis.crypto.subtle.sign(RSA, key.privateKey, utf8.encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

/** The JWKS served at /openid/v1/jwks (go-jose's JSONWebKey field order: use, kty, kid, alg, n, e). */
export async function jwks(keys: readonly ServiceAccountKey[]): Promise<{ keys: Record<string, string>[] }> {
  const out: Record<string, string>[] = [];
  for (const key of keys) {
    const jwk = await globalThis.crypto.subtle.exportKey('jwk', key.publicKey);
    out.push({ use: 'sig', kty: 'RSA', kid: key.kid, alg: 'RS256', n: jwk.n ?? '', e: jwk.e ?? '' });
  }
  return { keys: out };
}

/**
 * openidmetadata.go's openIDMetadata: the discovery document, its jwks_uri `https://<external
 * address>/openid/v1/jwks` when --service-account-jwks-uri is not set.
 */
export function openIdConfiguration(issuer: string, externalAddress: string): Record<string, unknown> {
  return {
    issuer,
    jwks_uri: `https://${externalAddress}${JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
}

/** The user a valid token authenticates as (ServiceAccountInfo.UserInfo). */
export interface ServiceAccountIdentity {
  name: string;
  uid: string;
  groups: string[];
  extra: Record<string, string[]>;
  namespace: string;
  serviceAccountName: string;
  /** The audiences the token is good for among the requested ones. */
  audiences: string[];
}

/** An object a token names, as the verifier finds it now (undefined: gone). */
export interface LiveObject {
  uid: string;
  /** metadata.deletionTimestamp in ms since the epoch. */
  deletionTimestamp?: number;
}

/** Looks objects up for the verifier (the authenticator backs it with storage). */
export type ObjectLookup = (
  kind: 'ServiceAccount' | 'Pod' | 'Secret' | 'Node',
  namespace: string,
  name: string,
) => Promise<LiveObject | undefined>;

export interface VerifyOptions {
  /** The public keys tokens may be signed with (--service-account-key-file). */
  keys: readonly ServiceAccountKey[];
  /** Accepted issuers (--service-account-issuer); the first is the default. */
  issuers?: readonly string[];
  /** The API audiences (--api-audiences; default: the issuers). */
  audiences?: readonly string[];
  /** The audiences the caller asks for (a TokenReview's spec.audiences); default: the API audiences. */
  requestedAudiences?: readonly string[];
  /** Now, in ms since the epoch. */
  now: number;
  /** With a lookup, the named service account, pod, secret must still exist with the token's uid. */
  lookup?: ObjectLookup;
}

/**
 * The outcome: `ok` with the identity; `error` for a token of ours that does not authenticate
 * (the authenticator answers 401); `notMine` for a token another authenticator should try
 * (not a JWT, or another issuer).
 */
export type VerifyResult =
  | { ok: true; identity: ServiceAccountIdentity }
  | { ok: false; notMine: true }
  | { ok: false; notMine: false; error: string };

type Claims = Record<string, unknown>;
const isObj = (v: unknown): v is Claims => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function parseJsonPart(part: string): Claims | undefined {
  const bytes = fromBase64url(part);
  if (bytes === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(utf8Decoder.decode(bytes));
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * jwtTokenAuthenticator.AuthenticateToken + validator.Validate (jwt.go, claims.go): issuer first
 * (not ours → notMine), then the RS256 signature against each key, the audiences, exp/nbf/iat with
 * go-jose's leeway, and with a lookup the bound objects; errors worded as Kubernetes words them.
 */
export async function verifyServiceAccountToken(token: string, options: VerifyOptions): Promise<VerifyResult> {
  const issuers = options.issuers ?? [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const fail = (error: string): VerifyResult => ({ ok: false, notMine: false, error });
  // hasCorrectIssuer: the unverified payload must name one of our issuers.
  if (token.trim().startsWith('{')) return { ok: false, notMine: true };
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, notMine: true };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const unverified = parseJsonPart(payloadPart);
  if (unverified === undefined || !issuers.includes(str(unverified.iss))) return { ok: false, notMine: true };
  // jwt.ParseSigned with RS256 only: a token that does not parse is not ours either.
  const header = parseJsonPart(headerPart);
  const signature = fromBase64url(signaturePart);
  if (header === undefined || header.alg !== 'RS256' || signature === undefined) return { ok: false, notMine: true };
  let found = false;
  for (const key of options.keys) {
    if (
      await globalThis.crypto.subtle.verify(RSA, key.publicKey, signature, utf8.encode(`${headerPart}.${payloadPart}`))
    ) {
      found = true;
      break;
    }
  }
  // go-jose's ErrCryptoFailure, aggregated over the keys tried.
  if (!found) return fail('go-jose/go-jose: error in cryptographic primitive');
  const claims = unverified;
  const apiAudiences = options.audiences ?? issuers;
  let tokenAudiences = Array.isArray(claims.aud)
    ? claims.aud.map(str)
    : typeof claims.aud === 'string'
      ? [claims.aud]
      : [];
  // Legacy tokens without audiences are good for the API audiences.
  if (tokenAudiences.length === 0) tokenAudiences = [...apiAudiences];
  const requested = options.requestedAudiences ?? apiAudiences;
  const audiences = tokenAudiences.filter((a) => requested.includes(a));
  if (audiences.length === 0 && apiAudiences.length !== 0) {
    return fail(
      `token audiences ${goStrings(tokenAudiences)} is invalid for the target audiences ${goStrings(requested)}`,
    );
  }
  // claims.go Validate: public.Validate(jwt.Expected{Time: now}) with the default leeway.
  const now = Math.floor(options.now / 1000);
  const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
  const exp = num(claims.exp);
  const nbf = num(claims.nbf);
  const iat = num(claims.iat);
  // go-jose's ValidateWithLeeway order: nbf (ErrNotValidYet), exp (ErrExpired), iat (ErrIssuedInTheFuture,
  // which claims.go answers with its opaque "unexpected validation error").
  if (nbf !== undefined && now + DEFAULT_LEEWAY_SECONDS < nbf) return fail('service account token is not valid yet');
  if (exp !== undefined && now - DEFAULT_LEEWAY_SECONDS > exp) return fail('service account token has expired');
  if (iat !== undefined && now + DEFAULT_LEEWAY_SECONDS < iat) {
    return fail('service account token claims could not be validated due to unexpected validation error');
  }
  const k8s = isObj(claims['kubernetes.io']) ? claims['kubernetes.io'] : undefined;
  if (k8s === undefined)
    return fail('service account token claims could not be validated due to unexpected private claim');
  const namespace = str(k8s.namespace);
  const refOf = (v: unknown): ClaimRef | undefined => (isObj(v) ? { name: str(v.name), uid: str(v.uid) } : undefined);
  const sa = refOf(k8s.serviceaccount) ?? { name: '', uid: '' };
  const pod = refOf(k8s.pod);
  const secret = refOf(k8s.secret);
  const node = refOf(k8s.node);
  if (options.lookup !== undefined) {
    const invalidIfDeletedBefore = options.now - DEFAULT_LEEWAY_SECONDS * 1000;
    const deleted = (o: LiveObject) =>
      o.deletionTimestamp !== undefined && o.deletionTimestamp < invalidIfDeletedBefore;
    const liveSa = await options.lookup('ServiceAccount', namespace, sa.name);
    if (liveSa === undefined) return fail(`serviceaccounts "${sa.name}" not found`);
    if (deleted(liveSa)) return fail(`service account ${namespace}/${sa.name} has been deleted`);
    if (liveSa.uid !== sa.uid) return fail(`service account UID (${liveSa.uid}) does not match claim (${sa.uid})`);
    // A bound object gone (or going) invalidates the token, without saying which (claims.go).
    const invalidated = 'service account token has been invalidated';
    if (secret !== undefined) {
      const live = await options.lookup('Secret', namespace, secret.name);
      if (live === undefined || deleted(live)) return fail(invalidated);
      if (secret.uid !== live.uid) {
        return fail(`secret UID (${live.uid}) does not match service account secret ref claim (${secret.uid})`);
      }
    }
    if (pod !== undefined) {
      const live = await options.lookup('Pod', namespace, pod.name);
      if (live === undefined || deleted(live)) return fail(invalidated);
      if (pod.uid !== live.uid)
        return fail(`pod UID (${live.uid}) does not match service account pod ref claim (${pod.uid})`);
    }
    // ServiceAccountTokenNodeBindingValidation (on by default): a token bound to a Node (not through
    // a pod, whose node is only informative) lives as long as that Node.
    if (node !== undefined && pod === undefined) {
      const live = await options.lookup('Node', '', node.name);
      if (live === undefined || deleted(live)) return fail(invalidated);
      if (node.uid !== live.uid) {
        return fail(`node UID (${live.uid}) does not match service account node ref claim (${node.uid})`);
      }
    }
  }
  const extra: Record<string, string[]> = {};
  if (pod?.name && pod.uid) {
    extra[POD_NAME_KEY] = [pod.name];
    extra[POD_UID_KEY] = [pod.uid];
  }
  const jti = str(claims.jti);
  // CredentialIDForJTI.
  if (jti !== '') extra[CREDENTIAL_ID_KEY] = [`JTI=${jti}`];
  if (node?.name) {
    extra[NODE_NAME_KEY] = [node.name];
    if (node.uid) extra[NODE_UID_KEY] = [node.uid];
  }
  return {
    ok: true,
    identity: {
      name: `system:serviceaccount:${namespace}:${sa.name}`,
      uid: sa.uid ?? '',
      // MakeGroupNames (system:authenticated is added by the authentication filter).
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
      extra,
      namespace,
      serviceAccountName: sa.name,
      audiences,
    },
  };
}

/** Go's %q of a []string: `["a" "b"]`. */
function goStrings(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
