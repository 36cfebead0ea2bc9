import { afterEach, describe, expect, it } from 'vitest';
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

async function start(options: Partial<ClusterOptions> = {}) {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const { storage, watches } = countingWatches(new WasmStorage({ store: kubewasm.newStore(), clock }));
  const lines: LogLine[] = [];
  running = await createCluster({ kubewasm, storage, clock, logger: recordingLogger(lines), ...options });
  return { cluster: running, watches, lines };
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
      controllerManager: { controllers: ['*', '-garbage-collector-controller', '-resourcequota-controller'] },
    });
    expect(cluster.controllers).not.toContain('garbage-collector-controller');
    // Without the garbage collector and the quota controller nobody watches deployments.
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
