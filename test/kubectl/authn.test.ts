/**
 * Authentication beyond the admin token, with the real kubectl (v1.32) against `kubewasm up`:
 * `kubectl auth whoami` (SelfSubjectReview) for a token, a client certificate and a service
 * account token; impersonation with --as, --as-group, --as-uid and its refusals; and the
 * control plane's own identities — the scheduler as system:kube-scheduler, each controller as its
 * own ServiceAccount in kube-system — still binding pods, deleting namespaces, collecting garbage.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';

const tokenDir = mkdtempSync(join(tmpdir(), 'kubewasm-authn-tokens-'));
const tokenFile = join(tokenDir, 'tokens.csv');
writeFileSync(tokenFile, 'jane-token-0123456789,jane,jane-uid,"devs"\n');
const cluster = new UpCluster(['--token-auth-file', tokenFile]);
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const jane = (...args: string[]) => cluster.kubectl('--token=jane-token-0123456789', ...args);

function userInfo(out: string): Record<string, unknown> {
  return (JSON.parse(out) as { status: { userInfo: Record<string, unknown> } }).status.userInfo;
}

describe.skipIf(!hasKubectl)('kubectl authentication and impersonation', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);
  afterAll(async () => {
    await cluster.dispose();
    rmSync(tokenDir, { recursive: true, force: true });
  });

  it('auth whoami names the token’s user with system:authenticated', () => {
    const res = kubectl('auth', 'whoami');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(
      /^ATTRIBUTE +VALUE\nUsername +admin\nUID +\S+\nGroups +\[system:masters system:authenticated\]\n$/,
    );
    expect(userInfo(jane('auth', 'whoami', '-o', 'json').stdout)).toEqual({
      username: 'jane',
      uid: 'jane-uid',
      groups: ['devs', 'system:authenticated'],
    });
  });

  it('authenticates the kubeconfig’s client certificate (CN the user, O the groups)', () => {
    const info = userInfo(kubectl('--context', 'kubewasm-cert', 'auth', 'whoami', '-o', 'json').stdout);
    expect(info.username).toBe('kubernetes-admin');
    expect(info.groups).toEqual(['system:masters', 'system:authenticated']);
    expect((info.extra as Record<string, string[]>)['authentication.kubernetes.io/credential-id']?.[0]).toMatch(
      /^X509SHA256=[0-9a-f]{64}$/,
    );
    expect(kubectl('--context', 'kubewasm-cert', 'get', 'namespace', 'default', '-o', 'name').stdout).toBe(
      'namespace/default\n',
    );
  });

  it('authenticates a token of `kubectl create token`, limited to what RBAC grants its ServiceAccount', () => {
    expect(kubectl('create', 'serviceaccount', 'robot').status).toBe(0);
    const token = kubectl('create', 'token', 'robot').stdout.trim();
    const uid = kubectl('get', 'serviceaccount', 'robot', '-o', 'jsonpath={.metadata.uid}').stdout;
    const info = userInfo(kubectl(`--token=${token}`, 'auth', 'whoami', '-o', 'json').stdout);
    expect(info).toMatchObject({
      username: 'system:serviceaccount:default:robot',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect((info.extra as Record<string, string[]>)['authentication.kubernetes.io/credential-id']?.[0]).toMatch(
      /^JTI=/,
    );
    const denied = kubectl(`--token=${token}`, 'get', 'pods');
    expect(denied.stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
  });

  it('auth can-i answers yes and no for a ServiceAccount, with its token and with --as', async () => {
    expect(kubectl('create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps').status).toBe(0);
    expect(
      kubectl('create', 'rolebinding', 'robot-cm', '--role=cm-reader', '--serviceaccount=default:robot').status,
    ).toBe(0);
    const token = kubectl('create', 'token', 'robot').stdout.trim();
    const canI = (...args: string[]) => kubectl(`--token=${token}`, 'auth', 'can-i', ...args);
    await until(() => canI('list', 'configmaps').stdout === 'yes\n');
    expect(canI('list', 'configmaps')).toMatchObject({ status: 0, stdout: 'yes\n' });
    // kubectl prints "no" and exits 1 for a denial.
    expect(canI('delete', 'configmaps')).toMatchObject({ status: 1, stdout: 'no\n' });
    expect(canI('list', 'configmaps', '-n', 'kube-system')).toMatchObject({ status: 1, stdout: 'no\n' });
    const asRobot = (...args: string[]) =>
      kubectl('--as=system:serviceaccount:default:robot', 'auth', 'can-i', ...args);
    expect(asRobot('get', 'configmaps')).toMatchObject({ status: 0, stdout: 'yes\n' });
    expect(asRobot('create', 'pods')).toMatchObject({ status: 1, stdout: 'no\n' });
  });

  it('impersonates with --as, --as-group and --as-uid', () => {
    const info = userInfo(
      kubectl('--as=bob', '--as-group=team-a', '--as-group=team-b', '--as-uid=bob-1', 'auth', 'whoami', '-o', 'json')
        .stdout,
    );
    expect(info).toEqual({ username: 'bob', uid: 'bob-1', groups: ['team-a', 'team-b', 'system:authenticated'] });
    expect(
      userInfo(kubectl('--as=system:serviceaccount:default:robot', 'auth', 'whoami', '-o', 'json').stdout),
    ).toEqual({
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    // The impersonated user is the one authorized.
    expect(kubectl('--as=bob', 'get', 'pods').stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    expect(kubectl('--as=bob', '--as-group=system:masters', 'get', 'pods').status).toBe(0);
  });

  it('refuses impersonation the requester is not allowed, naming what it asked for', () => {
    expect(jane('--as=bob', 'get', 'pods').stderr).toBe(
      'Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope\n',
    );
    expect(
      kubectl(
        'create',
        'clusterrole',
        'impersonate-bob',
        '--verb=impersonate',
        '--resource=users',
        '--resource-name=bob',
      ).status,
    ).toBe(0);
    expect(
      kubectl('create', 'clusterrolebinding', 'jane-as-bob', '--clusterrole=impersonate-bob', '--user=jane').status,
    ).toBe(0);
    // bob may be impersonated now, but not with a group.
    expect(userInfo(jane('--as=bob', 'auth', 'whoami', '-o', 'json').stdout).username).toBe('bob');
    expect(jane('--as=bob', '--as-group=system:masters', 'get', 'pods').stderr).toBe(
      'Error from server (Forbidden): groups "system:masters" is forbidden: User "jane" cannot impersonate resource "groups" in API group "" at the cluster scope\n',
    );
  });

  it('runs the scheduler as system:kube-scheduler: pods are still bound', async () => {
    const node = `apiVersion: v1
kind: Node
metadata: {name: node-0, labels: {kubernetes.io/hostname: node-0}}
status:
  capacity: {cpu: "4", memory: 32Gi, pods: "110"}
  allocatable: {cpu: "4", memory: 32Gi, pods: "110"}
`;
    expect(cluster.kubectlWithInput(node, 'apply', '-f', '-').status).toBe(0);
    expect(kubectl('run', 'p1', '--image=registry.k8s.io/pause:3.10').status).toBe(0);
    await until(() => kubectl('get', 'pod', 'p1', '-o', 'jsonpath={.spec.nodeName}').stdout === 'node-0');
    // The Scheduled event was written by the scheduler's identity.
    await until(() => kubectl('get', 'events', '--field-selector', 'reason=Scheduled', '-o', 'name').stdout !== '');
  }, 30_000);

  it('runs each controller as its own ServiceAccount in kube-system: namespaces are deleted, garbage collected', async () => {
    const accounts = kubectl('get', 'serviceaccounts', '-n', 'kube-system', '-o', 'name').stdout;
    expect(accounts).toContain('serviceaccount/namespace-controller\n');
    expect(accounts).toContain('serviceaccount/generic-garbage-collector\n');
    expect(kubectl('create', 'namespace', 'doomed').status).toBe(0);
    expect(kubectl('create', 'configmap', 'c', '-n', 'doomed', '--from-literal=a=b').status).toBe(0);
    expect(kubectl('delete', 'namespace', 'doomed', '--wait=false').status).toBe(0);
    await until(() => kubectl('get', 'namespace', 'doomed').status !== 0);

    expect(kubectl('create', 'configmap', 'owner').status).toBe(0);
    const uid = kubectl('get', 'configmap', 'owner', '-o', 'jsonpath={.metadata.uid}').stdout;
    const dependent = `apiVersion: v1
kind: ConfigMap
metadata:
  name: dependent
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: ${uid}}
`;
    expect(cluster.kubectlWithInput(dependent, 'apply', '-f', '-').status).toBe(0);
    expect(kubectl('delete', 'configmap', 'owner').status).toBe(0);
    await until(() => kubectl('get', 'configmap', 'dependent').status !== 0);
  }, 40_000);
});
