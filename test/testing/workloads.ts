/**
 * What kubectl suites need of workloads while no kubelet runs pods. The test plays the kubelet's
 * part for readiness: the pods of a
 * namespace that are bound, not terminating (and whose readiness gates hold) are patched Running and
 * Ready (with a pod IP),
 * as the kubelet's status manager would report them — so Deployments, ReplicaSets and PDBs see
 * available replicas. `keepPodsReady` does it every 100 ms until stopped.
 *
 *   const stop = keepPodsReady(cluster, 'default');   …   await stop();
 *   await deploymentSettled(cluster, 'web');   // its controller has caught up with its spec
 */
import { type UpCluster, until } from './up.js';

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string };
  spec?: { nodeName?: string; readinessGates?: Array<{ conditionType: string }> };
  status?: { conditions?: Array<{ type: string; status: string }> };
}

/** The pod IPs handed out so far (10.244.0.2 on, one per pod marked, as IPAM would not reuse them soon). */
let podIPs = 0;

/** Patches every not-yet-Ready live pod of `namespace` Running and Ready; answers how many. */
export async function markPodsReady(cluster: UpCluster, namespace: string): Promise<number> {
  const list = await cluster.https('GET', `/api/v1/namespaces/${namespace}/pods`, undefined, cluster.auth());
  const pods = (JSON.parse(list.text) as { items: PodItem[] }).items;
  let marked = 0;
  for (const pod of pods) {
    // Only a kubelet reports a pod's status, and only for a pod bound to its node.
    if (pod.metadata.deletionTimestamp !== undefined || (pod.spec?.nodeName ?? '') === '') continue;
    const conditions = pod.status?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
    // As the kubelet: a pod whose readiness gates are not all True is not Ready.
    const gates = pod.spec?.readinessGates ?? [];
    if (!gates.every((g) => conditions.some((c) => c.type === g.conditionType && c.status === 'True'))) continue;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      phase: 'Running',
      podIP: `10.244.${Math.floor((podIPs + 2) / 256) % 256}.${(podIPs++ + 2) % 256}`,
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: now },
        { type: 'Ready', status: 'True', lastTransitionTime: now },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: now },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
      ],
    };
    const res = await cluster.https(
      'PATCH',
      `/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}/status`,
      JSON.stringify({ status }),
      { ...cluster.auth(), 'Content-Type': 'application/merge-patch+json' },
    );
    if (res.status === 200) marked++;
  }
  return marked;
}

/** markPodsReady every 100 ms until the returned function is called (it resolves after the last pass). */
export function keepPodsReady(cluster: UpCluster, namespace: string): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await markPodsReady(cluster, namespace).catch(() => 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

/**
 * Waits until the Deployment controller is done with `name` for now: its generation observed and
 * the object unchanged for half a second (a rollout whose pods stay unready stops moving too,
 * as on a real cluster), so no write of the controller's lands between a test's next steps.
 */
export async function deploymentSettled(cluster: UpCluster, name: string, namespace = 'default'): Promise<void> {
  const read = () =>
    cluster
      .kubectl(
        'get',
        'deployment',
        name,
        '-n',
        namespace,
        '-o',
        'jsonpath={.metadata.generation} {.status.observedGeneration} {.metadata.resourceVersion}',
      )
      .stdout.split(' ');
  let last = '';
  await until(
    () => {
      const [generation, observed, resourceVersion = ''] = read();
      const steady = generation === observed && resourceVersion === last;
      last = generation === observed ? resourceVersion : '';
      return steady;
    },
    10_000,
    500,
  );
}

/**
 * Plays the kubelet for pods that ran to the end: every live, not yet terminal pod matching
 * `selector` is patched Succeeded (exit 0) or Failed (exit 1), its container terminated so;
 * answers how many.
 */
export async function finishPods(
  cluster: UpCluster,
  namespace: string,
  selector: string,
  phase: 'Succeeded' | 'Failed',
): Promise<number> {
  const query = `?labelSelector=${encodeURIComponent(selector)}`;
  const list = await cluster.https('GET', `/api/v1/namespaces/${namespace}/pods${query}`, undefined, cluster.auth());
  const pods = (
    JSON.parse(list.text) as {
      items: Array<{
        metadata: { name: string; deletionTimestamp?: string };
        spec: { containers: Array<{ name: string; image: string }> };
        status?: { phase?: string };
      }>;
    }
  ).items;
  let finished = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const exitCode = phase === 'Succeeded' ? 0 : 1;
    const status = {
      phase,
      conditions: [{ type: 'Ready', status: 'False', reason: 'PodCompleted', lastTransitionTime: now }],
      containerStatuses: pod.spec.containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        state: {
          terminated: {
            exitCode,
            reason: phase === 'Succeeded' ? 'Completed' : 'Error',
            startedAt: now,
            finishedAt: now,
          },
        },
      })),
    };
    const res = await cluster.https(
      'PATCH',
      `/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}/status`,
      JSON.stringify({ status }),
      { ...cluster.auth(), 'Content-Type': 'application/merge-patch+json' },
    );
    if (res.status === 200) finished++;
  }
  return finished;
}

/** A Node object with room for `pods` pods (what a kubelet would register), for the scheduler to bind to. */
export async function registerNode(cluster: UpCluster, name: string, pods = 110): Promise<void> {
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      capacity: { cpu: '16', memory: '64Gi', pods: String(pods) },
      allocatable: { cpu: '16', memory: '64Gi', pods: String(pods) },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
    },
  };
  const res = await cluster.https('POST', '/api/v1/nodes', JSON.stringify(node), {
    ...cluster.auth(),
    'Content-Type': 'application/json',
  });
  if (res.status !== 201) throw new Error(`node ${name}: ${res.status} ${res.text}`);
}
