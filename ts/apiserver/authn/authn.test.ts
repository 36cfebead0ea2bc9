/**
 * The authentication chain in process: the token file, service account JWTs, client
 * certificates, anonymous, impersonation and the two authentication.k8s.io reviews, through
 * createApiServer's handler as every request goes.
 */

import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VirtualClock } from '../../sim/clock.js';
import { reconcileBootstrapPolicy } from '../auth/bootstrap-policy.js';
import { createCertificateAuthority, issueCertificate, type KeyPair } from '../certs.js';
import type { ApiServer } from '../server.js';
import { TOKEN, testRequest, testServer, UNAUTHORIZED } from '../testing/test-server.js';
import type { ConnectionInfo } from './connection.js';
import {
  generateServiceAccountKeyPem,
  importServiceAccountKey,
  type ServiceAccountKey,
} from './service-account-jwt.js';

const ADMIN = TOKEN;
const ALICE = 'alice-token';
const START = Date.parse('2025-01-01T00:00:00Z');

interface Harness {
  api: ApiServer;
  clock: VirtualClock;
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string>; connection?: ConnectionInfo },
  ): Promise<Response>;
}

let saKey: ServiceAccountKey;
let ca: KeyPair;
let otherCa: KeyPair;

beforeAll(async () => {
  saKey = await importServiceAccountKey(await generateServiceAccountKeyPem());
  ca = await createCertificateAuthority(new Date(START - 1000));
  otherCa = await createCertificateAuthority(new Date(START - 1000));
});

async function harness(options: { anonymousAuth?: boolean } = {}): Promise<Harness> {
  const { api, clock } = await testServer({
    tokens: `${ALICE},alice,2,"dev"\n`,
    serviceAccountKey: saKey,
    clientCA: ca.certPem,
    namespaces: ['default'],
    ...options,
  });
  const call: Harness['call'] = (method, path, opts = {}) =>
    api.handle(testRequest(method, path, opts), opts.connection);
  // The bootstrap roles: system:basic-user lets every authenticated user create a SelfSubjectReview.
  expect(await reconcileBootstrapPolicy((r) => api.handle(r), 'https://kubewasm.test', ADMIN)).toEqual([]);
  return { api, clock, call };
}

const WHOAMI = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const WHOAMI_BODY = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };

async function whoami(h: Harness, opts: Parameters<Harness['call']>[2] = {}): Promise<Record<string, unknown>> {
  const res = await h.call('POST', WHOAMI, { ...opts, body: WHOAMI_BODY });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { status: { userInfo: Record<string, unknown> } };
  return body.status.userInfo;
}

async function expectUnauthorized(res: Response): Promise<void> {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual(UNAUTHORIZED);
}

async function serviceAccountToken(h: Harness, name: string, spec: Record<string, unknown> = {}): Promise<string> {
  const sa = await h.call('POST', '/api/v1/namespaces/default/serviceaccounts', {
    token: ADMIN,
    body: { metadata: { name } },
  });
  expect([201, 409]).toContain(sa.status);
  const res = await h.call('POST', `/api/v1/namespaces/default/serviceaccounts/${name}/token`, {
    token: ADMIN,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { status: { token: string } }).status.token;
}

async function tokenReviewStatus(h: Harness, token: string): Promise<Record<string, unknown>> {
  const res = await h.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
    token: ADMIN,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { status: Record<string, unknown> }).status;
}

function der(pem: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new x509.X509Certificate(pem).rawData);
}

