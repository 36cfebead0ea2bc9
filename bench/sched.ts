/**
 * `kubewasm bench sched [--workload NAME]`: kube-scheduler's scheduler_perf workloads
 * (bench/sched-workloads.ts) on the wasm engine, on the TypeScript reference scheduler and end to
 * end through the in-process API (bench/sched-e2e.ts), beside the CI threshold each workload must
 * beat, plus the engine's memory at 5,000 nodes and 150,000 pods. Writes bench/results/sched.json,
 * sched.svg and explain-antiaffinity.txt (a SchedulingExplanation from the e2e run).
 *
 * As in scheduler_perf, the init pods are scheduled (untimed) before the measured ones, and only
 * the measured pods count. wasm and ts: pods/s = measured pods ÷ the time spent in scheduleBatch
 * for them (JSON in and out included: that is the engine's API) — no apiserver, binding or queue.
 * e2e: measured pods ÷ the time from their first create to their last binding.
 */
import { loadavg } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { loadKubewasm } from '../ts/wasm/node.js';
import type { Placement } from '../ts/wasm/scheduler.js';
import { buildSnapshot, ReferenceScheduler } from './baselines/scheduler/index.js';
import type { Node, Pod } from './baselines/scheduler/types.js';
import { bindRoundRobin, makeNodes, makePods } from './baselines/scheduler/workload.js';
import { logBarChart } from './chart.js';
import { type BenchRow, median, progressBar, type Suite } from './harness.js';
import { runE2e } from './sched-e2e.js';
import { explanationText } from './sched-explain.js';
import {
  constraintViolations,
  type MaterializedWorkload,
  materialize,
  type PlacedPod,
  type SchedWorkload,
  selectWorkloads,
} from './sched-workloads.js';

/** Pods per scheduleBatch call. */
const BATCH = 500;
/** wasm runs per workload, each on a fresh engine; the row is their median. */
const WASM_RUNS = 5;
/** The TypeScript reference (~100–400 pods/s at 5,000 nodes) gets the first measured pods only… */
const TS_MAX_PODS = 1000;
/** …and stops early after this long, so the whole suite stays within minutes on 2 cores. */
const TS_MAX_SECONDS = 10;

const MEMORY_CASE = 'memory-5000n-150000p';
const MEMORY_NODES = 5000;
const MEMORY_PODS = 150_000;
const MEMORY_BATCH = 5000;
const MEMORY_TARGET_MB = 200;
/** workerData marker of the memory worker (see memoryInWorker). */
const MEMORY_TASK = 'kubewasm-bench-sched-memory';

const THRESHOLD_IMPL = 'kube-scheduler-threshold';

/** The workload whose e2e run also asks the API for one SchedulingExplanation (the acceptance). */
const EXPLAIN_WORKLOAD = 'SchedulingPodAntiAffinity/5000Nodes_2000Pods';
const EXPLAIN_FILE = 'explain-antiaffinity.txt';
/** Written by the EXPLAIN_WORKLOAD run, saved beside sched.json. */
let explainFile: string | undefined;

type Progress = (what: string) => void;

