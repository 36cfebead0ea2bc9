/**
 * Authorization through the handler: static-token users limited by RBAC, 403 Forbidden with
 * kube-apiserver's messages (responsewriters/errors.go), RoleBinding→ClusterRole scoping, the
 * in-process path (handleCall), and escalation prevention on role and binding writes
 * (policybased/storage.go) leaving nothing stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { parseTokenFile } from '../authn/tokens.js';
import { type ApiServer, createApiServer } from '../server.js';
import type { RbacAuthorizer } from './authorizer.js';
import { reconcileBootstrapPolicy } from './bootstrap-policy.js';
import { storageAuthorizer } from './testing/storage-authorizer.js';

const TOKENS = `admin-token,admin,1,"system:masters"
jane-token,jane,2,""
bob-token,bob,3,"devs"
`;
const BASE = 'https://kubewasm.test';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

interface Cluster {
  api: ApiServer;
  authz: RbacAuthorizer;
  as(
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops) await s();
  stops = [];
});

async function cluster(): Promise<Cluster> {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  const authz = storageAuthorizer(storage, clock);
  const api = createApiServer({ storage, clock, tokens: parseTokenFile(TOKENS), authorizer: authz });
  stops.push(async () => {
    await authz.stop();
    await storage.close();
  });
  const as = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await api.handle(
      new Request(`${BASE}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const out = await as('admin-token', method, path, body);
    // Whatever the admin changed is what the next request is authorized against.
    await authz.synced();
    return out;
  };
  for (const name of ['default', 'team-a']) await admin('POST', '/api/v1/namespaces', { metadata: { name } });
  return { api, authz, as, admin };
}

const role = (name: string, rules: unknown[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name },
  rules,
});
const binding = (name: string, kind: 'Role' | 'ClusterRole', roleName: string, user: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
});
const forbidden = (message: string, details: Record<string, string>) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'Forbidden',
  details,
  code: 403,
});

describe('authorization in the handler', () => {
  it('a Role bound to a user allows exactly its rules; the rest is 403 with the exact message', async () => {
    const c = await cluster();
    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]),
    );
    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/rolebindings`,
      binding('jane-reads', 'Role', 'pod-reader', 'jane'),
    );

    expect((await c.as('jane-token', 'GET', '/api/v1/namespaces/default/pods')).status).toBe(200);
    expect((await c.as('jane-token', 'GET', '/api/v1/namespaces/default/pods/nope')).status).toBe(404);

    expect(await c.as('jane-token', 'GET', '/api/v1/namespaces/team-a/pods')).toEqual({
      status: 403,
      body: forbidden(
        'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "team-a"',
        {
          kind: 'pods',
        },
      ),
    });
    expect(await c.as('jane-token', 'DELETE', '/api/v1/namespaces/default/pods/web')).toEqual({
      status: 403,
      body: forbidden(
        'pods "web" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "default"',
        { name: 'web', kind: 'pods' },
      ),
    });
    expect(await c.as('jane-token', 'GET', '/apis/apps/v1/namespaces/default/deployments?watch=true')).toEqual({
      status: 403,
      body: forbidden(
        'deployments.apps is forbidden: User "jane" cannot watch resource "deployments" in API group "apps" in the namespace "default"',
        { group: 'apps', kind: 'deployments' },
      ),
    });
    expect(await c.as('jane-token', 'GET', '/api/v1/nodes')).toEqual({
      status: 403,
      body: forbidden(
        'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope',
        {
          kind: 'nodes',
        },
      ),
    });
    expect(await c.as('jane-token', 'GET', '/api/v1/namespaces/default/pods/web/log')).toEqual({
      status: 403,
      body: forbidden(
        'pods "web" is forbidden: User "jane" cannot get resource "pods/log" in API group "" in the namespace "default"',
        { name: 'web', kind: 'pods' },
      ),
    });
    expect(await c.as('jane-token', 'GET', '/apis')).toEqual({
      status: 403,
      body: forbidden('forbidden: User "jane" cannot get path "/apis"', {}),
    });
    // Nothing was created by the refused write.
    expect(
      (await c.as('jane-token', 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } })).status,
    ).toBe(403);
    expect((await c.admin('GET', '/api/v1/namespaces/default/configmaps/x')).status).toBe(404);
  });

  it('a RoleBinding to a ClusterRole grants it in the binding namespace only', async () => {
    const c = await cluster();
    await c.admin('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'cm-editor' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
    });
    await c.admin('POST', `${RBAC}/namespaces/team-a/rolebindings`, {
      ...binding('devs-edit', 'ClusterRole', 'cm-editor', 'ignored'),
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
    });
    expect(
      (await c.as('bob-token', 'POST', '/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'c' } })).status,
    ).toBe(201);
    expect((await c.as('bob-token', 'GET', '/api/v1/namespaces/team-a/configmaps/c')).status).toBe(200);
    expect(await c.as('bob-token', 'GET', '/api/v1/namespaces/default/configmaps')).toMatchObject({
      status: 403,
      body: {
        message:
          'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
      },
    });
    expect(await c.as('bob-token', 'GET', '/api/v1/configmaps')).toMatchObject({
      status: 403,
      body: {
        message:
          'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" at the cluster scope',
      },
    });
  });

  it('the in-process path (handleCall) is authorized too', async () => {
    const c = await cluster();
    const res = await c.api.handleCall?.({
      method: 'GET',
      url: `${BASE}/api/v1/namespaces/default/secrets`,
      headers: { Authorization: 'Bearer jane-token' },
    });
    if (res === undefined) throw new Error('no handleCall');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(
      'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
    const ok = await c.api.handleCall?.({
      method: 'GET',
      url: `${BASE}/api/v1/namespaces/default/secrets`,
      headers: { Authorization: 'Bearer admin-token' },
    });
    expect(ok?.status).toBe(200);
  });

  it('the bootstrap policy: discovery and self review for everyone authenticated, nothing else', async () => {
    const c = await cluster();
    const errors = await reconcileBootstrapPolicy((r) => c.api.handle(r), BASE, 'admin-token');
    expect(errors).toEqual([]);
    await c.authz.synced();
    expect((await c.as('jane-token', 'GET', '/apis')).status).toBe(200);
    expect((await c.as('jane-token', 'GET', '/api/v1')).status).toBe(200);
    expect((await c.as('jane-token', 'GET', '/api/v1/namespaces/default/pods')).status).toBe(403);
    const admin = await c.admin('GET', `${RBAC}/clusterroles/admin`);
    expect(admin.body.metadata).toMatchObject({
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    });
    // admin is aggregated from edit and view: it can read pods and write rolebindings.
    const rules = admin.body.rules as { resources?: string[]; verbs: string[] }[];
    expect(rules.some((r) => r.resources?.includes('pods') && r.verbs.includes('list'))).toBe(true);
    expect(rules.some((r) => r.resources?.includes('rolebindings') && r.verbs.includes('create'))).toBe(true);
    // A second reconcile changes nothing.
    const before = admin.body.metadata as { resourceVersion: string };
    expect(await reconcileBootstrapPolicy((r) => c.api.handle(r), BASE, 'admin-token')).toEqual([]);
    expect(
      ((await c.admin('GET', `${RBAC}/clusterroles/admin`)).body.metadata as { resourceVersion: string })
        .resourceVersion,
    ).toBe(before.resourceVersion);
    // A ClusterRole bound in a namespace: `kubectl create rolebinding --clusterrole=view`.
    await c.admin(
      'POST',
      `${RBAC}/namespaces/team-a/rolebindings`,
      binding('jane-view', 'ClusterRole', 'view', 'jane'),
    );
    expect((await c.as('jane-token', 'GET', '/api/v1/namespaces/team-a/pods')).status).toBe(200);
    expect((await c.as('jane-token', 'GET', '/api/v1/namespaces/team-a/secrets')).status).toBe(403);
    expect((await c.as('jane-token', 'GET', '/api/v1/namespaces/default/pods')).status).toBe(403);
  });
});

describe('escalation prevention', () => {
  async function janeManagesRbac(): Promise<Cluster> {
    const c = await cluster();
    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('rbac-manager', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['roles', 'rolebindings'],
          verbs: ['create', 'get', 'update', 'patch'],
        },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      ]),
    );
    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/rolebindings`,
      binding('jane-manages', 'Role', 'rbac-manager', 'jane'),
    );
    return c;
  }

  it('a role with rules the user does not hold is refused and not stored; one within them is created', async () => {
    const c = await janeManagesRbac();
    const res = await c.as(
      'jane-token',
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('escalator', [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'create'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['s1'] },
      ]),
    );
    expect(res).toEqual({
      status: 403,
      body: forbidden(
        'roles.rbac.authorization.k8s.io "escalator" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:[""], Resources:["pods"], Verbs:["create"]}\n' +
          '{APIGroups:[""], Resources:["secrets"], ResourceNames:["s1"], Verbs:["get"]}',
        { name: 'escalator', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      ),
    });
    expect((await c.admin('GET', `${RBAC}/namespaces/default/roles/escalator`)).status).toBe(404);

    const ok = await c.as(
      'jane-token',
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]),
    );
    expect(ok.status).toBe(201);
    // Updating it to more than jane holds is refused too, and the stored role keeps its rules.
    const upd = await c.as('jane-token', 'PUT', `${RBAC}/namespaces/default/roles/reader`, {
      ...role('reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] }]),
    });
    expect(upd.status).toBe(403);
    expect(upd.body.message).toContain('{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}');
    const stored = await c.admin('GET', `${RBAC}/namespaces/default/roles/reader`);
    expect(stored.body.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]);
  });

  it('a binding to a role with more than the user holds is refused; `bind` permits it', async () => {
    const c = await janeManagesRbac();
    await c.admin('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'pod-killer' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }],
    });
    const res = await c.as(
      'jane-token',
      'POST',
      `${RBAC}/namespaces/default/rolebindings`,
      binding('b', 'ClusterRole', 'pod-killer', 'bob'),
    );
    expect(res).toEqual({
      status: 403,
      body: forbidden(
        'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
        { name: 'b', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
      ),
    });
    expect((await c.admin('GET', `${RBAC}/namespaces/default/rolebindings/b`)).status).toBe(404);
    // A roleRef that does not exist: the registry's NotFound text.
    const missing = await c.as(
      'jane-token',
      'POST',
      `${RBAC}/namespaces/default/rolebindings`,
      binding('m', 'Role', 'nope', 'bob'),
    );
    expect(missing.body.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "m" is forbidden: roles.rbac.authorization.k8s.io "nope" not found',
    );

    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('binder', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['pod-killer'],
        },
      ]),
    );
    await c.admin('POST', `${RBAC}/namespaces/default/rolebindings`, binding('jane-binds', 'Role', 'binder', 'jane'));
    expect(
      (
        await c.as(
          'jane-token',
          'POST',
          `${RBAC}/namespaces/default/rolebindings`,
          binding('b', 'ClusterRole', 'pod-killer', 'bob'),
        )
      ).status,
    ).toBe(201);
  });

  it('`escalate` on roles permits any rules', async () => {
    const c = await janeManagesRbac();
    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('escalate', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }]),
    );
    await c.admin(
      'POST',
      `${RBAC}/namespaces/default/rolebindings`,
      binding('jane-escalates', 'Role', 'escalate', 'jane'),
    );
    const res = await c.as(
      'jane-token',
      'POST',
      `${RBAC}/namespaces/default/roles`,
      role('big', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
    );
    expect(res.status).toBe(201);
  });

  it('an aggregationRule needs every permission', async () => {
    const c = await cluster();
    await c.admin('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'cr-writer' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }],
    });
    await c.admin('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'bob-writes' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr-writer' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
    const res = await c.as('bob-token', 'POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'gatherer' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { gather: 'true' } }] },
      rules: [],
    });
    expect(res.body.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "gatherer" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
    expect((await c.admin('GET', `${RBAC}/clusterroles/gatherer`)).status).toBe(404);
  });

  it('a cluster role binding to cluster-admin by a user without it lists the missing rules', async () => {
    const c = await cluster();
    await c.admin('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'crb-writer' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['create'] }],
    });
    await c.admin('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'root' },
      rules: [
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
        { nonResourceURLs: ['*'], verbs: ['*'] },
      ],
    });
    await c.admin('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'bob-writes' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'crb-writer' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
    const res = await c.as('bob-token', 'POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'bob-root' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'root' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
    expect(res.body.message).toBe(
      'clusterrolebindings.rbac.authorization.k8s.io "bob-root" is forbidden: user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
    expect((await c.admin('GET', `${RBAC}/clusterrolebindings/bob-root`)).status).toBe(404);
  });
});
