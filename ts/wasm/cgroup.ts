/**
 * The kubelet's and the runtime's resource math for whole pods (crates/cgroup through
 * crates/wasm/src/cgroup.rs): v1 Pods and a node config in; QoS class, requests and limits, the
 * pod cgroup, each container's CRI resources, OCI fragment and cgroup v2 files out, plus the node's
 * QoS tier cgroups. One call per batch of pods; JSON crosses the boundary once each way.
 */
import * as glue from '../../build/wasm/kubewasm.js';
import { callWasm, KubewasmError } from './errors.js';

// ---- Input: the slice of a v1 Pod the math reads (a full Pod object is accepted as it is) ----

/** A `resource.Quantity` as JSON: text such as "500m" or "1Gi"; a bare number also parses. */
export type QuantityValue = string | number;

/** `v1.ResourceList`: resource name → quantity. */
export type ResourceQuantities = Readonly<Record<string, QuantityValue>>;

/** The fields of a `v1.Container` the math reads. */
export interface CgroupContainer {
  name: string;
  resources?: { requests?: ResourceQuantities; limits?: ResourceQuantities };
  /** On an init container, "Always" makes it a sidecar (restartable init container). */
  restartPolicy?: string;
}

/** The fields of a `v1.Pod` the math reads; unknown fields are ignored, so pass real Pods. */
export interface CgroupPod {
  metadata?: {
    /** Names the pod cgroup, `pod<uid>`. */
    uid?: string;
    name?: string;
    namespace?: string;
    /** `kubernetes.io/config.mirror` / `kubernetes.io/config.source` mark static and mirror pods. */
    annotations?: Readonly<Record<string, string>>;
  };
  spec: {
    containers: readonly CgroupContainer[];
    initContainers?: readonly CgroupContainer[];
    /** RuntimeClass overhead. */
    overhead?: ResourceQuantities;
    priority?: number;
    priorityClassName?: string;
    hostNetwork?: boolean;
    hostPID?: boolean;
    hostIPC?: boolean;
    shareProcessNamespace?: boolean;
  };
}

/** The node and kubelet settings (crates/cgroup `NodeConfig`); all but `memoryCapacity` optional. */
export interface CgroupNodeConfig {
  /** Node memory in bytes (for OOM scores); must be > 0. */
  memoryCapacity: number;
  /** Allocatable memory in bytes, memory.high's ceiling without a limit (default: the capacity). */
  allocatableMemory?: number;
  /** `cpuCFSQuota`: enforce CPU limits (default true). */
  cpuCfsQuota?: boolean;
  /** `cpuCFSQuotaPeriod` in µs (default 100000, range 1000–1000000). */
  cpuCfsQuotaPeriodUs?: number;
  /** The MemoryQoS feature gate, cgroup v2 only (default false). */
  enforceMemoryQos?: boolean;
  /** Which kubelet's MemoryQoS: 1.27–1.36 ('legacy', default) or 1.37's memoryReservationPolicy. */
  memoryQosPolicy?: 'legacy' | 'noReservation' | 'tieredReservation';
  /** `memoryThrottlingFactor` in (0, 1] (default 0.9; null: none, as in Kubernetes 1.37). */
  memoryThrottlingFactor?: number | null;
  /** OS page size in bytes (default 4096). */
  pageSize?: number;
  /** `cgroupDriver` (default 'systemd'). */
  cgroupDriver?: 'systemd' | 'cgroupfs';
  /** cgroup v2 (default true). */
  cgroupV2?: boolean;
  /** `singleProcessOOMKill` (default false: memory.oom.group=1 on v2). */
  singleProcessOomKill?: boolean;
  /** The runtime's shares → cpu.weight: 'linear' (runc < 1.3.2, default) or 'logQuadratic'. */
  weightFormula?: 'linear' | 'logQuadratic';
  /** Apply API defaulting first (requests default to limits; default true). */
  applyApiDefaults?: boolean;
}

// ---- Output ----
// Byte counts are JSON numbers, exact below 2^53 (8 PiB); the cgroup files carry exact text.

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** The cgroup v2 files the values become. */
export type CgroupFileName = 'cpu.weight' | 'cpu.max' | 'memory.max' | 'memory.min' | 'memory.low' | 'memory.high';

/** File name → content, only for the files that are written, e.g. `{'cpu.max': '50000 100000'}`. */
export type CgroupFiles = Partial<Record<CgroupFileName, string>>;

/** The kubelet's `ResourceConfig` of a pod or QoS tier cgroup; absent controls are left alone. */
export interface ResourceConfig {
  cpuShares?: number;
  /** µs; -1 is unlimited. */
  cpuQuota?: number;
  cpuPeriod?: number;
  /** Memory limit in bytes. */
  memory?: number;
  /** Page size in bytes (as a decimal key) → limit in bytes. */
  hugepageLimits: Record<string, number>;
  /** cgroup v2 files set verbatim (memory.min, …). */
  unified: Record<string, string>;
}

/** The pod's requests as kube-scheduler counts them. */
export interface SchedulerRequests {
  milliCpu: number;
  memory: number;
  /** With 100m for each container that names no CPU request. */
  nonZeroMilliCpu: number;
  /** With 200Mi for each container that names no memory request. */
  nonZeroMemory: number;
}

/** CRI `LinuxContainerResources` as the kubelet sends it; 0 is unset. */
export interface CriLinuxResources {
  cpuPeriod: number;
  cpuQuota: number;
  cpuShares: number;
  memoryLimitInBytes: number;
  oomScoreAdj: number;
  unified: Record<string, string>;
}

