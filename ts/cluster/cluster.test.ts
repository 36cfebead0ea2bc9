import { afterEach, describe, expect, it } from 'vitest';
import { rfc3339, rfc3339Micro } from '../api/time.js';
import type { ReplicaSet } from '../api/types/apps/v1.js';
import type { Pod } from '../api/types/core/v1.js';
import { RESOURCES } from '../client/resources.js';
import { VirtualClock } from '../sim/clock.js';
import { type LogLine, recordingLogger } from '../sim/logger.js';
import type { Storage } from '../storage/storage.js';
import { WasmStorage } from '../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../wasm/node.js';
import { type Cluster, type ClusterOptions, createCluster } from './cluster.js';

let running: Cluster | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** The storage, with every watch it opens counted by key prefix. */
function countingWatches(storage: Storage): { storage: Storage; watches: Map<string, number> } {
  const watches = new Map<string, number>();
  const counted = new Proxy(storage, {
    get(target, prop) {
      if (prop === 'watch') {
        return (key: string, options: Parameters<Storage['watch']>[1]) => {
          watches.set(key, (watches.get(key) ?? 0) + 1);
          return target.watch(key, options);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { storage: counted, watches };
}

/** Node n1 with room, and pod default/web for the scheduler to bind to it. */
async function createNodeAndPod(cluster: Cluster): Promise<void> {
  await cluster.client.create(RESOURCES.nodes, undefined, {
    metadata: { name: 'n1' },
    status: {
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
    },
  });
  await cluster.client.create(RESOURCES.pods, 'default', {
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
}

/** default/web's spec.nodeName once the scheduler has bound it (undefined after 2 s). */
async function boundNode(cluster: Cluster): Promise<string | undefined> {
  let node: string | undefined;
  for (let i = 0; i < 200 && node === undefined; i++) {
    await new Promise((r) => setTimeout(r, 10));
    node = (await cluster.client.get<Pod>(RESOURCES.pods, 'default', 'web')).spec?.nodeName;
  }
  return node;
}

/** A ReplicaSet of `replicas` nginx pods labelled app=<name>. */
function replicaSet(name: string, replicas: number): ReplicaSet {
  const labels = { app: name };
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

/** Polls `check` every 10 ms (real time) until it holds; fails after 5 s. */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not met in 5 s');
}

async function start(options: Partial<ClusterOptions> = {}) {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const { storage, watches } = countingWatches(new WasmStorage({ store: kubewasm.newStore(), clock }));
  const lines: LogLine[] = [];
  running = await createCluster({ kubewasm, storage, clock, logger: recordingLogger(lines), ...options });
  return { cluster: running, watches, lines, clock };
}

describe('createCluster', () => {
  it('comes up as kube-apiserver does: system namespaces, priority classes, RBAC policy, the kubernetes Service', async () => {
    const { cluster, lines } = await start();
    const namespaces = await cluster.client.list(RESOURCES.namespaces);
    expect(namespaces.items.map((n) => n.metadata?.name).sort()).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
    const classes = await cluster.client.list(RESOURCES.priorityclasses);
    expect(classes.items.map((c) => c.metadata?.name).sort()).toEqual([
      'system-cluster-critical',
      'system-node-critical',
    ]);
    const admin = await cluster.client.get(RESOURCES.clusterroles, undefined, 'cluster-admin');
    expect(admin.metadata?.name).toBe('cluster-admin');
    const service = await cluster.client.get(RESOURCES.services, 'default', 'kubernetes');
    expect((service as { spec?: { clusterIP?: string } }).spec?.clusterIP).toBe('10.96.0.1');
    expect(cluster.controllers).toContain('namespace-controller');
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('schedules a pod onto a node through its scheduler', async () => {
    const { cluster } = await start();
    await createNodeAndPod(cluster);
    expect(await boundNode(cluster)).toBe('n1');
  });

  it('runs only the controllers --controllers enables', async () => {
    const { cluster, watches } = await start({
      controllerManager: {
        controllers: [
          '*',
          '-garbage-collector-controller',
          '-resourcequota-controller',
          '-disruption-controller',
          '-deployment-controller',
        ],
      },
    });
    expect(cluster.controllers).not.toContain('garbage-collector-controller');
    // Without the garbage collector, the quota, the disruption and the deployment controllers nobody
    // watches deployments.
    expect(watches.has('/registry/deployments/')).toBe(false);
    await cluster.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'team-a' } });
    let account: string | undefined;
    for (let i = 0; i < 200 && account === undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      account = await cluster.client
        .get(RESOURCES.serviceaccounts, 'team-a', 'default')
        .then((sa) => sa.metadata?.name)
        .catch(() => undefined);
    }
    // The serviceaccount controller ran: team-a has its default ServiceAccount.
    expect(account).toBe('default');
  });

  it('opens one watch per resource, however many components read it', async () => {
    // `kubewasm up`'s admission: kube-apiserver's default-enabled plugins.
    const { cluster, watches, lines } = await start({ apiserver: { admission: {} } });
    // Every reader at work: the scheduler (a node, a pod to bind), admission (the pod create looks
    // up its namespace, ServiceAccount, LimitRanges, PriorityClasses and quotas), RBAC (the
    // scheduler's and the controllers' own requests) and the CRD registry (a path no built-in serves).
    await createNodeAndPod(cluster);
    await expect(
      cluster.client.list({ group: 'stable.example.com', version: 'v1', resource: 'crontabs' }),
    ).rejects.toMatchObject({ code: 404 });
    expect(await boundNode(cluster)).toBe('n1');
    const needed = [
      // kube-scheduler
      '/registry/pods/',
      '/registry/nodes/',
      // kube-apiserver: admission, RBAC, CRDs
      '/registry/namespaces/',
      '/registry/serviceaccounts/',
      '/registry/limitranges/',
      '/registry/priorityclasses/',
      '/registry/resourcequotas/',
      '/registry/roles/',
      '/registry/rolebindings/',
      '/registry/clusterroles/',
      '/registry/clusterrolebindings/',
      '/registry/customresourcedefinitions/',
      // kube-controller-manager (a few of its resources)
      '/registry/deployments/',
      '/registry/replicasets/',
      '/registry/configmaps/',
      '/registry/secrets/',
    ];
    expect(needed.filter((prefix) => !watches.has(prefix))).toEqual([]);
    expect([...watches].filter(([, count]) => count !== 1)).toEqual([]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('gives a ReplicaSet its pods, made as the replicaset-controller, and the scheduler binds them', async () => {
    const { cluster, lines } = await start();
    await createNodeAndPod(cluster);
    await cluster.client.create(RESOURCES.replicasets, 'default', replicaSet('rs', 3));
    const pods = async () => (await cluster.client.list(RESOURCES.pods, { namespace: 'default' })).items;
    await waitUntil(async () => (await pods()).filter((p) => p.spec?.nodeName === 'n1').length === 4);
    const made = (await pods()).filter((p) => p.metadata?.name !== 'web');
    expect(made.map((p) => p.metadata?.managedFields?.[0]?.manager)).toEqual(Array(3).fill('kube-controller-manager'));
    const rs = await cluster.client.get(RESOURCES.replicasets, 'default', 'rs');
    expect(rs.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('ends a ReplicaSet a quota refuses as ReplicaFailure and FailedCreate, with what fits made', async () => {
    const { cluster } = await start({ apiserver: { admission: {} } });
    await cluster.client.create(RESOURCES.resourcequotas, 'default', {
      metadata: { name: 'pods' },
      spec: { hard: { pods: '2' } },
    });
    await waitUntil(async () => {
      const quota = await cluster.client.get(RESOURCES.resourcequotas, 'default', 'pods');
      return quota.status?.hard?.pods === '2';
    });
    await cluster.client.create(RESOURCES.replicasets, 'default', replicaSet('big', 5));
    const failure = async () =>
      (await cluster.client.get(RESOURCES.replicasets, 'default', 'big')).status?.conditions?.find(
        (c) => c.type === 'ReplicaFailure',
      );
    await waitUntil(async () => (await failure()) !== undefined);
    expect(await failure()).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: expect.stringMatching(
        /^pods "big-[a-z0-9]{5}" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2$/,
      ),
    });
    expect((await cluster.client.list(RESOURCES.pods, { namespace: 'default' })).items).toHaveLength(2);
    await waitUntil(async () =>
      (await cluster.client.list(RESOURCES.events, { namespace: 'default' })).items.some(
        (e) => e.reason === 'FailedCreate' && e.type === 'Warning',
      ),
    );
  });

  it('taints a node whose lease stops being renewed, and evicts its pods after their tolerationSeconds', async () => {
    const { cluster, clock } = await start();
    // Two nodes with their kubelets' leases; n2's kubelet goes on renewing, n1's stops. (With one
    // node, the whole zone would be down: the controller then assumes its own network is at fault
    // and taints nothing NoExecute, as Kubernetes does.)
    for (const name of ['n1', 'n2']) {
      await cluster.client.create(RESOURCES.nodes, undefined, {
        metadata: { name },
        status: {
          allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
          capacity: { cpu: '4', memory: '8Gi', pods: '110' },
          conditions: [
            { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: rfc3339(clock.now()) },
          ],
        },
      });
      await cluster.client.create(RESOURCES.leases, 'kube-node-lease', {
        metadata: { name },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(clock.now()) },
      });
    }
    const renewN2 = async () => {
      const lease = await cluster.client.get(RESOURCES.leases, 'kube-node-lease', 'n2');
      await cluster.client.update(RESOURCES.leases, 'kube-node-lease', {
        ...lease,
        spec: { ...lease.spec, renewTime: rfc3339Micro(clock.now()) },
      });
    };
    const toleration = (key: string) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 });
    await cluster.client.create(RESOURCES.pods, 'default', {
      metadata: { name: 'short' },
      spec: {
        nodeName: 'n1',
        containers: [{ name: 'c', image: 'nginx' }],
        tolerations: [toleration('node.kubernetes.io/unreachable'), toleration('node.kubernetes.io/not-ready')],
      },
    });
    const taints = async () =>
      ((await cluster.client.get(RESOURCES.nodes, undefined, 'n1')).spec?.taints ?? []).map(
        (t) => `${t.key}:${t.effect}`,
      );
    /** Moves the virtual clock a second at a time (letting the controllers act between) until `check` holds. */
    const advanceUntil = async (check: () => Promise<boolean>, maxSeconds: number): Promise<number> => {
      for (let s = 0; s <= maxSeconds; s++) {
        if (await check()) return s;
        await renewN2();
        clock.advance(1000);
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`not within ${maxSeconds} s of virtual time`);
    };
    // Nothing renews the lease or the status: past the 50 s grace period the node is unreachable.
    const tainted = await advanceUntil(
      async () => (await taints()).includes('node.kubernetes.io/unreachable:NoExecute'),
      70,
    );
    expect(tainted).toBeGreaterThanOrEqual(50);
    expect(await taints()).toContain('node.kubernetes.io/unreachable:NoSchedule');
    const ready = (await cluster.client.get(RESOURCES.nodes, undefined, 'n1')).status?.conditions?.find(
      (c) => c.type === 'Ready',
    );
    expect([ready?.status, ready?.reason]).toEqual(['Unknown', 'NodeStatusUnknown']);
    expect((await cluster.client.get(RESOURCES.nodes, undefined, 'n2')).spec?.taints).toBeUndefined();
    // The pod tolerates the taint for 30 s, then the taint eviction controller deletes it.
    const gone = async () => {
      const pod = await cluster.client.get(RESOURCES.pods, 'default', 'short').catch(() => undefined);
      return pod === undefined || pod.metadata?.deletionTimestamp !== undefined;
    };
    expect(await gone()).toBe(false);
    const evicted = await advanceUntil(gone, 40);
    expect(evicted).toBeGreaterThanOrEqual(29);
  }, 30_000);

  it('stops every part, and a second cluster in the process is independent of the first', async () => {
    const first = await start();
    const kubewasm = await loadKubewasm();
    const second = await createCluster({ kubewasm, clock: new VirtualClock(0) });
    try {
      await first.cluster.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'only-first' } });
      await expect(second.client.get(RESOURCES.namespaces, undefined, 'only-first')).rejects.toMatchObject({
        code: 404,
      });
    } finally {
      await second.stop();
    }
    expect(second.scheduler?.state).toBe('stopped');
  });
});
