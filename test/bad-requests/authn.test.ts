/**
 * Requests kube-apiserver refuses at authentication and impersonation, over HTTPS through
 * `kubewasm up`: each with the exact code, reason and message, and the proof that nothing was
 * stored (each one tries to create a ConfigMap, which the admin then does not find).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importServiceAccountKey,
  serviceAccountClaims,
  signServiceAccountToken,
} from '../../ts/apiserver/authn/service-account-jwt.js';
import { createCertificateAuthority, issueCertificate } from '../../ts/apiserver/certs.js';
import { UNAUTHORIZED } from '../../ts/apiserver/testing/test-server.js';
import { UpCluster } from '../testing/up.js';

const cluster = new UpCluster();
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const CM = '/api/v1/namespaces/default/configmaps';

let n = 0;
/** A ConfigMap body with a fresh name, and the check that it was not stored. */
function attempt(): { name: string; body: string; notStored(): Promise<void> } {
  const name = `attempt-${++n}`;
  return {
    name,
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } }),
    async notStored() {
      const res = await cluster.https('GET', `${CM}/${name}`, undefined, cluster.auth());
      expect(res.status).toBe(404);
    },
  };
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

async function serviceAccount(name: string): Promise<{ uid: string }> {
  const res = await cluster.https(
    'POST',
    '/api/v1/namespaces/default/serviceaccounts',
    JSON.stringify({ metadata: { name } }),
    { ...cluster.auth(), ...JSON_TYPE },
  );
  expect(res.status).toBe(201);
  return { uid: (JSON.parse(res.text) as { metadata: { uid: string } }).metadata.uid };
}

/** A token signed with the cluster's own key (DIR/sa.key), with the claims a test needs. */
async function signed(claims: {
  name: string;
  uid: string;
  issuedAt?: number;
  expirationSeconds?: number;
  audiences?: string[];
}): Promise<string> {
  const key = await importServiceAccountKey(readFileSync(join(cluster.dataDir, 'sa.key'), 'utf8'));
  return signServiceAccountToken(
    key,
    serviceAccountClaims({
      issuer: ISSUER,
      audiences: claims.audiences ?? [ISSUER],
      namespace: 'default',
      serviceAccount: { name: claims.name, uid: claims.uid },
      issuedAt: claims.issuedAt ?? Math.floor(Date.now() / 1000),
      expirationSeconds: claims.expirationSeconds ?? 3600,
      id: 'test-jti',
    }),
  );
}

