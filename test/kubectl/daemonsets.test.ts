/**
 * kubernetes.io's "DaemonSet" page (concepts/workloads/controllers/daemonset), its
 * fluentd-elasticsearch example run as written with the real kubectl v1.32 against `kubewasm up`
 * on three Node objects the test makes: a control-plane node tainted NoSchedule (which the example
 * tolerates), a worker, and a node with a taint it does not tolerate. One pod on each of the first
 * two, pinned by the node affinity the controller sets and bound by the scheduler; rollout status;
 * `kubectl set image` rolling one node at a time (maxUnavailable 1); rollout history and undo
 * through the ControllerRevisions. No kubelet runs: the test plays its part — pods marked Running
 * and Ready, pods being deleted finished (test/testing/workloads.ts and `kubelet()` below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';
import { markPodsReady } from '../testing/workloads.js';

const cluster = new UpCluster();
const NS = 'kube-system';
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

// content/en/examples/controllers/daemonset.yaml of kubernetes/website.
const DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd-elasticsearch
  namespace: kube-system
  labels:
    k8s-app: fluentd-logging
spec:
  selector:
    matchLabels:
      name: fluentd-elasticsearch
  template:
    metadata:
      labels:
        name: fluentd-elasticsearch
    spec:
      tolerations:
      # these tolerations are to have the daemonset runnable on control plane nodes
      # remove them if your control plane nodes should not run pods
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      - key: node-role.kubernetes.io/master
        operator: Exists
        effect: NoSchedule
      containers:
      - name: fluentd-elasticsearch
        image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
        resources:
          limits:
            memory: 200Mi
          requests:
            cpu: 100m
            memory: 200Mi
        volumeMounts:
        - name: varlog
          mountPath: /var/log
      # it may be desirable to set a high priority class to ensure that a DaemonSet Pod
      # preempts running Pods
      # priorityClassName: important
      terminationGracePeriodSeconds: 30
      volumes:
      - name: varlog
        hostPath:
          path: /var/log
`;

const node = (name: string, taint?: string) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels:
    kubernetes.io/hostname: ${name}
spec:${taint === undefined ? ' {}' : `\n  taints:\n  - ${taint}`}
status:
  capacity: {cpu: "4", memory: 32Gi, pods: "110"}
  allocatable: {cpu: "4", memory: 32Gi, pods: "110"}
  conditions:
  - {type: Ready, status: "True", reason: KubeletReady}
`;

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string; labels?: Record<string, string> };
  spec: { nodeName?: string; containers: Array<{ image: string }> };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

const pods = async (): Promise<PodItem[]> => {
  const res = await cluster.https(
    'GET',
    `/api/v1/namespaces/${NS}/pods?labelSelector=name%3Dfluentd-elasticsearch`,
    undefined,
    cluster.auth(),
  );
  return (JSON.parse(res.text) as { items: PodItem[] }).items;
};

/** The kubelet's part: pods made Ready, pods being deleted finished (deleted with no grace left). */
function kubelet(): { stop(): Promise<void>; pause(p: boolean): Promise<void> } {
  let busy = false;
  let stopped = false;
  let paused = false;
  const loop = (async () => {
    while (!stopped) {
      busy = !paused;
      if (!paused) {
        await markPodsReady(cluster, NS).catch(() => 0);
        for (const pod of await pods().catch(() => [])) {
          if (pod.metadata.deletionTimestamp === undefined) continue;
          await cluster
            .https(
              'DELETE',
              `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}?gracePeriodSeconds=0`,
              undefined,
              cluster.auth(),
            )
            .catch(() => undefined);
        }
      }
      busy = false;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    // Resolves once no pass is in the middle of its writes.
    pause: async (p) => {
      paused = p;
      while (p && busy) await new Promise((r) => setTimeout(r, 20));
    },
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

describe.skipIf(!hasKubectl)('the DaemonSet page with kubectl', () => {
  let k: ReturnType<typeof kubelet> | undefined;
  beforeAll(async () => {
    await cluster.start();
    for (const manifest of [
      node('control-plane', '{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}'),
      node('worker-1'),
      node('gpu-1', '{key: dedicated, value: gpu, effect: NoSchedule}'),
    ]) {
      const res = cluster.kubectlWithInput(manifest, 'create', '-f', '-');
      expect(res.status).toBe(0);
    }
    k = kubelet();
  }, 60_000);
  afterAll(async () => {
    await k?.stop();
    await cluster.dispose();
  });

  it('runs a fluentd pod on every node it tolerates, bound by the scheduler', async () => {
    const applied = cluster.kubectlWithInput(DAEMONSET, 'apply', '-f', '-');
    expect(applied.stdout).toBe('daemonset.apps/fluentd-elasticsearch created\n');
    const status = await cluster.kubectlAsync(
      'rollout',
      'status',
      'ds/fluentd-elasticsearch',
      '-n',
      NS,
      '--timeout=30s',
    );
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/daemon set "fluentd-elasticsearch" successfully rolled out\n$/);
    expect(ok('get', 'ds', '-n', NS)).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\nfluentd-elasticsearch\s+2\s+2\s+2\s+2\s+2\s+<none>\s+\d+s\n$/,
    );
    const placed = (await pods()).map((p) => p.spec.nodeName).sort();
    expect(placed).toEqual(['control-plane', 'worker-1']);
    // The controller names the node through a required node affinity; the scheduler bound it.
    const affinity = ok(
      'get',
      'pods',
      '-n',
      NS,
      '-l',
      'name=fluentd-elasticsearch',
      '-o',
      'jsonpath={range .items[*]}{.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key}={.spec.nodeName}{"\\n"}{end}',
    );
    expect(affinity.trim().split('\n').sort()).toEqual(['metadata.name=control-plane', 'metadata.name=worker-1']);
    // The daemon tolerations were added to the pods, without tolerationSeconds.
    const tolerations = ok(
      'get',
      'pods',
      '-n',
      NS,
      '-l',
      'name=fluentd-elasticsearch',
      '-o',
      'jsonpath={.items[0].spec.tolerations[*].key}',
    );
    expect(tolerations.split(' ')).toEqual(
      expect.arrayContaining([
        'node-role.kubernetes.io/control-plane',
        'node.kubernetes.io/not-ready',
        'node.kubernetes.io/unreachable',
        'node.kubernetes.io/disk-pressure',
        'node.kubernetes.io/memory-pressure',
        'node.kubernetes.io/pid-pressure',
        'node.kubernetes.io/unschedulable',
      ]),
    );
    // One ControllerRevision, its hash on the pods.
    const revisions = ok(
      'get',
      'controllerrevisions',
      '-n',
      NS,
      '-o',
      'jsonpath={range .items[*]}{.metadata.name} {.revision}{"\\n"}{end}',
    );
    expect(revisions).toMatch(/^fluentd-elasticsearch-[bcdfghjklmnpqrstvwxz2456789]+ 1\n$/);
    const hash = revisions.split(' ')[0]?.slice('fluentd-elasticsearch-'.length) ?? '';
    // printControllerRevision's columns.
    expect(ok('get', 'controllerrevisions', '-n', NS)).toMatch(
      new RegExp(
        `^NAME\\s+CONTROLLER\\s+REVISION\\s+AGE\\nfluentd-elasticsearch-${hash}\\s+daemonset\\.apps/fluentd-elasticsearch\\s+1\\s+\\d+s\\n$`,
      ),
    );
    for (const pod of await pods()) expect(pod.metadata.labels?.['controller-revision-hash']).toBe(hash);
  }, 60_000);

  it('rolls a new image out one node at a time, keeps the history, and rolls back', async () => {
    // Without the kubelet, the first old pod deleted stays terminating: only one node is down.
    await k?.pause(true);
    expect(
      ok(
        'set',
        'image',
        'ds/fluentd-elasticsearch',
        '-n',
        NS,
        'fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0',
      ),
    ).toBe('daemonset.apps/fluentd-elasticsearch image updated\n');
    let terminating = 0;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      terminating = (await pods()).filter((p) => p.metadata.deletionTimestamp !== undefined).length;
      if (terminating > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(terminating).toBe(1);
    await new Promise((r) => setTimeout(r, 1000));
    const during = await pods();
    expect(during.filter((p) => p.metadata.deletionTimestamp !== undefined)).toHaveLength(1);
    expect(during.filter((p) => p.metadata.deletionTimestamp === undefined)).toHaveLength(1);
    await k?.pause(false);

    const status = await cluster.kubectlAsync(
      'rollout',
      'status',
      'ds/fluentd-elasticsearch',
      '-n',
      NS,
      '--timeout=30s',
    );
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(/daemon set "fluentd-elasticsearch" successfully rolled out\n$/);
    const settled = async (image: string) => {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const all = await pods();
        if (all.length === 2 && all.every((p) => p.spec.containers[0]?.image === image)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const images = async () =>
      (await pods()).filter((p) => p.metadata.deletionTimestamp === undefined).map((p) => p.spec.containers[0]?.image);
    await settled('quay.io/fluentd_elasticsearch/fluentd:v2.6.0');
    expect(await images()).toEqual([
      'quay.io/fluentd_elasticsearch/fluentd:v2.6.0',
      'quay.io/fluentd_elasticsearch/fluentd:v2.6.0',
    ]);

    expect(ok('rollout', 'history', 'ds/fluentd-elasticsearch', '-n', NS)).toBe(
      'daemonset.apps/fluentd-elasticsearch \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n',
    );
    expect(ok('rollout', 'history', 'ds/fluentd-elasticsearch', '-n', NS, '--revision=1')).toContain(
      'Image:\tquay.io/fluentd_elasticsearch/fluentd:v2.5.2',
    );

    expect(ok('rollout', 'undo', 'ds/fluentd-elasticsearch', '-n', NS)).toBe(
      'daemonset.apps/fluentd-elasticsearch rolled back\n',
    );
    const undone = await cluster.kubectlAsync(
      'rollout',
      'status',
      'ds/fluentd-elasticsearch',
      '-n',
      NS,
      '--timeout=30s',
    );
    expect(undone.stdout).toMatch(/daemon set "fluentd-elasticsearch" successfully rolled out\n$/);
    await settled('quay.io/fluentd_elasticsearch/fluentd:v2.5.2');
    expect(await images()).toEqual([
      'quay.io/fluentd_elasticsearch/fluentd:v2.5.2',
      'quay.io/fluentd_elasticsearch/fluentd:v2.5.2',
    ]);
    // Revision 1's template is current again: it becomes revision 3.
    expect(ok('rollout', 'history', 'ds/fluentd-elasticsearch', '-n', NS)).toBe(
      'daemonset.apps/fluentd-elasticsearch \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n',
    );
  }, 90_000);
});
