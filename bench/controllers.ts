/**
 * `kubewasm bench controllers [--quick]`: kube-controller-manager's workload path in one process —
 * the in-process cluster of ts/cluster (apiserver, shared informers, every default controller
 * under its own ServiceAccount, no scheduler, no kubelets) — measured as KWOK users measure a
 * real control plane:
 *
 * - `deployments`: N Deployments of 10 replicas created (100 creates in flight) → every
 *   ReplicaSet and Pod made and every Deployment Available. Rows: Deployments/s, pods created/s,
 *   process CPU per pod, peak RSS.
 * - `rollout`: one Deployment of R replicas, all Available, given a new image → the rollout
 *   complete (every replica updated and available, the old ReplicaSet at 0). Row: seconds.
 *
 * No kubelet runs pods, so a stub plays the kubelet's part: every pod it sees is patched Running
 * and Ready at once (one status PATCH each). Its requests run in the same process and are timed
 * apart: its rows say how many it made and how long they took, and they are part of the wall time
 * the main rows measure (so the rows are a lower bound on the controllers' speed).
 *
 * Anchor: KWOK users measure about 5 Deployments/s against the real kube-controller-manager
 * (kubernetes-sigs/kwok #1248: 50,000 Deployments in about 3 hours). Targets (issue #14):
 * ≥ 500 Deployments/s, the 10,000-replica rollout in ≤ 30 s.
 */
import type { KubeObject } from '../ts/api/meta.js';
import type { Deployment } from '../ts/api/types/apps/v1.js';
import type { Pod } from '../ts/api/types/core/v1.js';
import type { DeepReadonly } from '../ts/api/types/readonly.js';
import { RESOURCES } from '../ts/client/resources.js';
import { type Cluster, createCluster } from '../ts/cluster/cluster.js';
import { realClock } from '../ts/sim/clock.js';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { type BenchRow, progressBar, type Suite, type SuiteArgs } from './harness.js';

const SUITE = 'controllers';
const NS = 'default';
const REPLICAS = 10;
/** Creates in flight at once (a client with workers, as KWOK's scale tooling runs). */
const CREATE_CONCURRENCY = 100;
/** Status patches in flight at once from the ready stub. */
const STUB_CONCURRENCY = 100;
const DEADLINE_MS = 30 * 60_000;
// kubernetes-sigs/kwok #1248: 50,000 Deployments in about 3 hours with the real controller manager.
const KWOK_DEPLOYMENTS_PER_SECOND = 50_000 / (3 * 3600);
const TARGET_DEPLOYMENTS_PER_SECOND = 500;
const TARGET_ROLLOUT_SECONDS = 30;

function deployment(name: string, replicas: number, image = 'nginx:1.27'): Deployment {
  const labels = { app: name };
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } },
    },
  };
}

/**
 * The kubelet's part, stubbed: each pod the shared informer adds is patched Running and Ready,
 * at most STUB_CONCURRENCY at once; the patches are counted and timed.
 */
class ReadyStub {
  patches = 0;
  busyMs = 0;
  private readonly waiting: string[] = [];
  private inFlight = 0;
  private idle: Array<() => void> = [];

  constructor(private readonly cluster: Cluster) {
    cluster.informers.informerFor(RESOURCES.pods).addEventHandler({
      onAdd: (pod) => {
        if (!isReady(pod)) this.push(pod.metadata?.name ?? '');
      },
    });
  }

