/**
 * ResourceQuota with the real kubectl (v1.32) against `kubewasm up`: `kubectl create quota`, the
 * quota controller filling status.hard/used, `kubectl describe quota` showing Used/Hard, creates
 * refused by admission with kube-apiserver's exact Forbidden text, and usage released by a delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';

const cluster = new UpCluster(['--resource-quota-sync-period', '30s']);
const kubectl = (...args: string[]) => cluster.kubectl(...args);

/** Polls `kubectl get quota -o jsonpath` until it prints `want`. */
async function waitForJsonPath(name: string, path: string, want: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const res = kubectl('get', 'quota', name, '-n', 'quota', '-o', `jsonpath=${path}`);
    if (res.stdout === want) return;
    if (Date.now() > until) throw new Error(`${path} is ${JSON.stringify(res.stdout)}, not ${want}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasKubectl)('kubectl and ResourceQuota', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);
  afterAll(async () => {
    await cluster.dispose();
  });

  it('create quota, describe it, refused creates, replenishment after a delete', async () => {
    expect(kubectl('create', 'namespace', 'quota').status).toBe(0);
    // The root-ca-cert-publisher's ConfigMap counts too; let it be there first.
    for (let i = 0; kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'quota').status !== 0; i++) {
      if (i > 100) throw new Error('no kube-root-ca.crt in namespace quota');
      await new Promise((r) => setTimeout(r, 100));
    }
    // kubectl's typed create sends the quota as protobuf.
    const created = kubectl('create', 'quota', 'counts', '--hard=pods=2,count/configmaps=2', '-n', 'quota');
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('resourcequota/counts created\n');
    // The controller syncs status.hard and status.used.
    await waitForJsonPath('counts', '{.status.used.pods}', '0');

    expect(kubectl('create', 'configmap', 'a', '--from-literal=k=v', '-n', 'quota').status).toBe(0);
    const cm = kubectl('create', 'configmap', 'b', '--from-literal=k=v', '-n', 'quota');
    expect(cm.status).toBe(1);
    expect(cm.stderr).toBe(
      'error: failed to create configmap: configmaps "b" is forbidden: exceeded quota: counts, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2\n',
    );

    expect(kubectl('run', 'p1', '--image=nginx', '-n', 'quota').status).toBe(0);
    expect(kubectl('run', 'p2', '--image=nginx', '-n', 'quota').status).toBe(0);
    const p3 = kubectl('run', 'p3', '--image=nginx', '-n', 'quota');
    expect(p3.status).toBe(1);
    expect(p3.stderr).toBe(
      'Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: counts, requested: pods=1, used: pods=2, limited: pods=2\n',
    );
    expect(kubectl('get', 'pod', 'p3', '-n', 'quota').status).toBe(1);

    const described = kubectl('describe', 'quota', 'counts', '-n', 'quota');
    expect(described.status).toBe(0);
    expect(described.stdout).toMatch(/^Name:\s+counts$/m);
    expect(described.stdout).toMatch(/^Namespace:\s+quota$/m);
    expect(described.stdout).toMatch(
      /^Resource\s+Used\s+Hard\n-+\s+-+\s+-+\ncount\/configmaps\s+2\s+2\npods\s+2\s+2$/m,
    );

    // A delete releases the usage (the controller's replenishment).
    expect(kubectl('delete', 'pod', 'p1', '-n', 'quota', '--wait=false').status).toBe(0);
    await waitForJsonPath('counts', '{.status.used.pods}', '1');
    expect(kubectl('describe', 'quota', 'counts', '-n', 'quota').stdout).toMatch(/^pods\s+1\s+2$/m);
    expect(kubectl('run', 'p4', '--image=nginx', '-n', 'quota').status).toBe(0);

    const table = kubectl('get', 'quota', '-n', 'quota');
    expect(table.stdout).toMatch(
      /^NAME\s+REQUEST\s+LIMIT\s+AGE\ncounts\s+count\/configmaps: 2\/2, pods: 2\/2\s+\S+\n$/,
    );
  });
});
