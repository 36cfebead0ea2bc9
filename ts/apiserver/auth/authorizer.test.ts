/**
 * The RBAC authorizer, with the facts of Kubernetes' plugin/pkg/auth/authorizer/rbac/rbac_test.go
 * (TestAuthorizer, TestRuleMatches) and pkg/registry/rbac/validation/rule_test.go (appliesTo,
 * TestDefaultRuleResolver): objects written to an in-memory store, read back through the index.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyRule, Subject } from '../../api/types/rbac/v1.js';
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import type { Kubewasm } from '../../wasm/kubewasm.js';
import { loadKubewasm } from '../../wasm/node.js';
import { type Attributes, attributesFor, type UserInfo } from './attributes.js';
import type { RbacAuthorizer } from './authorizer.js';
import { ruleAllows } from './rule-match.js';
import { appliesTo } from './rule-resolver.js';
import { storageAuthorizer } from './testing/storage-authorizer.js';

let kubewasm: Kubewasm;
beforeAll(async () => {
  kubewasm = await loadKubewasm();
});

const enc = new TextEncoder();
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

interface Policy {
  clusterRoles?: [string, PolicyRule[]][];
  roles?: [string, string, PolicyRule[]][];
  clusterRoleBindings?: [string, string, Subject[]][];
  /** name, namespace, roleRef kind:name, subjects */
  roleBindings?: [string, string, string, Subject[]][];
}

const user = (name: string, ...groups: string[]): UserInfo => ({ name, uid: '', groups });
const U = (name: string): Subject => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
const G = (name: string): Subject => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
const SA = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });
const rule = (verbs: string, groups: string, resources: string, urls = '', names = ''): PolicyRule => {
  const split = (s: string) => (s === '' ? [] : s.split(','));
  return {
    verbs: split(verbs),
    ...(urls === '' ? { apiGroups: groups.split(','), resources: split(resources) } : { nonResourceURLs: split(urls) }),
    ...(names === '' ? {} : { resourceNames: split(names) }),
  };
};

async function authorizerWith(p: Policy): Promise<{ authz: RbacAuthorizer; storage: WasmStorage }> {
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock: new VirtualClock(0) });
  const put = (key: string, obj: unknown) => storage.create(key, enc.encode(JSON.stringify(obj)));
  for (const [name, rules] of p.clusterRoles ?? [])
    await put(`/registry/clusterroles/${name}`, { metadata: { name }, rules });
  for (const [ns, name, rules] of p.roles ?? []) {
    await put(`/registry/roles/${ns}/${name}`, { metadata: { name, namespace: ns }, rules });
  }
  for (const [name, role, subjects] of p.clusterRoleBindings ?? []) {
    await put(`/registry/clusterrolebindings/${name}`, {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects,
    });
  }
  for (const [name, ns, ref, subjects] of p.roleBindings ?? []) {
    const [kind, roleName] = ref.split(':') as [string, string];
    await put(`/registry/rolebindings/${ns}/${name}`, {
      metadata: { name, namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
      subjects,
    });
  }
  const authz = storageAuthorizer(storage);
  cleanup.push(async () => {
    await authz.stop();
    await storage.close();
  });
  await authz.synced();
  return { authz, storage };
}

const res = (u: UserInfo, verb: string, group: string, resource: string, ns = '', name = '', sub = ''): Attributes => ({
  user: u,
  verb,
  resourceRequest: true,
  path: '',
  namespace: ns,
  apiGroup: group,
  apiVersion: 'v1',
  resource,
  subresource: sub,
  name,
});
const url = (u: UserInfo, verb: string, path: string): Attributes => ({
  user: u,
  verb,
  resourceRequest: false,
  path,
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
});

async function decisions(authz: RbacAuthorizer, attrs: Attributes[]): Promise<string[]> {
  return Promise.all(attrs.map(async (a) => (await authz.authorize(a)).decision));
}