  private push(name: string): void {
    this.waiting.push(name);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < STUB_CONCURRENCY && this.waiting.length > 0) {
      const name = this.waiting.shift() as string;
      this.inFlight++;
      void this.ready(name).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.inFlight === 0 && this.waiting.length === 0) for (const f of this.idle.splice(0)) f();
      });
    }
  }

  private async ready(name: string): Promise<void> {
    const start = performance.now();
    const now = new Date(realClock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    try {
      await this.cluster.client.patch(
        RESOURCES.pods,
        NS,
        name,
        'merge',
        {
          status: {
            phase: 'Running',
            conditions: [
              { type: 'Ready', status: 'True', lastTransitionTime: now },
              { type: 'ContainersReady', status: 'True', lastTransitionTime: now },
            ],
          },
        },
        { subresource: 'status' },
      );
      this.patches++;
    } catch {
      // Deleted meanwhile (a rollout scales old pods down): nothing to mark.
    }
    this.busyMs += performance.now() - start;
  }
}

function isReady(pod: DeepReadonly<Pod>): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Available: the generation observed, every replica updated and available. */
function rolledOut(d: DeepReadonly<KubeObject>): boolean {
  const dep = d as DeepReadonly<Deployment>;
  const want = dep.spec?.replicas ?? 1;
  const s = dep.status;
  return (
    (s?.observedGeneration ?? 0) >= (dep.metadata?.generation ?? 0) &&
    (s?.updatedReplicas ?? 0) === want &&
    (s?.availableReplicas ?? 0) === want &&
    (s?.replicas ?? 0) === want
  );
}

/** Resolves once `done()` holds, checked on each Deployment event and every 100 ms. */
function until(cluster: Cluster, done: () => boolean, progress: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + DEADLINE_MS;
    const timer = setInterval(() => {
      progress();
      if (done()) finish();
      else if (performance.now() > deadline) {
        clearInterval(timer);
        reject(new Error('bench controllers: not done before the deadline'));
      }
    }, 100);
    const finish = () => {
      clearInterval(timer);
      resolve();
    };
  });
}

