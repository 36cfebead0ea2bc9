/**
 * One scheduler_perf workload end to end through the in-process API: a fresh apiserver over an
 * in-memory store, the nodes and pods created through it with the in-process client, and the real
 * Scheduler loop (ts/scheduler/loop) bound to it — informers, queue, engine, pods/binding, Events.
 *
 * As scheduler_perf does: the init pods are created and scheduled first (untimed); then the clock
 * starts at the first measured pod's create and stops when the last measured pod's binding has
 * been answered. pods/s = measured pods ÷ that time, creates included (the apiserver, the store,
 * the watch fan-out and the scheduler share one thread here).
 */
import type { KubeObject } from '../ts/api/meta.js';
import { parseTokenFile } from '../ts/apiserver/authn/tokens.js';
import type { SchedulingExplanation } from '../ts/apiserver/registry/kubewasm/schedulingexplanations/scheduling-explanation.js';
import { createApiServer } from '../ts/apiserver/server.js';
import { type Client, createClient, RESOURCES } from '../ts/client/index.js';
import { inProcessTransport } from '../ts/client/transport.js';
import { type CycleResult, Scheduler } from '../ts/scheduler/loop/index.js';
import { realClock } from '../ts/sim/clock.js';
import { WasmStorage } from '../ts/storage/wasm/wasm-storage.js';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import type { Pod } from './baselines/scheduler/types.js';
import {
  constraintViolations,
  type MaterializedWorkload,
  type PlacedPod,
  type SchedWorkload,
} from './sched-workloads.js';

/** Creates in flight at once (scheduler_perf's createPods runs a client with a QPS limit and workers). */
const CREATE_CONCURRENCY = 100;
/** A run that has not bound every measured pod by then has failed. */
const DEADLINE_MS = 10 * 60_000;
const TOKEN = 'bench-sched-e2e';
const SCHEDULING_EXPLANATIONS = {
  group: 'scheduling.kubewasm.io',
  version: 'v1alpha1',
  resource: 'schedulingexplanations',
};

export interface E2eResult {
  podsPerSecond: number;
  /**
   * When asked for: the SchedulingExplanation the API answered for the first measured pod, posted
   * once the init pods were bound (the state the measurement starts from).
   */
  explanation?: { request: KubeObject; response: SchedulingExplanation };
  /** Milliseconds from the first measured create to the last create's answer. */
  createMs: number;
}

/** Creates `objects` `CREATE_CONCURRENCY` at a time. */
async function createAll(client: Client, resource: 'nodes' | 'pods', objects: readonly KubeObject[]): Promise<void> {
  const gvr = RESOURCES[resource];
  for (let i = 0; i < objects.length; i += CREATE_CONCURRENCY) {
    await Promise.all(
      objects.slice(i, i + CREATE_CONCURRENCY).map((o) => {
        const ns = o.metadata?.namespace;
        return client.create(gvr, resource === 'pods' ? ns : undefined, o);
      }),
    );
  }
}

/** The reference's Pod as an API object; the server assigns the uid. */
function asPod(p: Pod): KubeObject {
  const { uid: _server, ...metadata } = p.metadata;
  return { apiVersion: 'v1', kind: 'Pod', ...p, metadata } as KubeObject;
}

