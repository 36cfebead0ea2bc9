/**
 * `kubewasm bench api [--quick]`: the apiserver through its three doors, side by side — the
 * web-standard handler in-process (`handle(new Request(…))`), HTTPS/1.1 through node/https.ts
 * (what `kubewasm up` serves) with keep-alive connections, and HTTP/2 over TLS through
 * node/http2.ts (one connection, one stream per request, as kubectl and client-go send them).
 *
 * Cases: create / get / list (a 100-pod namespace) / update of ≈2 KB pods (bench/api-pods.ts) at
 * 1, 10 and 100 closed-loop clients — requests/s, p50 and p99 latency; a cluster-wide LIST of
 * 150,000 running pods (time to the last byte, bytes; JSON); watch delivery to 100 watchers; then
 * Kubernetes' API-call SLOs and the issue's throughput targets as rows of their own, so the ratio
 * column reads as "fraction of the budget" / "fraction of the target".
 *
 * The store is the wasm MVCC store in memory (no data directory: the apiserver is what is
 * measured), fresh for every run. Socket clients run in a worker thread (bench/api-load.ts).
 * Writes bench/results/api.json and api.svg.
 */
import { loadavg } from 'node:os';
import { parseTokenFile } from '../ts/apiserver/authn/tokens.js';
import { WATCH_BUFFER_EVENTS } from '../ts/apiserver/endpoints/watch.js';
import { serveHttp2 } from '../ts/apiserver/node/http2.js';
import { type HttpsServer, serveHttps } from '../ts/apiserver/node/https.js';
import { type ApiServer, createApiServer } from '../ts/apiserver/server.js';
import { WasmStorage } from '../ts/storage/wasm/wasm-storage.js';
import type { Kubewasm } from '../ts/wasm/kubewasm.js';
import { measureCeilings } from './api-ceiling.js';
import {
  ClientThread,
  inProcessSender,
  LineCounter,
  type LoadResult,
  type LoadSpec,
  loopbackTls,
  type Op,
  type Protocol,
  runLoad,
  seedName,
  type TlsTarget,
  WATCH_STALL_MS,
  type WatchProgress,
  type WatchProtocol,
  wallMs,
} from './api-load.js';
import { podBodies, runningPodStored } from './api-pods.js';
import { logBarChart } from './chart.js';
import { type BenchRow, median, progressBar, type Suite, type SuiteArgs } from './harness.js';

const TOKEN = 'bench-token';
const IMPLS = ['in-process', 'https-h1', 'https-h2'] as const;
type Impl = (typeof IMPLS)[number];
const PROTOCOL: Record<Exclude<Impl, 'in-process'>, Protocol> = { 'https-h1': 'h1', 'https-h2': 'h2' };
const OPS: readonly Op[] = ['create', 'get', 'list', 'update'];
const CONCURRENCY = [1, 10, 100] as const;

/** The ceiling rows' impls (api-ceiling.ts). */
const CEILINGS = 3;
const NS = 'bench';
const LIST_NS = 'list';
const WATCH_NS = 'watch';
/** Pods in NS that get and update address. */
const SEED_PODS = 1000;
/** Pods in LIST_NS: the list op's page. */
const LIST_PODS = 100;
const LIST_ALL_NAMESPACES = 100;
const WATCHERS = 100;
/** The watch rows: the handler in-process, then each socket transport and the server it uses. */
const WATCH_IMPLS: readonly { impl: string; protocol?: WatchProtocol; server?: Protocol; note: string }[] = [
  { impl: 'in-process', note: 'handle() response streams' },
  { impl: 'https-ws', protocol: 'ws', server: 'h1', note: 'WebSocket watch (node/https.ts + watch-websocket.ts)' },
  { impl: 'https-h1', protocol: 'h1', server: 'h1', note: 'chunked HTTP/1.1 watch (node/https.ts)' },
  { impl: 'https-h2', protocol: 'h2', server: 'h2', note: 'chunked HTTP/2 watch, one connection (node/http2.ts)' },
];
/**
 * Writes may run this many events ahead of the slowest watcher: half the apiserver's per-watcher
 * buffer, beyond which it drops a watcher as too slow (as the cacher does).
 */
