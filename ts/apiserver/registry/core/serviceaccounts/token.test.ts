import { describe, expect, it } from 'vitest';
import { importServiceAccountKey, verifyServiceAccountToken } from '../../../authn/service-account-jwt.js';
import { testServer } from '../../../testing/test-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read response documents freely
type Doc = any;

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const SAS = '/api/v1/namespaces/team-a/serviceaccounts';
const tokenRequest = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  metadata,
  spec,
});
const claimsOf = (token: string): Doc => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());

async function setup() {
  const ts = await testServer();
  const sa = (await ts.json('POST', SAS, { metadata: { name: 'builder' } })).body as Doc;
  return { ...ts, saUid: sa.metadata.uid as string };
}

describe('serviceaccounts/token', () => {
  it('issues a token for an hour by default, good for the API audiences, verifiable with the published keys', async () => {
    const { json, call, clock, saUid } = await setup();
    const res = await json('POST', `${SAS}/builder/token`, tokenRequest());
    expect(res.status).toBe(201);
    const out = res.body as Doc;
    expect(out.metadata).toEqual({ name: 'builder', namespace: 'team-a', creationTimestamp: '2025-01-01T00:00:00Z' });
    expect(out.spec).toEqual({ audiences: [ISSUER], expirationSeconds: 3600, boundObjectRef: null });
    expect(out.status.expirationTimestamp).toBe('2025-01-01T01:00:00Z');
    const claims = claimsOf(out.status.token);
    const iat = clock.now() / 1000;
    expect(claims).toEqual({
      aud: [ISSUER],
      exp: iat + 3600,
      iat,
      iss: ISSUER,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      'kubernetes.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid: saUid } },
      nbf: iat,
      sub: 'system:serviceaccount:team-a:builder',
    });

    // The same key is published at /openid/v1/jwks.
    const jwksRes = await call('GET', '/openid/v1/jwks');
    expect(jwksRes.headers.get('Content-Type')).toBe('application/jwk-set+json');
    expect(jwksRes.headers.get('Cache-Control')).toBe('public, max-age=3600');
    const jwk = ((await jwksRes.json()) as Doc).keys[0];
    const publicKey = await globalThis.crypto.subtle.importKey(
      'jwk',
      { kty: jwk.kty, n: jwk.n, e: jwk.e },
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    const verified = await verifyServiceAccountToken(out.status.token, {
      keys: [{ publicKey, kid: jwk.kid }],
      now: clock.now(),
    });
    expect(verified).toMatchObject({
      ok: true,
      identity: { name: 'system:serviceaccount:team-a:builder', uid: saUid },
    });
    const discovery = (await json('GET', '/.well-known/openid-configuration')).body as Doc;
    expect(discovery).toEqual({
      issuer: ISSUER,
      jwks_uri: 'https://kubewasm.test/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });

  it('validates as TokenREST does: the service account, the duration, the names in the body', async () => {
    const { json } = await setup();
    expect((await json('POST', `${SAS}/nobody/token`, tokenRequest())).body).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'serviceaccounts "nobody" not found',
    });
    expect((await json('POST', `${SAS}/builder/token`, tokenRequest({ expirationSeconds: 599 }))).body).toMatchObject({
      code: 422,
      message:
        'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    });
    expect(
      (await json('POST', `${SAS}/builder/token`, tokenRequest({ expirationSeconds: 2 ** 32 }))).body.message,
    ).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Too long: may not be more than 4294967295 bytes',
    );
    expect((await json('POST', `${SAS}/builder/token`, tokenRequest({}, { name: 'other' }))).body).toMatchObject({
      code: 422,
      message:
        'TokenRequest.authentication.k8s.io "builder" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    });
    const aud = await json(
      'POST',
      `${SAS}/builder/token`,
      tokenRequest({ audiences: ['vault', 'sts'], expirationSeconds: 600 }),
    );
    expect(claimsOf((aud.body as Doc).status.token).aud).toEqual(['vault', 'sts']);
  });

  it('binds tokens to pods (with their node), secrets and nodes, checking kind, service account and uid', async () => {
    const { json, clock, saUid } = await setup();
    const node = (await json('POST', '/api/v1/nodes', { metadata: { name: 'n1' } })).body as Doc;
    const podBody = (name: string, serviceAccountName: string, nodeName?: string) => ({
      metadata: { name },
      spec: { serviceAccountName, containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) },
    });
    const pod = (await json('POST', '/api/v1/namespaces/team-a/pods', podBody('web', 'builder', 'n1'))).body as Doc;
    await json('POST', '/api/v1/namespaces/team-a/pods', podBody('other', 'default'));
    await json('POST', '/api/v1/namespaces/team-a/pods', podBody('lost', 'builder', 'gone'));
    const secret = (await json('POST', '/api/v1/namespaces/team-a/secrets', { metadata: { name: 's1' } })).body as Doc;
    const bind = (ref: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
      json('POST', `${SAS}/builder/token`, tokenRequest({ boundObjectRef: ref, ...spec }));

    const bound = (await bind({ kind: 'Pod', apiVersion: 'v1', name: 'web', uid: pod.metadata.uid })).body as Doc;
    expect(bound.spec.boundObjectRef).toEqual({ kind: 'Pod', apiVersion: 'v1', name: 'web', uid: pod.metadata.uid });
    expect(claimsOf(bound.status.token)['kubernetes.io']).toEqual({
      namespace: 'team-a',
      node: { name: 'n1', uid: node.metadata.uid },
      pod: { name: 'web', uid: pod.metadata.uid },
      serviceaccount: { name: 'builder', uid: saUid },
    });
    // A node that does not exist is named without a uid.
    const lost = (await bind({ kind: 'Pod', apiVersion: 'v1', name: 'lost' })).body as Doc;
    expect(claimsOf(lost.status.token)['kubernetes.io'].node).toEqual({ name: 'gone' });
    // The kubelet's projected token (1 h 7 s) lives a year, warning after the hour; the status keeps the request.
    const projected = (await bind({ kind: 'Pod', apiVersion: 'v1', name: 'web' }, { expirationSeconds: 3607 }))
      .body as Doc;
    const pc = claimsOf(projected.status.token);
    const iat = clock.now() / 1000;
    expect([pc.exp, pc['kubernetes.io'].warnafter]).toEqual([iat + 365 * 24 * 3600, iat + 3607]);
    expect(projected.status.expirationTimestamp).toBe('2025-01-01T01:00:07Z');

    const s = (await bind({ kind: 'Secret', apiVersion: 'v1', name: 's1' })).body as Doc;
    expect(claimsOf(s.status.token)['kubernetes.io'].secret).toEqual({ name: 's1', uid: secret.metadata.uid });
    const n = (await bind({ kind: 'Node', apiVersion: 'v1', name: 'n1' })).body as Doc;
    expect(claimsOf(n.status.token)['kubernetes.io'].node).toEqual({ name: 'n1', uid: node.metadata.uid });

    expect((await bind({ kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'stale' })).body).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated',
    });
    expect((await bind({ kind: 'Pod', apiVersion: 'v1', name: 'other' })).body).toMatchObject({
      code: 400,
      message: 'cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.',
    });
    expect((await bind({ kind: 'Deployment', apiVersion: 'apps/v1', name: 'web' })).body).toMatchObject({
      code: 400,
      message: 'cannot bind token to object of type apps/v1, Kind=Deployment',
    });
    expect((await bind({ kind: 'Secret', apiVersion: 'v1', name: 'nope' })).body).toMatchObject({
      code: 404,
      message: 'secrets "nope" not found',
    });
  });

  it('signs with the configured key', async () => {
    const { generateServiceAccountKeyPem } = await import('../../../authn/service-account-jwt.js');
    const key = await importServiceAccountKey(await generateServiceAccountKeyPem());
    const { createApiServer } = await import('../../../server.js');
    const { parseTokenFile } = await import('../../../authn/tokens.js');
    const { VirtualClock } = await import('../../../../sim/clock.js');
    const { WasmStorage } = await import('../../../../storage/wasm/wasm-storage.js');
    const { loadKubewasm } = await import('../../../../wasm/node.js');
    const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
    const storage = new WasmStorage({ store: (await loadKubewasm()).newStore(), clock });
    const api = createApiServer({
      storage,
      clock,
      tokens: parseTokenFile('t,admin,1,"system:masters"\n'),
      serviceAccountKey: key,
    });
    const req = (method: string, path: string, body?: unknown) =>
      api.handle(
        new Request(`https://x${path}`, {
          method,
          headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    await req('POST', '/api/v1/namespaces', { metadata: { name: 'team-a' } });
    await req('POST', SAS, { metadata: { name: 'builder' } });
    const out = (await (await req('POST', `${SAS}/builder/token`, tokenRequest())).json()) as Doc;
    expect(JSON.parse(Buffer.from(out.status.token.split('.')[0], 'base64url').toString()).kid).toBe(key.kid);
    expect((await verifyServiceAccountToken(out.status.token, { keys: [key], now: clock.now() })).ok).toBe(true);
  });
});
