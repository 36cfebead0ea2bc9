import { describe, expect, it } from 'vitest';
import {
  generateServiceAccountKeyPem,
  importServiceAccountKey,
  jwks,
  openIdConfiguration,
  publicKeyPem,
  type ServiceAccountKey,
  serviceAccountClaims,
  signServiceAccountToken,
  verifyServiceAccountToken,
} from './service-account-jwt.js';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const NOW = Date.parse('2025-01-01T00:00:00Z');
const IAT = NOW / 1000;

const key = importServiceAccountKey(await generateServiceAccountKeyPem());

function decodePart(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

async function token(k: ServiceAccountKey, extra: Partial<Parameters<typeof serviceAccountClaims>[0]> = {}) {
  return signServiceAccountToken(
    k,
    serviceAccountClaims({
      issuer: ISSUER,
      audiences: [ISSUER],
      namespace: 'team-a',
      serviceAccount: { name: 'builder', uid: 'sa-uid' },
      issuedAt: IAT,
      expirationSeconds: 3600,
      id: 'jti-1',
      ...extra,
    }),
  );
}

describe('service account JWTs', () => {
  it('signs RS256 with the kid of the public key and the claims kube-apiserver writes, keys sorted', async () => {
    const k = await key;
    const t = await token(k, {
      pod: { name: 'web-0', uid: 'pod-uid' },
      node: { name: 'n1', uid: 'node-uid' },
      warnAfterSeconds: 3607,
    });
    const [header, payload] = t.split('.') as [string, string, string];
    expect(Buffer.from(header, 'base64url').toString()).toBe(`{"alg":"RS256","kid":"${k.kid}"}`);
    // keyIDFromPublicKey: base64url(SHA-256(PKIX DER)).
    const der = Buffer.from((await publicKeyPem(k)).replace(/-----[^-]+-----|\s/g, ''), 'base64');
    const digest = Buffer.from(await globalThis.crypto.subtle.digest('SHA-256', der)).toString('base64url');
    expect(k.kid).toBe(digest);
    expect(Buffer.from(payload, 'base64url').toString()).toBe(
      `{"aud":["${ISSUER}"],"exp":${IAT + 3600},"iat":${IAT},"iss":"${ISSUER}","jti":"jti-1",` +
        `"kubernetes.io":{"namespace":"team-a","node":{"name":"n1","uid":"node-uid"},"pod":{"name":"web-0","uid":"pod-uid"},` +
        `"serviceaccount":{"name":"builder","uid":"sa-uid"},"warnafter":${IAT + 3607}},"nbf":${IAT},"sub":"system:serviceaccount:team-a:builder"}`,
    );
    expect(() =>
      serviceAccountClaims({
        issuer: ISSUER,
        audiences: [],
        namespace: 'x',
        serviceAccount: { name: 'a' },
        secret: { name: 's' },
        pod: { name: 'p' },
        issuedAt: 0,
        expirationSeconds: 600,
      }),
    ).toThrow('internal error, token can only be bound to one object type');
  });

  it('verifies a good token into the service account user', async () => {
    const k = await key;
    const result = await verifyServiceAccountToken(await token(k, { pod: { name: 'web-0', uid: 'pod-uid' } }), {
      keys: [k],
      now: NOW + 1000,
    });
    expect(result).toEqual({
      ok: true,
      identity: {
        name: 'system:serviceaccount:team-a:builder',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['web-0'],
          'authentication.kubernetes.io/pod-uid': ['pod-uid'],
          'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
        },
        namespace: 'team-a',
        serviceAccountName: 'builder',
        audiences: [ISSUER],
      },
    });
  });

  it('refuses expired, tampered, foreign-key and wrong-audience tokens; leaves other tokens to others', async () => {
    const k = await key;
    const t = await token(k);
    // exp + leeway (60 s) is still good, one second more is not.
    expect((await verifyServiceAccountToken(t, { keys: [k], now: NOW + 3660_000 })).ok).toBe(true);
    expect(await verifyServiceAccountToken(t, { keys: [k], now: NOW + 3661_000 })).toEqual({
      ok: false,
      notMine: false,
      error: 'service account token has expired',
    });
    expect((await verifyServiceAccountToken(t, { keys: [k], now: NOW - 61_000 })).ok).toBe(false);
    const [h, p, s] = t.split('.') as [string, string, string];
    const claims = decodePart(p) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })).toString(
      'base64url',
    );
    expect(await verifyServiceAccountToken(`${h}.${forged}.${s}`, { keys: [k], now: NOW })).toEqual({
      ok: false,
      notMine: false,
      error: 'go-jose/go-jose: error in cryptographic primitive',
    });
    const other = await importServiceAccountKey(await generateServiceAccountKeyPem());
    expect((await verifyServiceAccountToken(t, { keys: [other], now: NOW })).ok).toBe(false);
    expect((await verifyServiceAccountToken(t, { keys: [other, k], now: NOW })).ok).toBe(true);
    expect(await verifyServiceAccountToken(await token(k, { audiences: ['vault'] }), { keys: [k], now: NOW })).toEqual({
      ok: false,
      notMine: false,
      error: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]`,
    });
    expect(await verifyServiceAccountToken('abc123', { keys: [k], now: NOW })).toEqual({ ok: false, notMine: true });
    expect(
      await verifyServiceAccountToken(await token(k, { issuer: 'https://other.example' }), { keys: [k], now: NOW }),
    ).toEqual({ ok: false, notMine: true });
  });

  it('checks the named objects still exist with the token uids when given a lookup', async () => {
    const k = await key;
    const t = await token(k, { secret: { name: 's1', uid: 'secret-uid' } });
    const live = new Map([
      ['ServiceAccount/team-a/builder', { uid: 'sa-uid' }],
      ['Secret/team-a/s1', { uid: 'secret-uid' }],
    ]);
    const lookup = async (kind: string, ns: string, name: string) => live.get(`${kind}/${ns}/${name}`);
    expect((await verifyServiceAccountToken(t, { keys: [k], now: NOW, lookup })).ok).toBe(true);
    live.set('Secret/team-a/s1', { uid: 'recreated' });
    expect(await verifyServiceAccountToken(t, { keys: [k], now: NOW, lookup })).toMatchObject({
      error: 'secret UID (recreated) does not match service account secret ref claim (secret-uid)',
    });
    live.set('ServiceAccount/team-a/builder', { uid: 'sa-2' });
    expect(await verifyServiceAccountToken(t, { keys: [k], now: NOW, lookup })).toMatchObject({
      error: 'service account UID (sa-2) does not match claim (sa-uid)',
    });
    live.delete('ServiceAccount/team-a/builder');
    expect(await verifyServiceAccountToken(t, { keys: [k], now: NOW, lookup })).toMatchObject({
      error: 'serviceaccounts "builder" not found',
    });
  });

  it('publishes the key as a JWKS and the OpenID discovery document', async () => {
    const k = await key;
    const set = await jwks([k]);
    expect(Object.keys(set.keys[0] ?? {})).toEqual(['use', 'kty', 'kid', 'alg', 'n', 'e']);
    expect(set.keys[0]).toMatchObject({ use: 'sig', kty: 'RSA', kid: k.kid, alg: 'RS256', e: 'AQAB' });
    // The published key verifies what the private key signed.
    const published = await globalThis.crypto.subtle.importKey(
      'jwk',
      { kty: 'RSA', n: set.keys[0]?.n ?? '', e: 'AQAB' },
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    expect(
      (await verifyServiceAccountToken(await token(k), { keys: [{ publicKey: published, kid: k.kid }], now: NOW })).ok,
    ).toBe(true);
    expect(openIdConfiguration(ISSUER, '127.0.0.1:6443')).toEqual({
      issuer: ISSUER,
      jwks_uri: 'https://127.0.0.1:6443/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });
});