const WATCH_WINDOW = WATCH_BUFFER_EVENTS / 2;

/** Sizes and repetitions; `--quick` is for development, the full run for the numbers. */
interface Plan {
  runs: number;
  /** An extra first run per row, not counted. */
  warmup: boolean;
  durationMs: number;
  listPods: number;
  watchEvents: number;
  /** Runs of each watch row (one for a run of the issue's full 100,000 events). */
  watchRuns: number;
  quick: boolean;
}
/**
 * The issue asks for 100,000 events to 100 watchers: 10 million deliveries, which at the tens of
 * thousands per second measured here is minutes per run and transport; the full run sends 10,000
 * (a million deliveries) and says so in the rows.
 */
const ISSUE_WATCH_EVENTS = 100_000;
const FULL: Plan = {
  runs: 3,
  warmup: true,
  durationMs: 1500,
  listPods: 150_000,
  watchEvents: 10_000,
  watchRuns: 3,
  quick: false,
};
const QUICK: Plan = {
  runs: 1,
  warmup: false,
  durationMs: 300,
  listPods: 15_000,
  watchEvents: 1_000,
  watchRuns: 1,
  quick: true,
};

// Kubernetes' API call latency SLOs (kubernetes/community sig-scalability/slos/api_call_latency.md):
// mutating calls p99 ≤ 1 s; non-streaming reads p99 ≤ 1 s (scope=resource), ≤ 5 s
// (scope=namespace), ≤ 30 s (scope=cluster).
const SLO_IMPL = 'k8s-slo';
const SLO_MUTATING_MS = 1000;
const SLO_READ_RESOURCE_MS = 1000;
const SLO_READ_NAMESPACE_MS = 5000;
const SLO_READ_CLUSTER_S = 30;
// The API-server issue's targets, at 100 concurrent clients.
const TARGET_IMPL = 'issue-target';
const TARGET_HTTPS_CREATES = 20_000;
const TARGET_IN_PROCESS_CREATES = 200_000;

const encoder = new TextEncoder();
/** The machine is shared: CPU time per request (this process, every thread) moves less than rates. */
const CPU_NOTE = 'process CPU (server + clients, all threads) ÷ requests';

type Progress = (what: string) => void;

interface Servers {
  /** Points both sockets at the next run's apiserver, over a fresh store. */
  use(api: ApiServer): void;
  target: (s: 'h1' | 'h2') => TlsTarget;
  close(): Promise<void>;
}

async function startServers(): Promise<Servers> {
  const { ca, serving } = await loopbackTls();
  let current: ApiServer | undefined;
  const inUse = (): ApiServer => {
    if (!current) throw new Error('bench api: no apiserver in use');
    return current;
  };
  // handleCall too: the fronts serve through it without a web Request per request (node/bridge.ts).
  const front: ApiServer = {
    handle: (r, connection) => inUse().handle(r, connection),
    handleCall: (call, connection) => {
      const api = inUse();
      return api.handleCall ? api.handleCall(call, connection) : api.handle(new Request(call.url, call), connection);
    },
  };
  const h1: HttpsServer = await serveHttps(front, serving, '127.0.0.1', 0);
  const h2: HttpsServer = await serveHttp2(front, serving, '127.0.0.1', 0);
  return {
    use: (api) => {
      current = api;
    },
    target: (s) => ({ port: s === 'h1' ? h1.port : h2.port, ca: ca.certPem, token: TOKEN }),
    close: async () => {
      await Promise.all([h1.close(), h2.close()]);
    },
  };
}

export function apiSuite(kubewasm: Kubewasm): Suite {
  return {
    name: 'api',
    async run(progress, args) {
      const plan = planOf(args);
      const load = () =>
        `load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`;
      console.error(
        `bench api: ${plan.quick ? '--quick: short runs, small sizes; ' : ''}ratio = value ÷ the case's first row; ${load()}`,
      );
      const servers = await startServers();
      const thread = await ClientThread.start();
      const bench = new ApiBench(kubewasm, servers, thread, plan, progress);
      try {
        const rows = await bench.all();
        console.error(`bench api: done; ${load()}`);
        return rows;
      } finally {
        await bench.closeStorage();
        await thread.stop();
        await servers.close();
      }
    },
    files: (rows) => (rows.some((r) => r.metric === 'req_per_s') ? { 'api.svg': apiChart(rows) } : {}),
  };
}