describe('RBAC authorizer (rbac_test.go TestAuthorizer)', () => {
  it('a RoleBinding to a ClusterRole grants it in the binding namespace only', async () => {
    const admin = user('admin');
    const { authz } = await authorizerWith({
      clusterRoles: [['admin', [rule('*', '*', '*')]]],
      roleBindings: [['admin', 'ns1', 'ClusterRole:admin', [U('admin'), G('admins')]]],
    });
    expect(
      await decisions(authz, [
        res(admin, 'get', '', 'pods', 'ns1'),
        res(admin, 'watch', '', 'services', 'ns1'),
        res(user('xyz', 'admins'), 'get', '', 'pods', 'ns1'),
        res(user('xyz', 'admins'), 'watch', '', 'services', 'ns1'),
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow']);
    expect(
      await decisions(authz, [
        res(admin, 'get', '', 'pods', 'ns2'),
        res(admin, 'watch', '', 'services', 'ns2'),
        res(admin, 'get', '', 'nodes'),
        res(user('xyz', 'admins'), 'get', '', 'pods', 'ns2'),
        res(user('xyz'), 'get', '', 'pods', 'ns1'),
      ]),
    ).toEqual(['noOpinion', 'noOpinion', 'noOpinion', 'noOpinion', 'noOpinion']);
  });

  it('non-resource URLs: exact, `*` verbs and trailing `*` prefixes', async () => {
    const { authz } = await authorizerWith({
      clusterRoles: [
        ['non-resource-url-getter', [rule('get', '', '', '/apis')]],
        ['non-resource-url', [rule('*', '', '', '/apis')]],
        ['non-resource-url-prefix', [rule('get', '', '', '/apis/*')]],
      ],
      clusterRoleBindings: [
        ['non-resource-url-getter', 'non-resource-url-getter', [U('foo'), G('bar')]],
        ['non-resource-url', 'non-resource-url', [U('baz')]],
        ['non-resource-url-prefix', 'non-resource-url-prefix', [U('zed')]],
      ],
    });
    expect(
      await decisions(authz, [
        url(user('foo'), 'get', '/apis'),
        url(user('foobar', 'bar'), 'get', '/apis'),
        url(user('baz'), 'get', '/apis'),
        url(user('baz'), 'post', '/apis'),
        url(user('zed'), 'get', '/apis/v1'),
        url(user('zed'), 'get', '/apis/v1/foo'),
        url(user('zed'), 'get', '/apis/v1/foo/bar'),
      ]),
    ).toEqual(Array(7).fill('allow'));
    expect(
      await decisions(authz, [
        url(user('foo'), 'post', '/apis'),
        url(user('foobar', 'bar'), 'post', '/apis'),
        url(user('baz'), 'get', '/api'),
        url(user('zed'), 'get', '/apis'),
        url(user('zed'), 'post', '/apis/v1'),
        url(user('zed'), 'get', '/api/v1'),
      ]),
    ).toEqual(Array(6).fill('noOpinion'));
  });

  it('subresources: `pods/status`, `*/scale`; a resource rule does not grant its subresources', async () => {
    const { authz } = await authorizerWith({
      clusterRoles: [['r', [rule('get', '', 'pods/status'), rule('get', 'apps', '*/scale')]]],
      clusterRoleBindings: [['r', 'r', [U('foo')]]],
    });
    const foo = user('foo');
    expect(
      await decisions(authz, [
        res(foo, 'get', '', 'pods', 'ns1', 'p', 'status'),
        res(foo, 'get', 'apps', 'deployments', 'ns1', 'd', 'scale'),
        res(foo, 'get', 'apps', 'statefulsets', 'ns1', 's', 'scale'),
      ]),
    ).toEqual(['allow', 'allow', 'allow']);
    expect(
      await decisions(authz, [
        res(foo, 'get', '', 'pods', 'ns1', 'p'),
        res(foo, 'get', '', 'pods', 'ns1', 'p', 'log'),
        res(foo, 'get', '', 'replicationcontrollers', 'ns1', 'rc', 'scale'),
        res(foo, 'get', 'apps', 'deployments', 'ns1', 'd'),
      ]),
    ).toEqual(['noOpinion', 'noOpinion', 'noOpinion', 'noOpinion']);
  });

  it('groups system:authenticated, system:serviceaccounts and system:serviceaccounts:<ns>', async () => {
    const { authz } = await authorizerWith({
      clusterRoles: [
        ['read-ns', [rule('get', '', 'namespaces')]],
        ['read-cm', [rule('list', '', 'configmaps')]],
        ['read-pods', [rule('list', '', 'pods')]],
      ],
      clusterRoleBindings: [
        ['a', 'read-ns', [G('system:authenticated')]],
        ['b', 'read-cm', [G('system:serviceaccounts')]],
      ],
      roleBindings: [['c', 'ns1', 'ClusterRole:read-pods', [G('system:serviceaccounts:ns1')]]],
    });
    const sa = user(
      'system:serviceaccount:ns1:default',
      'system:serviceaccounts',
      'system:serviceaccounts:ns1',
      'system:authenticated',
    );
    const other = user(
      'system:serviceaccount:ns2:default',
      'system:serviceaccounts',
      'system:serviceaccounts:ns2',
      'system:authenticated',
    );
    expect(
      await decisions(authz, [
        res(user('jane', 'system:authenticated'), 'get', '', 'namespaces', '', 'x'),
        res(sa, 'list', '', 'configmaps', 'ns9'),
        res(sa, 'list', '', 'pods', 'ns1'),
        res(other, 'list', '', 'configmaps'),
      ]),
    ).toEqual(['allow', 'allow', 'allow', 'allow']);
    expect(
      await decisions(authz, [
        res(user('jane'), 'get', '', 'namespaces', '', 'x'),
        res(user('jane', 'system:authenticated'), 'list', '', 'configmaps', 'ns1'),
        res(other, 'list', '', 'pods', 'ns1'),
        res(sa, 'list', '', 'pods', 'ns2'),
      ]),
    ).toEqual(['noOpinion', 'noOpinion', 'noOpinion', 'noOpinion']);
  });

  it('ServiceAccount subjects: a RoleBinding subject without namespace means the binding namespace', async () => {
    const { authz } = await authorizerWith({
      roles: [['ns1', 'reader', [rule('get', '', 'pods')]]],
      clusterRoles: [['nodes', [rule('get', '', 'nodes')]]],
      roleBindings: [['r', 'ns1', 'Role:reader', [{ kind: 'ServiceAccount', name: 'default' }]]],
      // A cluster binding's ServiceAccount needs a namespace (appliesToUser: no namespace, no match).
      clusterRoleBindings: [
        ['n', 'nodes', [{ kind: 'ServiceAccount', name: 'default' }, SA('kube-system', 'node-reader')]],
      ],
    });
    expect(
      await decisions(authz, [
        res(user('system:serviceaccount:ns1:default'), 'get', '', 'pods', 'ns1', 'p'),
        res(user('system:serviceaccount:kube-system:node-reader'), 'get', '', 'nodes', '', 'n'),
      ]),
    ).toEqual(['allow', 'allow']);
    expect(
      await decisions(authz, [
        res(user('system:serviceaccount:ns2:default'), 'get', '', 'pods', 'ns1', 'p'),
        res(user('system:serviceaccount:ns1:default'), 'get', '', 'nodes', '', 'n'),
        res(user('default'), 'get', '', 'pods', 'ns1', 'p'),
      ]),
    ).toEqual(['noOpinion', 'noOpinion', 'noOpinion']);
  });

  it('resourceNames limit a rule to the named objects', async () => {
    const { authz } = await authorizerWith({
      clusterRoles: [['r', [rule('get,update', '', 'configmaps', '', 'allowed')]]],
      clusterRoleBindings: [['r', 'r', [U('foo')]]],
    });
    const foo = user('foo');
    expect(await decisions(authz, [res(foo, 'get', '', 'configmaps', 'ns', 'allowed')])).toEqual(['allow']);
    expect(
      await decisions(authz, [
        res(foo, 'get', '', 'configmaps', 'ns', 'other'),
        res(foo, 'list', '', 'configmaps', 'ns'),
      ]),
    ).toEqual(['noOpinion', 'noOpinion']);
  });

  it('reasons: the allowing binding, and resolution errors on a denial', async () => {
    const { authz } = await authorizerWith({
      clusterRoles: [['r', [rule('get', '', 'pods')]]],
      clusterRoleBindings: [['missing', 'gone', [U('foo')]]],
      roleBindings: [
        ['rb', 'ns1', 'ClusterRole:r', [SA('ns1', 'sa')]],
        ['rb2', 'ns1', 'Role:nope', [U('foo')]],
      ],
    });
    expect(await authz.authorize(res(user('system:serviceaccount:ns1:sa'), 'get', '', 'pods', 'ns1'))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "rb/ns1" of ClusterRole "r" to ServiceAccount "sa/ns1"',
    });
    expect(await authz.authorize(res(user('foo'), 'get', '', 'pods', 'ns1'))).toEqual({
      decision: 'noOpinion',
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "nope" not found]',
    });
    expect(await authz.authorize(res(user('bar'), 'get', '', 'pods', 'ns1'))).toEqual({
      decision: 'noOpinion',
      reason: '',
    });
  });

  it('system:masters is allowed everything without a binding', async () => {
    const { authz } = await authorizerWith({});
    expect(
      await authz.authorize(res(user('root', 'system:masters'), 'delete', 'apps', 'deployments', 'x', 'y')),
    ).toEqual({
      decision: 'allow',
      reason: '',
    });
  });

  it('follows changes: a binding created, then deleted', async () => {
    const { authz, storage } = await authorizerWith({ clusterRoles: [['r', [rule('list', '', 'pods')]]] });
    const a = res(user('late'), 'list', '', 'pods', 'ns1');
    expect((await authz.authorize(a)).decision).toBe('noOpinion');
    await storage.create(
      '/registry/rolebindings/ns1/late',
      enc.encode(
        JSON.stringify({
          metadata: { name: 'late', namespace: 'ns1' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
          subjects: [U('late')],
        }),
      ),
    );
    await authz.synced();
    expect((await authz.authorize(a)).decision).toBe('allow');
    await storage.delete('/registry/rolebindings/ns1/late');
    await authz.synced();
    expect((await authz.authorize(a)).decision).toBe('noOpinion');
  });

  it('rulesFor lists cluster-wide and namespace rules, split as SelfSubjectRulesReview reports them', async () => {
    const { authz } = await authorizerWith({
      clusterRoles: [
        ['d', [rule('get', '', '', '/healthz,/api/*')]],
        ['r', [rule('get,list', '', 'pods')]],
      ],
      clusterRoleBindings: [['d', 'd', [G('system:authenticated')]]],
      roleBindings: [['rb', 'ns1', 'ClusterRole:r', [U('jane')]]],
    });
    const jane = user('jane', 'system:authenticated');
    expect(await authz.rulesFor(jane, 'ns1')).toEqual({
      resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }],
      incomplete: false,
      evaluationError: '',
    });
    expect((await authz.rulesFor(jane, 'ns2')).resourceRules).toEqual([]);
  });
});

