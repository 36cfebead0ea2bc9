/**
 * `kubewasm controller-manager --kubeconfig FILE` as its own process against `kubewasm up` over
 * HTTPS, with the kubeconfig `up` writes for it (DIR/controller-manager.conf, kubeadm's file): the
 * Deployment and ReplicaSet controllers, switched off in `up`, run in the second process and a
 * `kubectl create deployment` gets its ReplicaSet and pods from there — written as
 * kube-controller-manager, each controller as its own ServiceAccount; with leader election on it
 * stands by while `up`'s controller manager leads; bad flags and kubeconfigs are refused.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { registerNode } from '../testing/workloads.js';

const cluster = new UpCluster(['--controllers=*,-deployment-controller,-replicaset-controller']);
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

/** A `kubewasm controller-manager` child; `output` collects its stdout and stderr. */
function controllerManager(...args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['bin/kubewasm.mjs', 'controller-manager', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe.skipIf(!hasKubectl)('kubewasm controller-manager', () => {
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    await cluster.start();
    await registerNode(cluster, 'node-1');
  });
  afterAll(async () => {
    for (const child of children) await stop(child);
    await cluster.dispose();
  });

  it('runs controllers over HTTPS as kube-controller-manager, each as its ServiceAccount', async () => {
    const conf = join(cluster.dataDir, 'controller-manager.conf');
    const cm = controllerManager(
      '--kubeconfig',
      conf,
      '--leader-elect=false',
      '--controllers=deployment-controller,replicaset-controller',
    );
    children.push(cm.child);
    await until(() => cm.output().includes('2 controllers running'), 30_000);

    ok('create', 'deployment', 'web', '--image=nginx', '--replicas=2');
    await until(() => ok('get', 'pods', '-l', 'app=web', '-o', 'name').trim().split('\n').length === 2, 30_000);
    const rs = JSON.parse(ok('get', 'rs', '-l', 'app=web', '-o', 'json', '--show-managed-fields')) as {
      items: { metadata: { name: string; managedFields: { manager: string }[] }; spec: { replicas: number } }[];
    };
    expect(rs.items).toHaveLength(1);
    expect(rs.items[0]?.spec.replicas).toBe(2);
    expect(rs.items[0]?.metadata.managedFields.map((f) => f.manager)).toContain('kube-controller-manager');
    // The controllers' clients are their ServiceAccounts' (--use-service-account-credentials).
    const accounts = ok('get', 'serviceaccounts', '-n', 'kube-system', '-o', 'name');
    expect(accounts).toContain('serviceaccount/deployment-controller');
    expect(accounts).toContain('serviceaccount/replicaset-controller');
    const events = ok('get', 'events', '--field-selector', 'reason=SuccessfulCreate', '-o', 'name');
    // One per pod, from the ReplicaSet controller.
    expect(events.trim().split('\n').length).toBeGreaterThanOrEqual(2);
    expect(await stop(cm.child)).toBe(0);
  });

  it('stands by while the controller manager of `kubewasm up` holds the Lease', async () => {
    const cm = controllerManager('--kubeconfig', join(cluster.dataDir, 'controller-manager.conf'));
    children.push(cm.child);
    await until(() => cm.output().includes('standing by'), 30_000);
    const holder = ok(
      'get',
      'lease',
      '-n',
      'kube-system',
      'kube-controller-manager',
      '-o',
      'jsonpath={.spec.holderIdentity}',
    );
    expect(holder).toMatch(/^kubewasm_/);
    expect(await stop(cm.child)).toBe(0);
    // Its Lease untouched: the leader is the same.
    expect(
      ok('get', 'lease', '-n', 'kube-system', 'kube-controller-manager', '-o', 'jsonpath={.spec.holderIdentity}'),
    ).toBe(holder);
  });

  it('refuses a missing --kubeconfig, an unknown controller and a context the kubeconfig lacks', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/kubewasm.mjs', 'controller-manager', ...args], { encoding: 'utf8' });
    const none = run();
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('--kubeconfig is required');
    const conf = join(cluster.dataDir, 'controller-manager.conf');
    const unknown = run('--kubeconfig', conf, '--controllers=*,frobnicator');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('"frobnicator" is not in the list of known controllers');
    const context = run('--kubeconfig', conf, '--context', 'elsewhere');
    expect(context.status).toBe(2);
    expect(context.stderr).toContain('context "elsewhere" not found');
    const tokenless = join(cluster.root, 'tokenless.conf');
    writeFileSync(
      tokenless,
      'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: x\n  context:\n    cluster: c\ncurrent-context: x\n',
    );
    const noToken = run('--kubeconfig', tokenless);
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain("the kubeconfig's user has no token");
  });
});