/**
 * The plan the flags ask for: `--quick`, and `--watch-events N` (the issue's 100,000 for the record:
 * one run per transport, minutes each).
 */
function planOf(args: SuiteArgs | undefined): Plan {
  const base = args?.quick === true ? QUICK : FULL;
  const asked = args?.['watch-events'];
  if (asked === undefined) return base;
  const events = Number(asked);
  if (!Number.isInteger(events) || events < 1) throw new Error(`--watch-events ${String(asked)}: a positive integer`);
  return { ...base, watchEvents: events, watchRuns: events > FULL.watchEvents ? 1 : base.watchRuns };
}

/**
 * A response's length, read chunk by chunk and not kept — as the socket clients read a LIST — so
 * the in-process row times the apiserver, not a 500 MB buffer assembled in the server's heap.
 */
async function countBytes(res: Response): Promise<number> {
  let bytes = 0;
  if (res.body === null) return bytes;
  const reader = res.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength;
  return bytes;
}

/** A namespace with what the serviceaccounts controller makes in it: the `default` ServiceAccount admission needs. */
async function createNamespace(send: ReturnType<typeof inProcessSender>, name: string): Promise<void> {
  await expectStatus(send('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name } })), 201);
  const sa = JSON.stringify({ metadata: { name: 'default' } });
  await expectStatus(send('POST', `/api/v1/namespaces/${name}/serviceaccounts`, sa), 201);
}

class ApiBench {
  private readonly rows: BenchRow[] = [];
  private storage: WasmStorage | undefined;
  private step = 0;
  private readonly steps: number;
  private readonly socketNote: string | undefined;
  private readonly tokens = parseTokenFile(`${TOKEN},bench,1,"system:masters"\n`);

  constructor(
    private readonly kubewasm: Kubewasm,
    private readonly servers: Servers,
    private readonly thread: ClientThread,
    private readonly plan: Plan,
    private readonly progress: Progress,
  ) {
    const perRow = plan.runs + (plan.warmup ? 1 : 0);
    this.steps =
      OPS.length * CONCURRENCY.length * IMPLS.length * perRow +
      IMPLS.length * plan.runs +
      WATCH_IMPLS.length * plan.watchRuns +
      CEILINGS * plan.runs +
      1;
    this.socketNote = thread.inThread ? 'clients in the server thread (run from source: no worker)' : undefined;
  }

  private row(c: string, impl: string, metric: string, value: number, unit: string, note?: string): void {
    this.rows.push({ suite: 'api', case: c, impl, metric, value, unit, ...(note === undefined ? {} : { note }) });
  }

  private tick(what: string): void {
    this.progress(`${what} ${progressBar(this.step++, this.steps)}`);
  }

  async closeStorage(): Promise<void> {
    await this.storage?.close();
    this.storage = undefined;
  }

  /**
   * A new apiserver over a new in-memory store, served by both sockets, with the admission plugins
   * `kubewasm up` runs (kube-apiserver's default-enabled set).
   */
  private async freshApi(store = this.kubewasm.newStore()): Promise<ApiServer> {
    await this.closeStorage();
    this.storage = new WasmStorage({ store });
    const api = createApiServer({ storage: this.storage, tokens: this.tokens, admission: {} });
    this.servers.use(api);
    return api;
  }

  /** An apiserver with the namespaces and the pods get, update and list address. */
  private async seededApi(): Promise<ApiServer> {
    const api = await this.freshApi();
    const send = inProcessSender(api, TOKEN);
    for (const name of [NS, LIST_NS, WATCH_NS]) {
      await createNamespace(send, name);
    }
    const body = podBodies(NS);
    const listBody = podBodies(LIST_NS);
    await Promise.all([
      ...Array.from({ length: SEED_PODS }, (_, i) =>
        expectStatus(send('POST', `/api/v1/namespaces/${NS}/pods`, body(seedName(i), '0')), 201),
      ),
      ...Array.from({ length: LIST_PODS }, (_, i) =>
        expectStatus(send('POST', `/api/v1/namespaces/${LIST_NS}/pods`, listBody(seedName(i), '0')), 201),
      ),
    ]);
    return api;
  }

  async all(): Promise<BenchRow[]> {
    const p99: Record<'mutating' | 'get' | 'list', Map<Impl, number>> = {
      mutating: new Map(),
      get: new Map(),
      list: new Map(),
    };
    for (const op of OPS) {
      for (const concurrency of CONCURRENCY) {
        const c = `${op}-c${concurrency}`;
        for (const impl of IMPLS) {
          const results: (LoadResult & { cpuUs: number })[] = [];
          const total = this.plan.runs + (this.plan.warmup ? 1 : 0);
          for (let run = 0; run < total; run++) {
            this.tick(`${c} · ${impl} · run ${run + 1}/${total}`);
            const r = await this.loadRun(impl, { op, concurrency, tag: `r${this.step}` });
            if (!this.plan.warmup || run > 0) results.push({ ...r, cpuUs: r.cpuUs });
          }
          const note = impl === 'in-process' ? undefined : this.socketNote;
          const rate = median(results.map((r) => r.ops / r.seconds));
          const p50 = median(results.map((r) => r.p50Ms));
          const p99ms = median(results.map((r) => r.p99Ms));
          this.row(c, impl, 'req_per_s', rate, 'req/s', note);
          this.row(c, impl, 'p50_ms', p50, 'ms', note);
          this.row(c, impl, 'p99_ms', p99ms, 'ms', note);
          this.row(c, impl, 'cpu_us_per_req', median(results.map((r) => r.cpuUs / r.ops)), 'µs', note ?? CPU_NOTE);
          const kind = op === 'create' || op === 'update' ? 'mutating' : op;
          p99[kind].set(impl, Math.max(p99[kind].get(impl) ?? 0, p99ms));
        }
      }
    }
    const listSeconds = await this.listAll();
    await this.watchRows();

    // Thresholds: each impl's worst p99 over 1, 10 and 100 clients against the SLO.
    const worst = 'worst p99 over 1/10/100 clients';
    this.row('slo-mutating-p99', SLO_IMPL, 'p99_ms', SLO_MUTATING_MS, 'ms', 'api_call_latency.md: POST/PUT ≤ 1 s');
    for (const [impl, v] of p99.mutating)
      this.row('slo-mutating-p99', impl, 'p99_ms', v, 'ms', `${worst}, create+update`);
    this.row(
      'slo-get-p99',
      SLO_IMPL,
      'p99_ms',
      SLO_READ_RESOURCE_MS,
      'ms',
      'api_call_latency.md: scope=resource ≤ 1 s',
    );
    for (const [impl, v] of p99.get) this.row('slo-get-p99', impl, 'p99_ms', v, 'ms', worst);
    this.row(
      'slo-list-namespace-p99',
      SLO_IMPL,
      'p99_ms',
      SLO_READ_NAMESPACE_MS,
      'ms',
      'api_call_latency.md: scope=namespace ≤ 5 s',
    );
    for (const [impl, v] of p99.list) this.row('slo-list-namespace-p99', impl, 'p99_ms', v, 'ms', `${worst}, 100 pods`);
    const listCase = `slo-list-cluster-${this.plan.listPods / 1000}k-p99`;
    this.row(listCase, SLO_IMPL, 'seconds', SLO_READ_CLUSTER_S, 's', 'api_call_latency.md: scope=cluster ≤ 30 s');
    for (const [impl, v] of listSeconds) this.row(listCase, impl, 'seconds', v, 's', 'slowest run');

    const creates = (impl: Impl) =>
      this.rows.find((r) => r.case === 'create-c100' && r.impl === impl && r.metric === 'req_per_s')?.value ?? 0;
    const ceilings = await this.ceilings();
    this.row('target-create-c100-https', TARGET_IMPL, 'req_per_s', TARGET_HTTPS_CREATES, 'req/s');
    this.row('target-create-c100-https', 'https-h1', 'req_per_s', creates('https-h1'), 'req/s');
    this.row('target-create-c100-https', 'https-h2', 'req_per_s', creates('https-h2'), 'req/s');
    for (const c of ceilings) if (c.impl !== 'ceiling-json-only') this.row('target-create-c100-https', ...c.row);
    this.row('target-create-c100-in-process', TARGET_IMPL, 'req_per_s', TARGET_IN_PROCESS_CREATES, 'req/s');
    this.row('target-create-c100-in-process', 'in-process', 'req_per_s', creates('in-process'), 'req/s');
    for (const c of ceilings) if (c.impl === 'ceiling-json-only') this.row('target-create-c100-in-process', ...c.row);
    return this.rows;
  }

  /**
   * Beside each target, the most this machine allows whatever the apiserver does (api-ceiling.ts):
   * only JSON.parse + JSON.stringify of each body in-process; over HTTPS, a handler with no work.
   */
  private async ceilings(): Promise<{ impl: string; row: [string, string, number, string, string] }[]> {
    const spec: LoadSpec = {
      op: 'create',
      concurrency: 100,
      durationMs: this.plan.durationMs,
      tag: `ceiling${this.step}`,
      namespace: NS,
      seedPods: 0,
      listNamespace: NS,
    };
    const measured = await measureCeilings(this.thread, spec, this.plan.runs, (what) => this.tick(what));
    const NOTES = {
      'json-only': 'ceiling: JSON.parse + JSON.stringify of each body, nothing else (api-ceiling.ts)',
      'trivial-h2': 'ceiling: node/http2.ts in front of a handler that echoes the body (api-ceiling.ts)',
      'raw-node-http2': 'ceiling: node:http2 stream API echoing the body, no handler (api-ceiling.ts)',
    } as const;
    return (['json-only', 'trivial-h2', 'raw-node-http2'] as const).map((impl) => {
      const rate = median(measured.filter((c) => c.impl === impl).map((c) => c.result.ops / c.result.seconds));
      const name = `ceiling-${impl}`;
      return { impl: name, row: [name, 'req_per_s', rate, 'req/s', NOTES[impl]] };
    });
  }

  /** One timed run on a fresh, seeded apiserver; `cpuUs` is this process's CPU time during it. */
  private async loadRun(
    impl: Impl,
    spec: Pick<LoadSpec, 'op' | 'concurrency' | 'tag'>,
  ): Promise<LoadResult & { cpuUs: number }> {
    const api = await this.seededApi();
    const full: LoadSpec = {
      ...spec,
      durationMs: this.plan.durationMs,
      namespace: NS,
      seedPods: SEED_PODS,
      listNamespace: LIST_NS,
    };
    const cpu = process.cpuUsage();
    let r: LoadResult;
    if (impl === 'in-process') {
      r = await runLoad(inProcessSender(api, TOKEN), full);
    } else {
      const protocol = PROTOCOL[impl];
      r = (await this.thread.call({
        kind: 'load',
        protocol,
        target: this.servers.target(protocol),
        spec: full,
      })) as LoadResult;
    }
    const used = process.cpuUsage(cpu);
    return { ...r, cpuUs: used.user + used.system };
  }

  /** The cluster-wide LIST: seconds to the last byte and bytes, per impl; returns the slowest runs. */
  private async listAll(): Promise<Map<Impl, number>> {
    const n = this.plan.listPods;
    const c = `list-${n / 1000}k-pods`;
    this.tick(`${c} · seeding the store`);
    const store = this.kubewasm.newStore();
    const CHUNK = 5000;
    for (let from = 0; from < n; from += CHUNK) {
      this.progress(`${c} · seeding ${progressBar(from, n)}`);
      const keys: Uint8Array[] = [];
      const values: Uint8Array[] = [];
      for (let i = from; i < Math.min(n, from + CHUNK); i++) {
        const ns = `ns-${i % LIST_ALL_NAMESPACES}`;
        const name = `web-7d4b9c8f5d-${i.toString(36).padStart(5, '0')}`;
        keys.push(encoder.encode(`/registry/pods/${ns}/${name}`));
        values.push(encoder.encode(runningPodStored(ns, name, i)));
      }
      const k = concat(keys);
      const v = concat(values);
      store.putMany(k.bytes, k.ends, v.bytes, v.ends);
    }
    const listApi = await this.freshApi(store);
    const path = '/api/v1/pods';
    const slowest = new Map<Impl, number>();
    for (const impl of IMPLS) {
      const seconds: number[] = [];
      let bytes = 0;
      for (let run = 0; run < this.plan.runs; run++) {
        this.tick(`${c} · ${impl} · run ${run + 1}/${this.plan.runs}`);
        let r: { seconds: number; bytes: number };
        if (impl === 'in-process') {
          const start = performance.now();
          const res = await listApi.handle(
            new Request(`https://kubewasm.invalid${path}`, {
              headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' },
            }),
          );
          if (res.status !== 200) throw new Error(`bench api: LIST ${path}: HTTP ${res.status}: ${await res.text()}`);
          r = { seconds: 0, bytes: await countBytes(res) };
          r.seconds = (performance.now() - start) / 1000;
        } else {
          const protocol = PROTOCOL[impl];
          r = (await this.thread.call({ kind: 'get', protocol, target: this.servers.target(protocol), path })) as {
            seconds: number;
            bytes: number;
          };
        }
        seconds.push(r.seconds);
        bytes = r.bytes;
      }
      const note = `${n.toLocaleString('en-US')} running pods in ${LIST_ALL_NAMESPACES} namespaces, one page, JSON; median of ${this.plan.runs}`;
      this.row(c, impl, 'seconds', median(seconds), 's', note);
      this.row(c, impl, 'bytes', bytes / 1e6, 'MB', `${Math.round(bytes / n)} B per pod`);
      slowest.set(impl, Math.max(...seconds));
    }
    await this.closeStorage();
    return slowest;
  }

  /**
   * Watch delivery: WATCHERS watches of one namespace, then `events` pods created straight into
   * storage (the apiserver's watch path is what is measured, not its create path), paced so no
   * watcher falls WATCH_WINDOW events behind. Time from the first write to the last event at the
   * slowest watcher.
   */
  private async watchRows(): Promise<void> {
    const events = this.plan.watchEvents;
    const c = `watch-${events / 1000}k-events-${WATCHERS}w`;
    for (const { impl, protocol, server, note: how } of WATCH_IMPLS) {
      const seconds: number[] = [];
      for (let run = 0; run < this.plan.watchRuns; run++) {
        this.tick(`${c} · ${impl} · run ${run + 1}/${this.plan.watchRuns}`);
        const api = await this.freshApi();
        const storage = this.storage as WasmStorage;
        await createNamespace(inProcessSender(api, TOKEN), WATCH_NS);
        const rv = await storage.currentRevision();
        const path = `/api/v1/namespaces/${WATCH_NS}/pods?watch=true&resourceVersion=${rv}&timeoutSeconds=3600`;
        let slowest = 0;
        let done: Promise<number>;
        let stopInProcess = () => {};
        if (protocol === undefined || server === undefined) {
          const counters = Array.from({ length: WATCHERS }, () => new LineCounter());
          const readers = await Promise.all(
            counters.map(async () => {
              const res = await api.handle(
                new Request(`https://kubewasm.invalid${path}`, {
                  headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' },
                }),
              );
              if (res.status !== 200 || res.body === null) throw new Error(`bench api: watch: HTTP ${res.status}`);
              return res.body.getReader();
            }),
          );
          stopInProcess = () => {
            for (const r of readers) r.cancel().catch(() => {});
          };
          done = (async () => {
            let lastRead = performance.now();
            const stall = setInterval(() => {
              if (performance.now() - lastRead < WATCH_STALL_MS) return;
              for (const r of readers) r.cancel().catch(() => {});
            }, 1000);
            try {
              await Promise.all(
                readers.map(async (reader, i) => {
                  const counter = counters[i] as LineCounter;
                  while (counter.count < events) {
                    const { done: end, value } = await reader.read();
                    if (end) throw new Error(`bench api: watch ended after ${counter.count} of ${events} events`);
                    counter.add(value);
                    lastRead = performance.now();
                    slowest = Math.min(...counters.map((x) => x.count));
                  }
                }),
              );
            } finally {
              clearInterval(stall);
            }
            return wallMs();
          })();
        } else {
          let ready!: () => void;
          const isReady = new Promise<void>((r) => {
            ready = r;
          });
          done = this.thread
            .call(
              { kind: 'watch', protocol, target: this.servers.target(server), path, watchers: WATCHERS, events },
              (p: WatchProgress) => {
                if (p.ready) ready();
                slowest = p.slowest;
              },
            )
            .then((a) => (a as { doneAt: number }).doneAt);
          await Promise.race([isReady, done]);
        }
        // A failed watch side ends the writer too (it would wait for the watchers forever).
        let failure: unknown;
        done.catch((err: unknown) => {
          failure = err;
        });
        const start = wallMs();
        await writeWatched(
          storage,
          events,
          () => {
            if (failure !== undefined) throw failure;
            return slowest;
          },
          (n) => this.progress(`${c} · ${impl} · run ${run + 1}/${this.plan.watchRuns} ${progressBar(n, events)}`),
        );
        const doneAt = await done;
        stopInProcess();
        seconds.push((doneAt - start) / 1000);
      }
      const s = median(seconds);
      const subset =
        events < ISSUE_WATCH_EVENTS
          ? `; ${events.toLocaleString('en-US')} of the issue's ${ISSUE_WATCH_EVENTS.toLocaleString('en-US')} events`
          : '';
      const note = `${how}; ≈2.8 KB pods${subset}${protocol !== undefined && this.socketNote ? `; ${this.socketNote}` : ''}`;
      this.row(c, impl, 'events_per_s', events / s, 'events/s', note);
      this.row(c, impl, 'deliveries_per_s', (events * WATCHERS) / s, 'events/s', `events × ${WATCHERS} watchers`);
    }
    await this.closeStorage();
  }
}

/** Creates `events` pods in WATCH_NS straight into storage, keeping within WATCH_WINDOW of the slowest watcher. */
async function writeWatched(
  storage: WasmStorage,
  events: number,
  slowest: () => number,
  onProgress: (n: number) => void,
): Promise<void> {
  const BATCH = 100;
  for (let i = 0; i < events; i += BATCH) {
    while (i - slowest() > WATCH_WINDOW) await new Promise((r) => setTimeout(r, 1));
    for (let j = i; j < Math.min(events, i + BATCH); j++) {
      const name = `web-7d4b9c8f5d-${j.toString(36).padStart(5, '0')}`;
      await storage.create(`/registry/pods/${WATCH_NS}/${name}`, encoder.encode(runningPodStored(WATCH_NS, name, j)));
    }
    if (i % 5000 === 0) onProgress(i);
    // Let the sockets and the watch streams move.
    await new Promise((r) => setImmediate(r));
  }
}

async function expectStatus(answer: Promise<{ status: number; error?: string }>, status: number): Promise<void> {
  const a = await answer;
  if (a.status !== status) throw new Error(`bench api: HTTP ${a.status}, expected ${status}: ${a.error ?? ''}`);
}

/** Byte strings concatenated, with each one's end offset (putMany's layout). */
function concat(parts: Uint8Array[]): { bytes: Uint8Array; ends: Uint32Array } {
  const ends = new Uint32Array(parts.length);
  let total = 0;
  parts.forEach((p, i) => {
    total += p.length;
    ends[i] = total;
  });
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, ends };
}

function apiChart(rows: BenchRow[]): string {
  return logBarChart(
    rows.filter((r) => !r.case.startsWith('target-')),
    {
      title: 'kubewasm bench api — pods: requests/s by op and concurrent clients (log scale)',
      subtitle:
        'in-process: handle(new Request) · https-h1: node/https.ts, keep-alive · https-h2: node/http2.ts, one connection',
      metric: 'req_per_s',
      series: [
        { impl: 'in-process', label: 'in-process handle()', short: 'in-process', color: '#2563eb' },
        { impl: 'https-h1', label: 'HTTPS/1.1 (node/https.ts)', short: 'https-h1', color: '#f59e0b' },
        { impl: 'https-h2', label: 'HTTP/2 over TLS (node/http2.ts)', short: 'https-h2', color: '#10b981' },
      ],
    },
  );
}