describe('authentication refusals over HTTPS', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);
  afterAll(async () => {
    await cluster.dispose();
  });

  async function expectUnauthorized(headers: Record<string, string>, client?: { cert: string; key: string }) {
    const a = attempt();
    const res =
      client === undefined
        ? await cluster.https('POST', CM, a.body, { ...JSON_TYPE, ...headers })
        : await cluster.httpsWithCert('POST', CM, client, a.body, { ...JSON_TYPE, ...headers });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual(UNAUTHORIZED);
    await a.notStored();
  }

  it('no credentials, an unknown token, an empty one, another scheme', async () => {
    await expectUnauthorized({});
    await expectUnauthorized({ Authorization: 'Bearer not-a-token' });
    await expectUnauthorized({ Authorization: 'Bearer ' });
    await expectUnauthorized({ Authorization: `Basic ${cluster.token}` });
  });

  it('an expired, a tampered, a wrong-audience service account token, and one of a deleted ServiceAccount', async () => {
    const sa = await serviceAccount('bot');
    // Good first: the same signing path is accepted.
    const good = await signed({ name: 'bot', uid: sa.uid });
    const ok = await cluster.https('GET', '/apis/authentication.k8s.io/v1', undefined, {
      Authorization: `Bearer ${good}`,
    });
    expect(ok.status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    await expectUnauthorized({
      Authorization: `Bearer ${await signed({ name: 'bot', uid: sa.uid, issuedAt: now - 7200, expirationSeconds: 3600 })}`,
    });
    await expectUnauthorized({
      Authorization: `Bearer ${await signed({ name: 'bot', uid: sa.uid, audiences: ['vault'] })}`,
    });
    const [head, payload, sig] = good.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    claims.exp = (claims.exp as number) + 3600;
    await expectUnauthorized({
      Authorization: `Bearer ${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`,
    });
    // A token for a ServiceAccount uid that is not (or no longer) the live one.
    await expectUnauthorized({ Authorization: `Bearer ${await signed({ name: 'bot', uid: 'someone-else' })}` });
    await serviceAccount('gone');
    const res = await cluster.https('POST', '/api/v1/namespaces/default/serviceaccounts/gone/token', '{}', {
      ...cluster.auth(),
      ...JSON_TYPE,
    });
    const orphan = (JSON.parse(res.text) as { status: { token: string } }).status.token;
    expect(
      (await cluster.https('DELETE', '/api/v1/namespaces/default/serviceaccounts/gone', undefined, cluster.auth()))
        .status,
    ).toBe(200);
    await expectUnauthorized({ Authorization: `Bearer ${orphan}` });
  });

  it('a client certificate of another CA, or one the CA issued for serving', async () => {
    const other = await createCertificateAuthority();
    const foreign = await issueCertificate(
      other,
      { commonName: 'mallory', organizations: ['system:masters'] },
      { client: true },
    );
    await expectUnauthorized({}, { cert: foreign.certPem, key: foreign.keyPem });
    const ca = { certPem: cluster.ca.toString(), keyPem: readFileSync(join(cluster.dataDir, 'ca.key'), 'utf8') };
    const serving = await issueCertificate(
      ca,
      { commonName: 'mallory', organizations: ['system:masters'] },
      {
        serving: { dnsNames: ['x'], ips: [] },
      },
    );
    await expectUnauthorized({}, { cert: serving.certPem, key: serving.keyPem });
    // Union: a bad token is refused only when nothing else authenticates; the CA's certificate does.
    const good = await issueCertificate(
      ca,
      { commonName: 'carol', organizations: ['system:masters'] },
      { client: true },
    );
    const a = attempt();
    const res = await cluster.httpsWithCert('POST', CM, { cert: good.certPem, key: good.keyPem }, a.body, {
      ...JSON_TYPE,
      Authorization: 'Bearer not-a-token',
    });
    expect(res.status).toBe(201);
  });

  it('impersonation without permission: the 403 naming the first refused value', async () => {
    // A ServiceAccount without roles asks to impersonate.
    const sa = await serviceAccount('plain');
    const bearer = `Bearer ${await signed({ name: 'plain', uid: sa.uid })}`;
    const cases: [Record<string, string>, string][] = [
      [
        { 'Impersonate-User': 'bob' },
        'users "bob" is forbidden: User "system:serviceaccount:default:plain" cannot impersonate resource "users" in API group "" at the cluster scope',
      ],
      [
        { 'Impersonate-User': 'system:serviceaccount:kube-system:admin' },
        'serviceaccounts "admin" is forbidden: User "system:serviceaccount:default:plain" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"',
      ],
    ];
    for (const [headers, message] of cases) {
      const a = attempt();
      const res = await cluster.https('POST', CM, a.body, { ...JSON_TYPE, Authorization: bearer, ...headers });
      expect(res.status).toBe(403);
      const status = JSON.parse(res.text) as Record<string, unknown>;
      expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message });
      await a.notStored();
    }
    // Impersonation allowed (the admin), the impersonated user is then the one authorized.
    const a = attempt();
    const res = await cluster.https('POST', CM, a.body, {
      ...JSON_TYPE,
      ...cluster.auth(),
      'Impersonate-User': 'bob',
      'Impersonate-Group': 'devs',
    });
    expect(res.status).toBe(403);
    expect((JSON.parse(res.text) as { message: string }).message).toBe(
      'configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
    await a.notStored();
  });

  it('impersonation headers without a user: InternalError’s plain text, as the filter answers', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'Impersonate-Group': 'devs' }, '[{Group  devs    }]'],
      [{ 'Impersonate-Uid': 'u-1' }, '[{UID  u-1  authentication.k8s.io/v1  }]'],
      [{ 'Impersonate-Extra-Scopes': 'view' }, '[{UserExtra  view  authentication.k8s.io/v1  scopes}]'],
    ];
    for (const [headers, refs] of cases) {
      const a = attempt();
      const res = await cluster.https('POST', `${CM}?fieldManager=x`, a.body, {
        ...JSON_TYPE,
        ...cluster.auth(),
        ...headers,
      });
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toBe(
        `Internal Server Error: "/api/v1/namespaces/default/configmaps?fieldManager=x": requested ${refs} without impersonating a user\n`,
      );
      await a.notStored();
    }
  });
});

describe('kubewasm up --anonymous-auth', () => {
  const open = new UpCluster(['--anonymous-auth']);
  beforeAll(async () => {
    await open.start();
  }, 60_000);
  afterAll(async () => {
    await open.dispose();
  });

  it('serves a request without credentials as system:anonymous, and still refuses bad ones with 401', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'anon' } });
    const res = await open.https('POST', CM, body, JSON_TYPE);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
    const bad = await open.https('POST', CM, body, { ...JSON_TYPE, Authorization: 'Bearer not-a-token' });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.text)).toEqual(UNAUTHORIZED);
    expect((await open.https('GET', `${CM}/anon`, undefined, open.auth())).status).toBe(404);
  });
});