describe('appliesTo (rule_test.go)', () => {
  const cases: [string, Subject[], UserInfo, string, number][] = [
    ['single subject that matches username', [U('foobar')], user('foobar'), '', 0],
    ['multiple subjects, one that matches username', [U('barfoo'), U('foobar')], user('foobar'), '', 1],
    ['multiple subjects, none that match username', [U('barfoo'), U('foobar')], user('zimzam'), '', -1],
    ['multiple subjects, one that match group', [U('barfoo'), G('foobar')], user('zimzam', 'foobar'), '', 1],
    [
      'multiple subjects, one that match group, should ignore namespace',
      [U('barfoo'), G('foobar')],
      user('zimzam', 'foobar'),
      'namespace1',
      1,
    ],
    [
      'multiple subjects, one that match group, one that match service acount',
      [U('barfoo'), G('foobar'), SA('kube-system', 'default')],
      user('system:serviceaccount:kube-system:default'),
      'default',
      2,
    ],
    [
      'service account with no namespace in a namespace',
      [{ kind: 'ServiceAccount', name: 'default' }],
      user('system:serviceaccount:default:default'),
      'default',
      0,
    ],
    [
      'service account with no namespace, cluster scope',
      [{ kind: 'ServiceAccount', name: 'default' }],
      user('system:serviceaccount:default:default'),
      '',
      -1,
    ],
  ];
  it.each(cases)('%s', (_name, subjects, u, ns, want) => {
    expect(appliesTo(u, subjects, ns)).toBe(want);
  });
});

