import { describe, expect, it } from 'vitest';
import { isForbidden } from '../api/status.js';
import { reconcileBootstrapPolicy } from '../apiserver/auth/bootstrap-policy.js';
import { generateServiceAccountKeyPem, importServiceAccountKey } from '../apiserver/authn/service-account-jwt.js';
import type { ApiServer } from '../apiserver/server.js';
import { TOKEN, testServer } from '../apiserver/testing/test-server.js';
import type { VirtualClock } from '../sim/clock.js';
import { createClient } from './client.js';
import { controllerTransport, isCollectionRead } from './controller-transport.js';
import { SharedIndexInformer as Informer } from './informers/shared-informer.js';
import { RESOURCES } from './resources.js';
import { serviceAccountTokenSource } from './token-source.js';
import { inProcessTransport } from './transport.js';

const BASE = 'https://kubernetes.invalid';

async function cluster() {
  const { api, clock } = await testServer({
    serviceAccountKey: await importServiceAccountKey(await generateServiceAccountKeyPem()),
    tokens: 'kcm,system:kube-controller-manager,2,""\nnobody,nobody,3,""\n',
    namespaces: [],
  });
  expect(await reconcileBootstrapPolicy((r) => api.handle(r), BASE, TOKEN)).toEqual([]);
  const admin = createClient(inProcessTransport(api, TOKEN));
  await admin.create(RESOURCES.namespaces, undefined, { metadata: { name: 'kube-system' } });
  return { api, clock, admin };
}

/** The user a client's requests authenticate as. */
async function whoami(transport: ReturnType<typeof inProcessTransport>): Promise<string> {
  const res = await transport(
    new Request(`${BASE}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    }),
  );
  return ((await res.json()) as { status: { userInfo: { username: string } } }).status.userInfo.username;
}

/** The token source of kube-system/namespace-controller, its ServiceAccount and tokens asked for as `user`. */
function namespaceControllerToken(api: ApiServer, clock: VirtualClock, user: string) {
  const transport = inProcessTransport(api, user);
  return serviceAccountTokenSource({
    client: createClient(transport),
    transport,
    namespace: 'kube-system',
    name: 'namespace-controller',
    clock,
  });
}

describe('serviceAccountTokenSource', () => {
  it('creates the ServiceAccount, requests its token as the controller manager, renews it at 80% of its life', async () => {
    const { api, clock, admin } = await cluster();
    const source = await namespaceControllerToken(api, clock, 'kcm');
    expect((await admin.get(RESOURCES.serviceaccounts, 'kube-system', 'namespace-controller')).metadata?.name).toBe(
      'namespace-controller',
    );
    const first = source.current();
    const own = inProcessTransport(api, source.current);
    expect(await whoami(own)).toBe('system:serviceaccount:kube-system:namespace-controller');
    clock.advance(2879_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(source.current()).toBe(first);
    clock.advance(2_000);
    for (let i = 0; i < 50 && source.current() === first; i++) await new Promise((r) => setTimeout(r, 20));
    expect(source.current()).not.toBe(first);
    // Past the first token's hour, the renewed one still authenticates.
    clock.advance(3600_000 - 2881_000 + 61_000);
    expect(await whoami(own)).toBe('system:serviceaccount:kube-system:namespace-controller');
    source.stop();
  });

  it('surfaces the 403 of an identity that may not request tokens', async () => {
    const { api, clock } = await cluster();
    const err = await namespaceControllerToken(api, clock, 'nobody').catch((e: unknown) => e);
    expect(isForbidden(err)).toBe(true);
    expect((err as Error).message).toBe(
      'serviceaccounts "namespace-controller" is forbidden: User "nobody" cannot get resource "serviceaccounts" in API group "" in the namespace "kube-system"',
    );
  });
});

describe('controllerTransport', () => {
  it('sends lists and watches with the informers’ credential, everything else with the controller’s', async () => {
    expect(isCollectionRead('GET', `${BASE}/api/v1/pods`)).toBe(true);
    expect(isCollectionRead('GET', `${BASE}/api/v1/namespaces`)).toBe(true);
    expect(isCollectionRead('GET', `${BASE}/api/v1/namespaces/ns/pods?watch=1`)).toBe(true);
    expect(isCollectionRead('GET', `${BASE}/apis/apps/v1/namespaces/ns/deployments`)).toBe(true);
    expect(isCollectionRead('GET', `${BASE}/api/v1/namespaces/ns`)).toBe(false);
    expect(isCollectionRead('GET', `${BASE}/api/v1/namespaces/ns/pods/p`)).toBe(false);
    expect(isCollectionRead('POST', `${BASE}/api/v1/namespaces/ns/pods`)).toBe(false);
    expect(isCollectionRead('DELETE', `${BASE}/api/v1/namespaces/ns/pods`)).toBe(false);
    const { api } = await cluster();
    const client = createClient(controllerTransport(inProcessTransport(api, 'kcm'), inProcessTransport(api, 'nobody')));
    // system:kube-controller-manager may list everything; `nobody` may not get a namespace.
    expect((await client.list(RESOURCES.namespaces)).items.length).toBeGreaterThan(0);
    const err = await client.get(RESOURCES.namespaces, undefined, 'kube-system').catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'namespaces "kube-system" is forbidden: User "nobody" cannot get resource "namespaces" in API group "" in the namespace "kube-system"',
    );
  });
});

describe('Informer onError', () => {
  it('reports a 403 of the informer’s identity on each failed list, instead of only never syncing', async () => {
    const { api, clock } = await cluster();
    const errors: unknown[] = [];
    const informer = new Informer(createClient(inProcessTransport(api, 'nobody')), RESOURCES.namespaces, {
      clock,
      onError: (err) => errors.push(err),
    });
    informer.start();
    for (let i = 0; i < 50 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect((errors[0] as Error).message).toBe(
      'namespaces is forbidden: User "nobody" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    await informer.stop();
  });
});