export function schedSuite(kubewasm: Kubewasm): Suite {
  return {
    name: 'sched',
    async run(progress, args) {
      const filter = typeof args?.workload === 'string' ? args.workload : undefined;
      const memoryOnly = filter?.toLowerCase() === 'memory';
      const workloads = memoryOnly ? [] : selectWorkloads(filter);
      if (!memoryOnly && workloads.length === 0) {
        throw new Error(
          `bench sched: no workload "${filter}"; workloads: ${selectWorkloads(undefined)
            .map((w) => w.name)
            .join(', ')}, memory`,
        );
      }
      console.error(
        `bench sched: ratio = value ÷ the case's first row (the kube-scheduler threshold, or the memory target); ` +
          `load average ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
      );

      const rows: BenchRow[] = [];
      for (const w of workloads) rows.push(...(await workloadRows(kubewasm, w, progress)));
      if (filter === undefined || memoryOnly) rows.push(...(await memoryRows(kubewasm, progress)));
      return rows;
    },
    files: (rows) => ({
      ...(rows.some((r) => r.metric === 'pods_per_s') ? { 'sched.svg': schedChart(rows) } : {}),
      ...(explainFile === undefined ? {} : { [EXPLAIN_FILE]: explainFile }),
    }),
  };
}

/** Threshold, wasm, ts and e2e rows of one workload. */
async function workloadRows(kubewasm: Kubewasm, w: SchedWorkload, progress: Progress): Promise<BenchRow[]> {
  const row = (impl: string, value: number, note?: string): BenchRow => ({
    suite: 'sched',
    case: w.name,
    impl,
    metric: 'pods_per_s',
    value,
    unit: 'pods/s',
    ...(note === undefined ? {} : { note }),
  });
  progress(`${w.name} · building objects`);
  const objects = materialize(w);

  // Warm-up, not counted: V8 first runs wasm on its baseline compiler (Liftoff) and moves hot
  // functions to the optimizing one (TurboFan) in background threads; the first batches also grow
  // wasm memory. A 10,000-pod workload is over in ~130 ms a run, so on a busy machine all its runs
  // could finish before the tier-up (measured: --liftoff-only ≈50k pods/s, TurboFan ≈80k for
  // SchedulingBasic 5000Nodes_10000Pods). One unmeasured run makes every row a steady-state figure.
  runWasm(kubewasm, w, objects, 0n, (stage, done, total) =>
    progress(`${w.name} · wasm warm-up · ${stage} ${progressBar(done, total)}`),
  );
  const rates: number[] = [];
  let initNodes: string[] = [];
  for (let run = 0; run < WASM_RUNS; run++) {
    const result = runWasm(kubewasm, w, objects, BigInt(run + 1), (stage, done, total) =>
      progress(`${w.name} · wasm run ${run + 1}/${WASM_RUNS} · ${stage} ${progressBar(done, total)}`),
    );
    rates.push(result.podsPerSecond);
    if (run === 0) initNodes = result.initNodes;
  }
  const ts = runReference(w, objects, initNodes, (done, total) =>
    progress(`${w.name} · ts reference ${progressBar(done, total)}`),
  );
  const explain = w.name === EXPLAIN_WORKLOAD;
  const e2e = await runE2e(
    kubewasm,
    w,
    objects,
    1n,
    (stage, done, total) => progress(`${w.name} · e2e · ${stage} ${progressBar(done, total)}`),
    { explain },
  );
  if (e2e.explanation !== undefined) {
    explainFile = explanationText(w.name, objects.initPods.length, e2e.explanation);
  }
  return [
    // scheduler.md §1.2, from the workload's performance-config.yaml.
    row(THRESHOLD_IMPL, w.threshold, w.config),
    row('wasm', median(rates)),
    row(
      'ts',
      ts.podsPerSecond,
      `first ${ts.pods.toLocaleString('en-US')} of ${w.measure.count.toLocaleString('en-US')} measured pods, 1 run`,
    ),
    row(
      'e2e',
      e2e.podsPerSecond,
      `in-process API, creates included (${(e2e.createMs / 1000).toFixed(1)} s of creates), 1 run`,
    ),
  ];
}

/**
 * Schedules init then measured pods on a fresh engine, timing the measured ones; then checks that
 * every pod landed and that the placements keep the workload's constraints.
 */
export function runWasm(
  kubewasm: Kubewasm,
  w: SchedWorkload,
  objects: MaterializedWorkload,
  seed: bigint,
  onProgress: (stage: string, done: number, total: number) => void,
): { podsPerSecond: number; initNodes: string[] } {
  const engine = kubewasm.newScheduler(undefined, seed);
  try {
    engine.upsertNodes(objects.nodes);
    const initNodes: string[] = [];
    const init = objects.initPods;
    for (let i = 0; i < init.length; i += BATCH) {
      onProgress('init pods', i, init.length);
      for (const p of engine.scheduleBatch(init.slice(i, i + BATCH).map((pod) => ({ pod })))) {
        if (!p.node) throw placementError(w, 'init', p);
        initNodes.push(p.node);
      }
    }

    const measure = objects.measurePods;
    let seconds = 0;
    const measureNodes: (string | undefined)[] = [];
    let firstFailure: Placement | undefined;
    for (let i = 0; i < measure.length; i += BATCH) {
      onProgress('measured pods', i, measure.length);
      const pending = measure.slice(i, i + BATCH).map((pod) => ({ pod }));
      const start = performance.now();
      const placements = engine.scheduleBatch(pending);
      seconds += (performance.now() - start) / 1000;
      for (const p of placements) {
        measureNodes.push(p.node);
        if (!p.node) firstFailure ??= p;
      }
    }
    onProgress('measured pods', measure.length, measure.length);
    const placed: PlacedPod[] = init.map((pod, i) => ({ pod, node: initNodes[i] ?? '' }));
    measure.forEach((pod, i) => {
      const node = measureNodes[i];
      if (node) placed.push({ pod, node });
    });
    checkPlaced(w, 'wasm', placed.length - init.length, measure.length, firstFailure);
    const violations = constraintViolations(objects.nodes, placed);
    if (violations.length > 0) {
      throw new Error(`bench sched: ${w.name} (wasm) broke a scheduling constraint: ${violations.join('; ')}`);
    }
    return { podsPerSecond: measure.length / seconds, initNodes };
  } finally {
    engine.free();
  }
}

/**
 * The reference scheduler on the same cluster: the init pods bound where the wasm engine put them
 * (the state scheduler_perf reaches before measuring), then the first measured pods, one cycle each.
 */
function runReference(
  w: SchedWorkload,
  objects: MaterializedWorkload,
  initNodes: readonly string[],
  onProgress: (done: number, total: number) => void,
): { podsPerSecond: number; pods: number } {
  const bound: Pod[] = objects.initPods.map((pod, i) => ({
    ...pod,
    spec: { ...pod.spec, nodeName: initNodes[i] ?? '' },
  }));
  const snapshot = buildSnapshot({ nodes: objects.nodes, pods: bound });
  const scheduler = new ReferenceScheduler({ seed: 1 });
  const total = Math.min(TS_MAX_PODS, objects.measurePods.length);
  let seconds = 0;
  let pods = 0;
  let placed = 0;
  let firstFailure: string | null = null;
  while (pods < total && seconds < TS_MAX_SECONDS) {
    const pod = objects.measurePods[pods] as Pod;
    const start = performance.now();
    const [result] = scheduler.scheduleAll(snapshot, [pod]);
    seconds += (performance.now() - start) / 1000;
    pods++;
    if (result?.nodeName != null) placed++;
    else firstFailure ??= result?.message ?? 'no result';
    if (pods % 50 === 0) onProgress(pods, total);
  }
  // The subset has no unschedulable quota of its own: any unplaced pod here is a failure.
  checkPlaced(
    { ...w, unschedulable: 0 },
    'ts',
    placed,
    pods,
    firstFailure === null ? undefined : { message: firstFailure },
  );
  return { podsPerSecond: pods / seconds, pods };
}

/** A benchmark that schedules nothing must fail, not report a big number. */
function checkPlaced(
  w: SchedWorkload,
  impl: string,
  placed: number,
  total: number,
  firstFailure: Pick<Placement, 'message' | 'error'> | undefined,
): void {
  const expected = total - w.unschedulable;
  if (placed === expected && total > 0) return;
  const why = firstFailure?.error?.message ?? firstFailure?.message ?? 'no pods';
  throw new Error(
    `bench sched: ${w.name} (${impl}) placed ${placed} of ${total} measured pods, expected ${expected}; first failure: ${why}`,
  );
}

function placementError(w: SchedWorkload, stage: string, p: Placement): Error {
  return new Error(
    `bench sched: ${w.name}: ${stage} pod ${p.pod} not placed: ${p.error?.message ?? p.message ?? 'no reason given'}`,
  );
}

// --- memory ---------------------------------------------------------------------------------------

/** Growth of wasm memory for one engine holding 5,000 nodes and 150,000 bound pods, and its target. */
async function memoryRows(kubewasm: Kubewasm, progress: Progress): Promise<BenchRow[]> {
  const row = (impl: string, value: number, note?: string): BenchRow => ({
    suite: 'sched',
    case: MEMORY_CASE,
    impl,
    metric: 'bytes',
    value,
    unit: 'MB',
    ...(note === undefined ? {} : { note }),
  });
  const onProgress = (done: number) => progress(`${MEMORY_CASE} · addPods ${progressBar(done, MEMORY_PODS)}`);
  let bytes: number;
  let note: string | undefined;
  try {
    bytes = await memoryInWorker(onProgress);
  } catch (err) {
    if (err instanceof Error && err.name === 'MemoryProbeError') throw err;
    // Run from source (a .ts module cannot be a worker): measure here; earlier cases may have left
    // free memory in this instance that the engine reuses, so the number can be low.
    bytes = engineMemoryBytes(kubewasm, onProgress);
    note = `in-process (${err instanceof Error ? err.message : String(err)}): may under-count`;
  }
  return [row('target', MEMORY_TARGET_MB), row('wasm', bytes / 1e6, note)];
}

/**
 * Wasm memory only grows and is one per realm, so a fresh worker (this same module, which answers
 * when it sees MEMORY_TASK below) is the only way to see what one engine needs.
 */
function memoryInWorker(onProgress: (done: number) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { task: MEMORY_TASK } });
    worker.on('message', (m: { done?: number; bytes?: number; error?: string }) => {
      if (m.done !== undefined) onProgress(m.done);
      if (m.bytes !== undefined) {
        resolve(m.bytes);
        void worker.terminate();
      }
      // The measurement itself failed: not a reason to retry in-process.
      if (m.error !== undefined) reject(Object.assign(new Error(m.error), { name: 'MemoryProbeError' }));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`memory worker exited with code ${code} before answering`)));
  });
}

/** memoryBytes() growth over adding MEMORY_NODES nodes and MEMORY_PODS bound pods to one engine. */
function engineMemoryBytes(kubewasm: Kubewasm, onProgress: (done: number) => void): number {
  const before = kubewasm.memoryBytes();
  const engine = kubewasm.newScheduler();
  try {
    const nodes: Node[] = makeNodes({ count: MEMORY_NODES, zones: 0 });
    engine.upsertNodes(nodes);
    for (let added = 0; added < MEMORY_PODS; added += MEMORY_BATCH) {
      onProgress(added);
      engine.addPods(bindRoundRobin(makePods({ count: MEMORY_BATCH, namePrefix: `bound-${added}-` }), nodes));
    }
    onProgress(MEMORY_PODS);
    const bytes = kubewasm.memoryBytes() - before;
    checkMemoryCluster(engine);
    return bytes;
  } finally {
    engine.free();
  }
}

/**
 * The engine really holds the pods: 30 pod-default pods per node use 3,000m of 4 CPUs, so 1,000m
 * still fits somewhere and 1,001m fits nowhere.
 */
function checkMemoryCluster(engine: ReturnType<Kubewasm['newScheduler']>): void {
  const probe = (cpu: string) => {
    const pod = makePods({ count: 1, namePrefix: `probe-${cpu}-`, requests: { cpu, memory: '1Mi' } });
    return engine.scheduleBatch(pod.map((p) => ({ pod: p })))[0];
  };
  const fits = probe('1000m');
  const tooBig = probe('1001m');
  if (fits?.node === undefined || tooBig?.node !== undefined) {
    throw new Error(
      `bench sched: ${MEMORY_CASE}: the engine does not hold ${MEMORY_PODS} pods (1000m → ${fits?.node ?? fits?.message}, 1001m → ${tooBig?.node ?? 'unschedulable'})`,
    );
  }
}

// In the memory worker started by memoryInWorker: a fresh wasm instance, measured, reported.
if (!isMainThread && (workerData as { task?: unknown } | null)?.task === MEMORY_TASK) {
  try {
    const bytes = engineMemoryBytes(await loadKubewasm(), (done) => parentPort?.postMessage({ done }));
    parentPort?.postMessage({ bytes });
  } catch (err) {
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}

// --- chart ----------------------------------------------------------------------------------------

function schedChart(rows: BenchRow[]): string {
  return logBarChart(rows, {
    title: 'kubewasm bench sched — scheduler_perf workloads at 5,000 nodes (pods/s, log scale)',
    subtitle: `wasm: median of ${WASM_RUNS} runs after a warm-up, all measured pods · ts: first ≤${TS_MAX_PODS} measured pods, 1 run · e2e: create → bind through the in-process API, 1 run · threshold: CI floor`,
    metric: 'pods_per_s',
    series: [
      { impl: 'wasm', label: 'wasm engine', short: 'wasm', color: '#2563eb' },
      { impl: 'ts', label: 'TypeScript reference', short: 'ts', color: '#f59e0b' },
      { impl: 'e2e', label: 'end to end: in-process API + scheduler loop', short: 'e2e', color: '#10b981' },
      { impl: THRESHOLD_IMPL, label: 'kube-scheduler CI threshold', short: 'threshold', color: '#9ca3af' },
    ],
  });
}
