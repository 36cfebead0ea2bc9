/**
 * The real kubectl (v1.32) against `kubewasm up --token-auth-file`: a user limited by a Role can
 * do what it allows and is refused the rest with kube-apiserver's Forbidden messages; the bootstrap
 * `view` ClusterRole bound in one namespace; an escalation attempt refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';

const tokenDir = mkdtempSync(join(tmpdir(), 'kubewasm-rbac-tokens-'));
const tokenFile = join(tokenDir, 'tokens.csv');
writeFileSync(tokenFile, 'jane-token-0123456789,jane,jane-uid,""\n');
const cluster = new UpCluster(['--token-auth-file', tokenFile]);
const admin = (...args: string[]) => cluster.kubectl(...args);
const jane = (...args: string[]) => cluster.kubectl('--token=jane-token-0123456789', ...args);

describe.skipIf(!hasKubectl)('kubectl with an RBAC-limited user', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);
  afterAll(async () => {
    await cluster.dispose();
    rmSync(tokenDir, { recursive: true, force: true });
  });

  it('the bootstrap cluster roles and bindings exist', () => {
    const roles = admin('get', 'clusterroles', '-o', 'name');
    expect(roles.status).toBe(0);
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:discovery',
      'system:basic-user',
      'system:node',
    ]) {
      expect(roles.stdout).toContain(`clusterrole.rbac.authorization.k8s.io/${name}\n`);
    }
    const label = admin('get', 'clusterrolebindings', '-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'name');
    expect(label.stdout).toContain('clusterrolebinding.rbac.authorization.k8s.io/cluster-admin\n');
  });

  it('allowed by a Role, denied elsewhere with the Forbidden message', () => {
    expect(admin('create', 'namespace', 'team-a').status).toBe(0);
    expect(
      admin('create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods', '-n', 'default').status,
    ).toBe(0);
    expect(
      admin('create', 'rolebinding', 'jane-reads', '--role=pod-reader', '--user=jane', '-n', 'default').status,
    ).toBe(0);

    const allowed = jane('get', 'pods', '-n', 'default');
    expect(allowed.status).toBe(0);
    expect(allowed.stderr).toContain('No resources found in default namespace.');

    const otherNs = jane('get', 'pods', '-n', 'team-a');
    expect(otherNs.status).toBe(1);
    expect(otherNs.stderr).toContain(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "team-a"',
    );
    const write = jane('create', 'configmap', 'c1', '--from-literal=a=b', '-n', 'default');
    expect(write.status).toBe(1);
    expect(write.stderr).toContain(
      'error: failed to create configmap: configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "default"',
    );
    const cluster = jane('get', 'nodes');
    expect(cluster.stderr).toContain(
      'Error from server (Forbidden): nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    expect(admin('get', 'configmap', 'c1', '-n', 'default').status).toBe(1);
  });

  it('a RoleBinding to the view ClusterRole grants reading in its namespace only', () => {
    expect(
      admin('create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane', '-n', 'team-a').status,
    ).toBe(0);
    expect(jane('get', 'deployments,pods,configmaps', '-n', 'team-a').status).toBe(0);
    const secrets = jane('get', 'secrets', '-n', 'team-a');
    expect(secrets.stderr).toContain(
      'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "team-a"',
    );
    expect(jane('get', 'deployments', '-n', 'kube-system').status).toBe(1);
  });

  it('creating a role with rules jane does not hold is refused', () => {
    expect(
      admin(
        'create',
        'role',
        'role-writer',
        '--verb=create',
        '--resource=roles.rbac.authorization.k8s.io',
        '-n',
        'default',
      ).status,
    ).toBe(0);
    expect(
      admin('create', 'rolebinding', 'jane-writes', '--role=role-writer', '--user=jane', '-n', 'default').status,
    ).toBe(0);
    const res = jane('create', 'role', 'escalator', '--verb=delete', '--resource=pods', '-n', 'default');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(
      'roles.rbac.authorization.k8s.io "escalator" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    );
    expect(jane('create', 'role', 'ok', '--verb=list', '--resource=pods', '-n', 'default').status).toBe(0);
    expect(admin('get', 'role', 'escalator', '-n', 'default').status).toBe(1);
  });
});