/** Runs `w` end to end once; throws when a measured pod is not bound or a constraint is broken. */
export async function runE2e(
  kubewasm: Kubewasm,
  w: SchedWorkload,
  objects: MaterializedWorkload,
  seed: bigint,
  onProgress: (stage: string, done: number, total: number) => void,
  options: { explain?: boolean } = {},
  deadlineMs = DEADLINE_MS,
): Promise<E2eResult> {
  const storage = new WasmStorage({ store: kubewasm.newStore(), clock: realClock });
  let scheduler: Scheduler | undefined;
  const api = createApiServer({
    storage,
    tokens: parseTokenFile(`${TOKEN},admin,1,"system:masters"\n`),
    explainer: () => scheduler,
  });
  const client = createClient(inProcessTransport(api, TOKEN));
  const errors: string[] = [];
  scheduler = new Scheduler({
    client,
    kubewasm,
    clock: realClock,
    seed,
    onError: (err, context) => errors.push(`${context}: ${err instanceof Error ? err.message : String(err)}`),
  });
  const placed = new Map<string, string>();
  let lastFailure: CycleResult | undefined;
  let wake: () => void = () => {};
  scheduler.onCycle((r) => {
    if (r.result === 'scheduled') placed.set(r.pod, r.node);
    else if (r.result !== 'skipped') lastFailure = r;
    wake();
  });
  const keyOf = (p: Pod) => `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
  const boundAll = (pods: readonly Pod[], stage: string) =>
    new Promise<void>((resolve, reject) => {
      const keys = pods.map(keyOf);
      const timer = setTimeout(() => {
        const missing = keys.filter((k) => !placed.has(k)).length;
        reject(
          new Error(
            `bench sched e2e: ${w.name}: ${missing} of ${keys.length} ${stage} pods not bound in ${deadlineMs / 1000} s; last failure: ${JSON.stringify(lastFailure)}; errors: ${errors.slice(0, 3).join('; ')}`,
          ),
        );
      }, deadlineMs);
      let from = 0;
      wake = () => {
        while (from < keys.length && placed.has(keys[from] as string)) from++;
        onProgress(`${stage} pods bound`, from, keys.length);
        if (from === keys.length) {
          clearTimeout(timer);
          wake = () => {};
          resolve();
        }
      };
      wake();
    });

  try {
    const namespaces = new Set(
      [...objects.initPods, ...objects.measurePods].map((p) => p.metadata.namespace ?? 'default'),
    );
    for (const name of namespaces) {
      await client.create(RESOURCES.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
    onProgress('nodes', 0, objects.nodes.length);
    await createAll(
      client,
      'nodes',
      objects.nodes.map((n) => ({ apiVersion: 'v1', kind: 'Node', ...n }) as KubeObject),
    );
    await scheduler.start();

    const init = boundAll(objects.initPods, 'init');
    await createAll(client, 'pods', objects.initPods.map(asPod));
    await init;
    const first = objects.measurePods[0];
    let explanation: E2eResult['explanation'];
    if (options.explain && first !== undefined) {
      const request: KubeObject = {
        apiVersion: 'scheduling.kubewasm.io/v1alpha1',
        kind: 'SchedulingExplanation',
        spec: { namespace: first.metadata.namespace ?? 'default', pod: asPod(first) },
      } as KubeObject;
      const response = await client.create<SchedulingExplanation>(
        SCHEDULING_EXPLANATIONS,
        undefined,
        request as SchedulingExplanation,
      );
      explanation = { request, response };
    }

    const measured = boundAll(objects.measurePods, 'measured');
    const start = performance.now();
    await createAll(client, 'pods', objects.measurePods.map(asPod));
    const createMs = performance.now() - start;
    await measured;
    const seconds = (performance.now() - start) / 1000;

    const all: PlacedPod[] = [...objects.initPods, ...objects.measurePods].map((pod) => ({
      pod,
      node: placed.get(keyOf(pod)) ?? '',
    }));
    const violations = constraintViolations(objects.nodes, all);
    if (violations.length > 0) {
      throw new Error(`bench sched: ${w.name} (e2e) broke a scheduling constraint: ${violations.join('; ')}`);
    }
    if (errors.length > 0) throw new Error(`bench sched: ${w.name} (e2e): ${errors.slice(0, 3).join('; ')}`);
    return {
      podsPerSecond: objects.measurePods.length / seconds,
      createMs,
      ...(explanation === undefined ? {} : { explanation }),
    };
  } finally {
    await scheduler.stop();
    // The apiserver's own informers (admission's lookups, the CRDs) stop before the store closes.
    await api.close?.();
    await storage.close();
  }
}