describe('ruleAllows (rbac_test.go TestRuleMatches)', () => {
  const u = user('u');
  const cases: [string, PolicyRule, Attributes, boolean][] = [
    ['star verb, exact match other', rule('*', 'group1', 'resource1'), res(u, 'get', 'group1', 'resource1'), true],
    [
      'star verb, exact match other, wrong group',
      rule('*', 'group1', 'resource1'),
      res(u, 'get', 'group2', 'resource1'),
      false,
    ],
    ['star group, exact match other', rule('verb1', '*', 'resource1'), res(u, 'verb1', 'group2', 'resource1'), true],
    ['star resource, exact match other', rule('verb1', 'group1', '*'), res(u, 'verb1', 'group1', 'resource2'), true],
    [
      'tuple match',
      rule('verb1,verb2', 'group1,group2', 'resource1,resource2'),
      res(u, 'verb2', 'group2', 'resource1'),
      true,
    ],
    [
      'subresource expansion: star subresource',
      rule('*', '*', '*/subresource'),
      res(u, 'get', 'group', 'resource', '', '', 'subresource'),
      true,
    ],
    [
      'subresource expansion: exact match',
      rule('*', '*', 'resource/subresource'),
      res(u, 'get', 'group', 'resource', '', '', 'subresource'),
      true,
    ],
    [
      'subresource expansion: no match on the resource',
      rule('*', '*', 'resource/subresource'),
      res(u, 'get', 'group', 'resource'),
      false,
    ],
    [
      'subresource expansion: other subresource',
      rule('*', '*', '*/other'),
      res(u, 'get', 'group', 'resource', '', '', 'subresource'),
      false,
    ],
    ['resourceNames, no name', rule('*', '*', '*', '', 'foo'), res(u, 'get', 'group', 'resource'), false],
    [
      'resourceNames, matching name',
      rule('*', '*', '*', '', 'foo,bar'),
      res(u, 'get', 'group', 'resource', '', 'bar'),
      true,
    ],
    ['non-resource url, trailing star on longer path', rule('get', '', '', '/foo*'), url(u, 'get', '/foobar'), true],
    ['non-resource url, not a resource request', rule('*', '*', '*'), url(u, 'get', '/foo'), false],
  ];
  it.each(cases)('%s', (_name, r, a, want) => {
    expect(ruleAllows(a, r)).toBe(want);
  });
});