/** An OCI runtime-spec `LinuxNamespace`. */
export interface OciNamespace {
  type: 'pid' | 'network' | 'mount' | 'ipc' | 'uts' | 'cgroup';
  /** Joined namespace; absent for a new one. */
  path?: string;
}

/**
 * The runtime-spec fragment containerd generates for a container. Joined namespaces name the
 * pod sandbox as `/proc/0/ns/…`: the simulation has no sandbox process, so its pid is 0.
 */
export interface OciFragment {
  process: { oomScoreAdj: number };
  linux: {
    cgroupsPath: string;
    namespaces: OciNamespace[];
    resources: {
      cpu?: { shares?: number; quota?: number; period?: number };
      memory?: { limit?: number; swap?: number };
      unified?: Record<string, string>;
    };
  };
}

/** One container's values. */
export interface ContainerCgroups {
  name: string;
  /** An init container (sidecar or not). */
  init: boolean;
  /** A restartable init container. */
  sidecar: boolean;
  resources: CriLinuxResources;
  oci: OciFragment;
  /** What runc writes (cpu.weight by the node's `weightFormula`). */
  files: CgroupFiles;
}

/** Everything about one pod. */
export interface PodCgroups {
  uid: string;
  name: string;
  namespace: string;
  qosClass: QosClass;
  /** `PodRequests` (overhead included), each quantity in Kubernetes' text form. */
  requests: Record<string, string>;
  /** `PodLimits`. */
  limits: Record<string, string>;
  scheduler: SchedulerRequests;
  /** e.g. ['kubepods', 'burstable', 'pod1234-abcd']. */
  cgroupName: string[];
  /** The pod cgroup for the node's driver, e.g. '/kubepods/burstable/pod1234-abcd'. */
  cgroupPath: string;
  config: ResourceConfig;
  /** What the kubelet writes to the pod cgroup (linear cpu.weight). */
  files: CgroupFiles;
  /** Init containers in order, then regular containers. */
  containers: ContainerCgroups[];
}

/** Codes a pod's slot can carry (crates/cgroup CgroupError). */
export type CgroupErrorCode =
  | 'E_QUANTITY_FORMAT'
  | 'E_QUANTITY_RANGE'
  | 'E_NEGATIVE_QUANTITY'
  | 'E_REQUEST_EXCEEDS_LIMIT'
  | 'E_INVALID_CGROUP_NAME'
  | 'E_NO_CONTAINERS'
  | 'E_DUPLICATE_CONTAINER';

/** The slot of a pod the math rejected. */
export interface PodCgroupsError {
  uid: string;
  name: string;
  namespace: string;
  error: { code: CgroupErrorCode; message: string };
}

/** A QoS tier cgroup of the node: `/kubepods`, its `burstable` and `besteffort` children. */
export interface TierCgroup {
  path: string;
  config: ResourceConfig;
  files: CgroupFiles;
}

/** A batch's answer: one slot per input pod, in order, and the tiers over the valid pods. */
export interface NodeCgroups {
  pods: Array<PodCgroups | PodCgroupsError>;
  kubepods: TierCgroup;
  burstable: TierCgroup;
  besteffort: TierCgroup;
}

/** Narrows a slot of `NodeCgroups.pods`. */
export function isPodCgroupsError(slot: PodCgroups | PodCgroupsError): slot is PodCgroupsError {
  return 'error' in slot;
}

export interface CgroupApi {
  /**
   * Pod cgroups for many pods on one node. Throws KubewasmError for a bad node config
   * (E_BAD_JSON, E_INVALID_CAPACITY, …); an invalid pod gets an error in its own slot.
   * @example kw.podCgroups([pod], { memoryCapacity: 16 * 2 ** 30 }).pods[0]
   */
  podCgroups(pods: readonly CgroupPod[], node: CgroupNodeConfig): NodeCgroups;
  /** The same from the JSON text of a Pod array as it came off the wire (E_BAD_JSON if malformed). */
  podCgroupsFromJson(podsJson: string, node: CgroupNodeConfig): NodeCgroups;
  /** JSON text in and out, for callers that pass the answer on as text (`NodeCgroups` JSON). */
  podCgroupsJson(podsJson: string, node: CgroupNodeConfig): string;
  /** One pod; throws KubewasmError with the pod's code when it is invalid. */
  podCgroup(pod: CgroupPod, node: CgroupNodeConfig): PodCgroups;
  /** A quantity as Kubernetes prints it (`String()`): "1.5Gi" → "1536Mi", "1000m" → "1". */
  quantityCanonical(quantity: string): string;
}

/** Builds the cgroup half of the typed API over an initialised glue module. */
export function bindCgroup(): CgroupApi {
  // The pods cross as UTF-8 bytes: one copy into wasm memory, where a string would be copied
  // character by character by the glue.
  const encoder = new TextEncoder();
  const toJson = (podsJson: string, node: CgroupNodeConfig): string =>
    callWasm(() => glue.podCgroupsBytes(encoder.encode(podsJson), JSON.stringify(node)));
  const fromJson = (podsJson: string, node: CgroupNodeConfig): NodeCgroups =>
    JSON.parse(toJson(podsJson, node)) as NodeCgroups;
  return {
    podCgroups: (pods, node) => fromJson(JSON.stringify(pods), node),
    podCgroupsFromJson: fromJson,
    podCgroupsJson: toJson,
    podCgroup(pod, node) {
      const slot = fromJson(JSON.stringify([pod]), node).pods[0];
      if (slot === undefined) throw new KubewasmError('E_BAD_JSON', 'no result for the pod');
      if (isPodCgroupsError(slot)) throw new KubewasmError(slot.error.code, slot.error.message);
      return slot;
    },
    quantityCanonical: (quantity) => callWasm(() => glue.quantityCanonical(quantity)),
  };
}
