/**
 * The typed face of the wasm core, the same in Node and in the browser. Only `ts/wasm/` touches
 * the generated glue; everything else uses the `Kubewasm` interface.
 */
import * as glue from '../../build/wasm/kubewasm.js';
import { bindCgroup, type CgroupApi } from './cgroup.js';
import { callWasm } from './errors.js';
import { SchedulerEngine, type SchedulerProfile } from './scheduler.js';
import { MvccStore, type StoreOptions } from './store.js';

/** cgroup CPU controls of one container (see crates/cgroup/src/cpu.rs). */
export interface CpuCgroupValues {
  /** cgroup v1 cpu.shares. */
  shares: number;
  /** cgroup v1 cpu.cfs_quota_us; 0 without a limit. */
  quotaUs: number;
  periodUs: number;
  /** cgroup v2 cpu.weight (kubelet linear formula). */
  weight: number;
  /** cgroup v2 cpu.max, e.g. "50000 100000" or "max 100000". */
  cpuMax: string;
}

/** Resource amounts as the scheduler counts them. */
export interface ResourceAmounts {
  milliCpu?: number;
  memory?: number;
  ephemeralStorage?: number;
  scalar?: Record<string, number>;
}

/** A node's capacity and what is already placed on it. */
export interface NodeResourceState {
  allocatable: ResourceAmounts;
  allowedPodNumber: number;
  requested?: ResourceAmounts;
  podCount?: number;
}

/** A resource a node is short of, with kube-scheduler's reason string. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

/** The kubelet's default CFS period, 100 ms (pkg/kubelet/cm/helpers_linux.go QuotaPeriod). */
export const QUOTA_PERIOD_US = 100_000;

export interface Kubewasm extends CgroupApi {
  /** cgroup CPU values for a container's request and limit quantities ("" = none). */
  cpuCgroup(request: string, limit: string, periodUs?: number): CpuCgroupValues;
  /** A Kubernetes quantity in thousandths: "1.5" → 1500n. */
  quantityMilliValue(quantity: string): bigint;
  /** kube-scheduler's NodeResourcesFit filter: what the node lacks for the pod ([] = fits). */
  nodeResourcesFit(pod: ResourceAmounts, node: NodeResourceState): InsufficientResource[];
  /** A new, empty MVCC store in wasm memory. Call `free()` when done. */
  newStore(options?: StoreOptions): MvccStore;
  /** A store rebuilt from its `snapshot()` bytes. */
  restoreStore(snapshot: Uint8Array, options?: StoreOptions): MvccStore;
  /** A kube-scheduler engine for `profile` (default profile when omitted), ties broken by `seed`. */
  newScheduler(profile?: SchedulerProfile, seed?: bigint): SchedulerEngine;
  /** Bytes of linear memory the wasm module holds now (it only grows). */
  memoryBytes(): number;
}

/** Builds the typed API over an initialised glue module. */
export function bindKubewasm(memory: WebAssembly.Memory): Kubewasm {
  return {
    memoryBytes: () => memory.buffer.byteLength,
    ...bindCgroup(),
    cpuCgroup(request, limit, periodUs = QUOTA_PERIOD_US) {
      const raw = callWasm(() => glue.cpuCgroup(request, limit, periodUs));
      try {
        const { shares, quotaUs, periodUs: period, weight, cpuMax } = raw;
        return { shares, quotaUs, periodUs: period, weight, cpuMax };
      } finally {
        raw.free();
      }
    },
    quantityMilliValue: (quantity) => callWasm(() => glue.quantityMilliValue(quantity)),
    nodeResourcesFit(pod, node) {
      const json = callWasm(() => glue.nodeResourcesFit(JSON.stringify(pod), JSON.stringify(node)));
      return JSON.parse(json) as InsufficientResource[];
    },
    newStore: (options) => MvccStore.create(options),
    restoreStore: (snapshot, options) => MvccStore.restore(snapshot, options),
    newScheduler: (profile, seed) => SchedulerEngine.create(profile, seed),
  };
}

/** Instantiates the wasm module from its bytes or compiled module, once per realm. */
export async function instantiate(source: BufferSource | WebAssembly.Module | URL): Promise<Kubewasm> {
  const { memory } = await glue.default({ module_or_path: source });
  return bindKubewasm(memory);
}