describe('attributesFor (requestinfo.go)', () => {
  const jane = user('jane');
  const at = (method: string, path: string) => {
    const a = attributesFor(jane, method, new URL(`https://x${path}`));
    return [a.verb, a.resourceRequest, a.apiGroup, a.namespace, a.resource, a.subresource, a.name];
  };
  it.each([
    ['GET', '/api/v1/namespaces/default/pods', ['list', true, '', 'default', 'pods', '', '']],
    ['GET', '/api/v1/namespaces/default/pods?watch=true', ['watch', true, '', 'default', 'pods', '', '']],
    ['GET', '/api/v1/watch/namespaces/default/pods', ['watch', true, '', 'default', 'pods', '', '']],
    ['GET', '/api/v1/namespaces/default/pods/p1', ['get', true, '', 'default', 'pods', '', 'p1']],
    ['HEAD', '/api/v1/namespaces/default/pods/p1', ['get', true, '', 'default', 'pods', '', 'p1']],
    ['POST', '/api/v1/namespaces/default/pods', ['create', true, '', 'default', 'pods', '', '']],
    [
      'PUT',
      '/apis/apps/v1/namespaces/ns/deployments/d/scale',
      ['update', true, 'apps', 'ns', 'deployments', 'scale', 'd'],
    ],
    ['PATCH', '/api/v1/nodes/n1/status', ['patch', true, '', '', 'nodes', 'status', 'n1']],
    ['DELETE', '/api/v1/namespaces/default/pods', ['deletecollection', true, '', 'default', 'pods', '', '']],
    ['DELETE', '/api/v1/namespaces/default/pods/p', ['delete', true, '', 'default', 'pods', '', 'p']],
    ['GET', '/api/v1/namespaces/default', ['get', true, '', 'default', 'namespaces', '', 'default']],
    ['PUT', '/api/v1/namespaces/ns/finalize', ['update', true, '', 'ns', 'namespaces', 'finalize', 'ns']],
    ['GET', '/api/v1/namespaces', ['list', true, '', '', 'namespaces', '', '']],
    ['GET', '/api/v1/pods', ['list', true, '', '', 'pods', '', '']],
    ['GET', '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dp1', ['list', true, '', 'ns', 'pods', '', 'p1']],
    ['GET', '/api', ['get', false, '', '', '', '', '']],
    ['GET', '/apis/apps/v1', ['get', false, '', '', '', '', '']],
    ['POST', '/healthz', ['post', false, '', '', '', '', '']],
  ] as [string, string, unknown[]][])('%s %s', (method, path, want) => {
    expect(at(method, path)).toEqual(want);
  });
});