/** Peak RSS sampled every 250 ms while `work` runs. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRss: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 250);
  try {
    const result = await work();
    return { result, peakRss: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

async function startCluster(kubewasm: Kubewasm): Promise<{ cluster: Cluster; stub: ReadyStub }> {
  // Every controller kube-controller-manager runs by default; no scheduler (nothing binds pods).
  const cluster = await createCluster({ kubewasm, clock: realClock, scheduler: false });
  const stub = new ReadyStub(cluster);
  return { cluster, stub };
}

async function deploymentsCase(
  kubewasm: Kubewasm,
  count: number,
  progress: (what: string) => void,
): Promise<BenchRow[]> {
  const { cluster, stub } = await startCluster(kubewasm);
  try {
    const deployments = cluster.informers.informerFor(RESOURCES.deployments);
    const available = () => deployments.lister().list().filter(rolledOut).length;
    const cpu0 = process.cpuUsage();
    const { result: seconds, peakRss } = await withPeakRss(async () => {
      const start = performance.now();
      for (let i = 0; i < count; i += CREATE_CONCURRENCY) {
        const batch = Array.from({ length: Math.min(CREATE_CONCURRENCY, count - i) }, (_, j) =>
          cluster.client.create(RESOURCES.deployments, NS, deployment(`d-${i + j}`, REPLICAS)),
        );
        await Promise.all(batch);
        progress(`deployments: created ${progressBar(i + batch.length, count)}`);
      }
      await until(
        cluster,
        () => available() === count,
        () => progress(`deployments: available ${progressBar(available(), count)}`),
      );
      return (performance.now() - start) / 1000;
    });
    const cpu = process.cpuUsage(cpu0);
    const pods = count * REPLICAS;
    const row = (metric: string, value: number, unit: string, impl = 'kubewasm', note?: string): BenchRow => ({
      suite: SUITE,
      case: `deployments-${count}x${REPLICAS}`,
      impl,
      metric,
      value,
      unit,
      ...(note === undefined ? {} : { note }),
    });
    return [
      row('deployments/s', count / seconds, '1/s'),
      row('deployments/s', KWOK_DEPLOYMENTS_PER_SECOND, '1/s', 'kwok-anchor', 'kwok #1248: 50,000 in ~3 h'),
      row('deployments/s', TARGET_DEPLOYMENTS_PER_SECOND, '1/s', 'target', 'issue #14'),
      row('pods created/s', pods / seconds, '1/s'),
      row('seconds', seconds, 's'),
      row('cpu per pod', ((cpu.user + cpu.system) / 1000 / pods) * 1000, 'µs'),
      row('peak rss', peakRss / 2 ** 20, 'MiB'),
      row('stub patches', stub.patches, 'count', 'ready-stub', 'timed apart; part of the wall time'),
      row('stub busy', stub.busyMs / 1000, 's', 'ready-stub', 'sum of its requests’ latencies (100 in flight)'),
    ];
  } finally {
    await cluster.stop();
  }
}

async function rolloutCase(
  kubewasm: Kubewasm,
  replicas: number,
  progress: (what: string) => void,
): Promise<BenchRow[]> {
  const { cluster, stub } = await startCluster(kubewasm);
  try {
    const deployments = cluster.informers.informerFor(RESOURCES.deployments);
    const current = () => deployments.get(NS, 'big');
    const status = () => current()?.status;
    await cluster.client.create(RESOURCES.deployments, NS, deployment('big', replicas));
    await until(
      cluster,
      () => current() !== undefined && rolledOut(current() as DeepReadonly<Deployment>),
      () => progress(`rollout: first version ${progressBar(status()?.availableReplicas ?? 0, replicas)}`),
    );
    const patchesBefore = stub.patches;
    const start = performance.now();
    await cluster.client.patch(RESOURCES.deployments, NS, 'big', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } } },
    });
    const sets = cluster.informers.informerFor(RESOURCES.replicasets);
    const oldGone = () =>
      sets
        .lister()
        .byNamespace(NS)
        .list()
        .filter((rs) => (rs.spec?.template?.spec?.containers?.[0]?.image ?? '') === 'nginx:1.27')
        .every((rs) => (rs.status?.replicas ?? 0) === 0 && (rs.spec?.replicas ?? 0) === 0);
    await until(
      cluster,
      () => {
        const d = current();
        return d !== undefined && (d.metadata?.generation ?? 0) >= 2 && rolledOut(d) && oldGone();
      },
      () => progress(`rollout: new version ${progressBar(status()?.updatedReplicas ?? 0, replicas)}`),
    );
    const seconds = (performance.now() - start) / 1000;
    const row = (metric: string, value: number, unit: string, impl = 'kubewasm', note?: string): BenchRow => ({
      suite: SUITE,
      case: `rollout-${replicas}`,
      impl,
      metric,
      value,
      unit,
      ...(note === undefined ? {} : { note }),
    });
    return [
      row('rollout seconds', seconds, 's'),
      row('rollout seconds', TARGET_ROLLOUT_SECONDS, 's', 'target', 'issue #14 (10,000 replicas)'),
      row('stub patches', stub.patches - patchesBefore, 'count', 'ready-stub', 'timed apart; part of the wall time'),
    ];
  } finally {
    await cluster.stop();
  }
}

/** Both cases at the given sizes (the suite: 10,000 Deployments and 10,000 replicas; --quick: 500 and 1,000). */
export async function runControllersBench(
  kubewasm: Kubewasm,
  sizes: { deployments: number; rolloutReplicas: number },
  progress: (what: string) => void = () => {},
): Promise<BenchRow[]> {
  return [
    ...(await deploymentsCase(kubewasm, sizes.deployments, progress)),
    ...(await rolloutCase(kubewasm, sizes.rolloutReplicas, progress)),
  ];
}

export function controllersSuite(kubewasm: Kubewasm): Suite {
  return {
    name: SUITE,
    run(progress, args: SuiteArgs = {}) {
      const quick = args.quick === true;
      return runControllersBench(
        kubewasm,
        quick ? { deployments: 500, rolloutReplicas: 1000 } : { deployments: 10_000, rolloutReplicas: 10_000 },
        progress,
      );
    },
  };
}