describe('bearer tokens', () => {
  it('answers 401 Unauthorized without credentials and for an unknown or malformed token', async () => {
    const h = await harness();
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces'));
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces', { token: 'nope' }));
    await expectUnauthorized(
      await h.call('GET', '/api/v1/namespaces', { headers: { Authorization: `Bearer  ${ADMIN}` } }),
    );
  });

  it('adds system:authenticated to a token file user', async () => {
    const h = await harness();
    expect(await whoami(h, { token: ALICE })).toEqual({
      username: 'alice',
      uid: '2',
      groups: ['dev', 'system:authenticated'],
    });
  });

  it('authenticates a service account token as Kubernetes names its user', async () => {
    const h = await harness();
    const token = await serviceAccountToken(h, 'robot');
    const sa = (await (
      await h.call('GET', '/api/v1/namespaces/default/serviceaccounts/robot', { token: ADMIN })
    ).json()) as { metadata: { uid: string } };
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { jti: string };
    expect(await whoami(h, { token })).toEqual({
      username: 'system:serviceaccount:default:robot',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`] },
    });
  });

  it('puts a pod-bound token’s pod and node into the extra', async () => {
    const h = await harness();
    await h.call('POST', '/api/v1/namespaces/default/serviceaccounts', {
      token: ADMIN,
      body: { metadata: { name: 'runner' } },
    });
    const pod = (await (
      await h.call('POST', '/api/v1/namespaces/default/pods', {
        token: ADMIN,
        body: {
          metadata: { name: 'p' },
          spec: { serviceAccountName: 'runner', nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
        },
      })
    ).json()) as { metadata: { uid: string } };
    const token = await serviceAccountToken(h, 'runner', {
      boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p' },
    });
    const extra = (await whoami(h, { token })).extra as Record<string, string[]>;
    expect(extra['authentication.kubernetes.io/pod-name']).toEqual(['p']);
    expect(extra['authentication.kubernetes.io/pod-uid']).toEqual([pod.metadata.uid]);
    expect(extra['authentication.kubernetes.io/node-name']).toEqual(['n1']);
    // The pod gone, its token is refused.
    await h.call('DELETE', '/api/v1/namespaces/default/pods/p?gracePeriodSeconds=0', { token: ADMIN });
    h.clock.advance(11_000); // past the success cache
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces/default/pods', { token }));
    expect(await tokenReviewStatus(h, token)).toEqual({
      user: {},
      error: 'service account token has been invalidated',
    });
  });

  it('invalidates a node-bound token with its Node', async () => {
    const h = await harness();
    await h.call('POST', '/api/v1/nodes', { token: ADMIN, body: { metadata: { name: 'n1' } } });
    await h.call('POST', '/api/v1/namespaces/default/serviceaccounts', {
      token: ADMIN,
      body: { metadata: { name: 'kubelet' } },
    });
    const token = await serviceAccountToken(h, 'kubelet', {
      boundObjectRef: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
    });
    const extra = (await whoami(h, { token })).extra as Record<string, string[]>;
    expect(extra['authentication.kubernetes.io/node-name']).toEqual(['n1']);
    await h.call('DELETE', '/api/v1/nodes/n1', { token: ADMIN });
    h.clock.advance(11_000);
    expect(await tokenReviewStatus(h, token)).toEqual({
      user: {},
      error: 'service account token has been invalidated',
    });
  });

  it('refuses an expired, a tampered and a deleted service account’s token', async () => {
    const h = await harness();
    const expiring = await serviceAccountToken(h, 'a', { expirationSeconds: 600 });
    const tampered = await serviceAccountToken(h, 'b');
    const orphaned = await serviceAccountToken(h, 'c');
    const [head, payload, sig] = tampered.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    claims.sub = 'system:serviceaccount:kube-system:admin';
    const forged = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces', { token: forged }));
    await h.call('DELETE', '/api/v1/namespaces/default/serviceaccounts/c', { token: ADMIN });
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces', { token: orphaned }));
    h.clock.advance(601_000 + 60_000);
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces', { token: expiring }));
  });
});

describe('TokenReview', () => {
  it('reports the user, the audiences, and each kind of failure as the authenticator words it', async () => {
    const h = await harness();
    const good = await serviceAccountToken(h, 'robot');
    const other = await serviceAccountToken(h, 'robot', { audiences: ['vault'] });
    const review = async (spec: Record<string, unknown>) => {
      const res = await h.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
        token: ADMIN,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec },
      });
      return { status: res.status, body: (await res.json()) as { status: Record<string, unknown> } };
    };
    const ok = await review({ token: good });
    expect(ok.status).toBe(201);
    expect(ok.body.status.authenticated).toBe(true);
    expect(ok.body.status.audiences).toEqual(['https://kubernetes.default.svc.cluster.local']);
    expect((ok.body.status.user as { username: string }).username).toBe('system:serviceaccount:default:robot');
    expect((await review({ token: other })).body.status).toEqual({
      user: {},
      error:
        'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
    expect((await review({ token: other, audiences: ['vault'] })).body.status.audiences).toEqual(['vault']);
    expect((await review({ token: 'nope' })).body.status).toEqual({ user: {}, error: 'invalid bearer token' });
    const empty = await review({});
    expect(empty.status).toBe(400);
    expect((empty.body as unknown as { message: string }).message).toBe(
      'token is required for TokenReview in authentication',
    );
    // alice may not create token reviews.
    const res = await h.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      token: ALICE,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: good } },
    });
    expect(res.status).toBe(403);
  });
});

describe('client certificates', () => {
  it('authenticates a certificate of the client CA: CN the user, O the groups, its fingerprint the credential id', async () => {
    const h = await harness();
    const cert = await issueCertificate(
      ca,
      { commonName: 'jane', organizations: ['ops', 'dev'] },
      { client: true },
      new Date(START - 1000),
    );
    const raw = der(cert.certPem);
    const fingerprint = Buffer.from(await globalThis.crypto.subtle.digest('SHA-256', raw)).toString('hex');
    expect(await whoami(h, { connection: { peerCertificates: [raw] } })).toEqual({
      username: 'jane',
      groups: ['ops', 'dev', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] },
    });
  });

  it('refuses a certificate of another CA, an expired one and a serving certificate; a good token still wins', async () => {
    const h = await harness();
    const foreign = await issueCertificate(otherCa, { commonName: 'jane' }, { client: true }, new Date(START - 1000));
    const expired = await issueCertificate(
      ca,
      { commonName: 'jane' },
      { client: true },
      new Date(START - 11 * 365 * 24 * 3600 * 1000),
    );
    const serving = await issueCertificate(
      ca,
      { commonName: 'jane' },
      { serving: { dnsNames: ['x'], ips: [] } },
      new Date(START - 1000),
    );
    for (const pair of [foreign, expired, serving]) {
      const connection = { peerCertificates: [der(pair.certPem)] };
      await expectUnauthorized(await h.call('GET', '/api/v1/namespaces', { connection }));
      expect((await whoami(h, { connection, token: ALICE })).username).toBe('alice');
    }
  });
});

describe('anonymous', () => {
  it('is off by default, and when on serves a request without credentials as system:anonymous', async () => {
    const h = await harness({ anonymousAuth: true });
    // system:public-info-viewer is bound to system:unauthenticated too; system:basic-user is not.
    expect((await h.call('GET', '/version')).status).toBe(200);
    const review = await h.call('POST', WHOAMI, { body: WHOAMI_BODY });
    expect(review.status).toBe(403);
    expect(((await review.json()) as { message: string }).message).toBe(
      'selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope',
    );
    const res = await h.call('GET', '/api/v1/namespaces/default/pods');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(
      'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    // Bad credentials are still a 401.
    await expectUnauthorized(await h.call('GET', '/api/v1/namespaces', { token: 'nope' }));
  });
});

describe('impersonation', () => {
  it('acts as the user, groups, uid and extra asked for', async () => {
    const h = await harness();
    expect(
      await whoami(h, {
        token: ADMIN,
        headers: {
          'Impersonate-User': 'bob',
          'Impersonate-Group': 'team',
          'Impersonate-Uid': 'u-1',
          'Impersonate-Extra-Scopes': 'view',
        },
      }),
    ).toEqual({ username: 'bob', uid: 'u-1', groups: ['team', 'system:authenticated'], extra: { scopes: ['view'] } });
    expect(await whoami(h, { token: ADMIN, headers: { 'Impersonate-User': 'system:serviceaccount:ns1:sa1' } })).toEqual(
      {
        username: 'system:serviceaccount:ns1:sa1',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
      },
    );
    // system:anonymous gets system:unauthenticated, not system:authenticated: basic-user does not apply.
    const anonymous = await h.call('POST', WHOAMI, {
      token: ADMIN,
      body: WHOAMI_BODY,
      headers: { 'Impersonate-User': 'system:anonymous' },
    });
    expect(anonymous.status).toBe(403);
    expect(
      await whoami(h, {
        token: ADMIN,
        headers: { 'Impersonate-User': 'system:anonymous', 'Impersonate-Group': 'system:authenticated' },
      }),
    ).toEqual({ username: 'system:anonymous', groups: ['system:authenticated', 'system:unauthenticated'] });
    // The impersonated user is the one authorized.
    const res = await h.call('GET', '/api/v1/namespaces', { token: ADMIN, headers: { 'Impersonate-User': 'bob' } });
    expect(res.status).toBe(403);
  });

  it('refuses with the 403 of the first value the requester may not impersonate', async () => {
    const h = await harness();
    const res = await h.call('GET', '/api/v1/namespaces', { token: ALICE, headers: { 'Impersonate-User': 'bob' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'bob', kind: 'users' },
      code: 403,
    });
    const sa = await h.call('GET', '/api/v1/namespaces', {
      token: ALICE,
      headers: { 'Impersonate-User': 'system:serviceaccount:ns1:sa1' },
    });
    expect(((await sa.json()) as { message: string }).message).toBe(
      'serviceaccounts "sa1" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"',
    );
  });

  it('answers a group, uid or extra without a user as the filter does', async () => {
    const h = await harness();
    const res = await h.call('GET', '/api/v1/namespaces?limit=1', {
      token: ADMIN,
      headers: { 'Impersonate-Group': 'g' },
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(
      'Internal Server Error: "/api/v1/namespaces?limit=1": requested [{Group  g    }] without impersonating a user\n',
    );
    const uid = await h.call('GET', '/api/v1/namespaces', { token: ADMIN, headers: { 'Impersonate-Uid': 'u' } });
    expect(await uid.text()).toBe(
      'Internal Server Error: "/api/v1/namespaces": requested [{UID  u  authentication.k8s.io/v1  }] without impersonating a user\n',
    );
  });
});
