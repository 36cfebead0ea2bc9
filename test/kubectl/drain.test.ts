/**
 * `kubectl drain` with the real kubectl v1.32 against `kubewasm up`: a ReplicaSet's pod on a node
 * (its status set Running and Ready by the test: there is no kubelet), a PodDisruptionBudget with
 * minAvailable 1 whose status the disruption controller keeps; drain cordons the node and its
 * eviction is refused with kubectl's retry line — "Cannot evict pod as it would violate the pod's
 * disruption budget." — until --timeout; once the budget allows one disruption the same drain
 * evicts the pod and the node is drained. cordon and uncordon set and clear spec.unschedulable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const ok = (...args: string[]): string => cluster.kubectlOk(...args);
const apply = (manifest: string) => {
  const res = cluster.kubectlWithInput(manifest, 'apply', '-f', '-');
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
};

const node = (name: string) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels:
    kubernetes.io/hostname: ${name}
status:
  capacity: {cpu: "4", memory: 32Gi, pods: "110"}
  allocatable: {cpu: "4", memory: 32Gi, pods: "110"}
`;

// The pods are placed on node-a by the template itself, so the scheduler has no say.
const replicaSet = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  namespace: default
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeName: node-a
      containers:
      - name: pause
        image: registry.k8s.io/pause:3.10
`;

const pdb = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
  namespace: default
spec:
  minAvailable: 1
  selector:
    matchLabels: {app: web}
`;

const jsonpath = (...args: string[]) => kubectl('get', ...args).stdout;

describe.skipIf(!hasKubectl)('kubectl drain against kubewasm up', () => {
  beforeAll(() => cluster.start(), 60_000);
  afterAll(() => cluster.dispose());

  let podName = '';

  it('cordons and uncordons a node', () => {
    apply(node('node-a'));
    apply(node('node-b'));
    expect(ok('cordon', 'node-b')).toBe('node/node-b cordoned\n');
    expect(jsonpath('node', 'node-b', '-o', 'jsonpath={.spec.unschedulable}')).toBe('true');
    expect(ok('cordon', 'node-b')).toBe('node/node-b already cordoned\n');
    expect(ok('uncordon', 'node-b')).toBe('node/node-b uncordoned\n');
    expect(jsonpath('node', 'node-b', '-o', 'jsonpath={.spec.unschedulable}')).toBe('');
  });

  it('keeps the budget: one ready pod of minAvailable 1 allows no disruption', async () => {
    apply(replicaSet);
    apply(pdb);
    await until(() => jsonpath('pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}') !== '');
    podName = jsonpath('pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}');
    ok(
      'patch',
      'pod',
      podName,
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}',
    );
    await until(
      () =>
        jsonpath(
          'pdb',
          'web',
          '-o',
          'jsonpath={.status.currentHealthy}/{.status.desiredHealthy}/{.status.expectedPods}/{.status.disruptionsAllowed}',
        ) === '1/1/1/0',
    );
    expect(jsonpath('pdb', 'web', '-o', 'jsonpath={.status.conditions[0].reason}')).toBe('InsufficientPods');
    expect(ok('get', 'pdb', 'web')).toMatch(
      /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nweb\s+1\s+N\/A\s+0\s+/,
    );
  }, 30_000);

  it('drain is refused while the budget forbids the eviction, retrying until --timeout', () => {
    const res = kubectl('drain', 'node-a', '--ignore-daemonsets', '--grace-period=0', '--timeout=8s');
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('node/node-a cordoned\n');
    expect(res.stderr).toContain(
      `error when evicting pods/"${podName}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`,
    );
    expect(res.stderr).toContain('global timeout reached: 8s');
    // Still there, and no disruption was taken.
    expect(jsonpath('pod', podName, '-o', 'jsonpath={.metadata.name}')).toBe(podName);
    expect(jsonpath('pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}')).toBe('0');
    expect(jsonpath('node', 'node-a', '-o', 'jsonpath={.spec.unschedulable}')).toBe('true');
  }, 30_000);

  it('drain evicts the pod once the budget allows a disruption', async () => {
    ok('patch', 'pdb', 'web', '--type=merge', '-p', '{"spec":{"minAvailable":0}}');
    await until(
      () =>
        jsonpath('pdb', 'web', '-o', 'jsonpath={.status.observedGeneration}/{.status.disruptionsAllowed}') === '2/1',
    );
    const res = kubectl('drain', 'node-a', '--ignore-daemonsets', '--grace-period=0', '--timeout=20s');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('node/node-a already cordoned\n');
    expect(res.stdout).toContain(`pod/${podName} evicted\n`);
    expect(res.stdout).toContain('node/node-a drained\n');
    expect(kubectl('get', 'pod', podName).stderr).toBe(`Error from server (NotFound): pods "${podName}" not found\n`);
    expect(ok('uncordon', 'node-a')).toBe('node/node-a uncordoned\n');
  }, 40_000);
});
