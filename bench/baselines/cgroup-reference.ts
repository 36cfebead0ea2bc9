/**
 * The benchmark baseline for `kubewasm bench cgroup`: the kubelet's per-pod cgroup math written
 * plainly in TypeScript, from the same v1 Pod JSON the wasm entry point reads. It computes the
 * QoS class, the pod cgroup path and its cpu.shares / cfs quota / cpu.weight / cpu.max /
 * memory.max, and per container the CRI cpu shares, quota, period, memory limit, OOM score adjust,
 * both cpu.weight formulas, cpu.max and memory.max. Not modelled (the wasm core does them):
 * MemoryQoS, hugepages, the OCI fragment, scheduler requests, QoS tier cgroups.
 *
 * Quantities are exact, as in Kubernetes: a parsed quantity is a bigint count of nano-units
 * (ParseQuantity rounds up to 1e-9), so sums and comparisons are exact and MilliValue()/Value()
 * round up at the end.
 */
import type { CgroupContainer, CgroupNodeConfig, CgroupPod, QosClass } from '../../ts/wasm/cgroup.js';

// pkg/kubelet/cm/helpers_linux.go
const MIN_SHARES = 2;
const MAX_SHARES = 262_144;
const QUOTA_PERIOD = 100_000;
const MIN_QUOTA_PERIOD = 1_000;
// opencontainers/cgroups utils.go / kubelet getCPUWeight
const MAX_WEIGHT = 10_000;
// pkg/kubelet/qos/policy.go
const GUARANTEED_OOM_SCORE_ADJ = -997;
const BESTEFFORT_OOM_SCORE_ADJ = 1000;
// pkg/apis/scheduling/types.go
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
const SYSTEM_NODE_CRITICAL = 'system-node-critical';

/** A per-pod failure, with the wasm core's code. */
export class CgroupReferenceError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export interface ReferenceContainer {
  name: string;
  init: boolean;
  sidecar: boolean;
  cpuShares: number;
  /** 0 without a limit or with CFS quota off. */
  cpuQuota: number;
  /** 0 with CFS quota off. */
  cpuPeriod: number;
  memoryLimitInBytes: number;
  oomScoreAdj: number;
  /** cpu.weight, kubelet/runc < 1.3.2 linear formula. */
  cpuWeight: number;
  /** cpu.weight, runc ≥ 1.3.2 log-quadratic formula. */
  cpuWeightLogQuadratic: number;
  cpuMax?: string;
  memoryMax?: string;
}

export interface ReferencePod {
  uid: string;
  qosClass: QosClass;
  cgroupPath: string;
  cpuShares: number;
  cpuQuota?: number;
  cpuPeriod?: number;
  memory?: number;
  cpuWeight: number;
  cpuMax?: string;
  memoryMax?: string;
  containers: ReferenceContainer[];
}

export type ReferenceResult = ReferencePod | { uid: string; error: { code: string } };

// ---- Quantities ----

const NANO = 1_000_000_000n;
const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const QUANTITY = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([a-zA-Z]*)([-+]?[0-9]*)$/;

/** `ParseQuantity` as nano-units, rounded up: "1.5Gi" → 1610612736000000000n. */
export function parseNano(value: string | number): bigint {
  const text = String(value).trim();
  const m = QUANTITY.exec(text);
  const [, sign = '', integer = '', fraction = '', suffix = '', exponent = ''] = m ?? [];
  if (!m || integer + fraction === '') throw new CgroupReferenceError('E_QUANTITY_FORMAT');
  let num = BigInt(integer + fraction);
  let den = 10n ** BigInt(fraction.length);
  if (Object.hasOwn(BINARY_SUFFIX, suffix) && exponent === '') {
    num *= 2n ** BigInt(BINARY_SUFFIX[suffix] ?? 0);
  } else {
    let power: number;
    if ((suffix === 'e' || suffix === 'E') && /^[-+]?[0-9]+$/.test(exponent)) power = Number(exponent);
    else if (Object.hasOwn(DECIMAL_SUFFIX, suffix) && exponent === '') power = DECIMAL_SUFFIX[suffix] ?? 0;
    else throw new CgroupReferenceError('E_QUANTITY_FORMAT');
    if (power >= 0) num *= 10n ** BigInt(power);
    else den *= 10n ** BigInt(-power);
  }
  const nano = ceilDiv(num * NANO, den);
  return sign === '-' ? -nano : nano;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** `MilliValue()` of a nano count (rounding away from zero). */
function milli(nano: bigint): number {
  return Number(nano >= 0n ? ceilDiv(nano, 1_000_000n) : -ceilDiv(-nano, 1_000_000n));
}

/** `Value()` of a nano count. */
function whole(nano: bigint): number {
  return Number(nano >= 0n ? ceilDiv(nano, NANO) : -ceilDiv(-nano, NANO));
}

type List = Map<string, bigint>;

function parseList(list: Readonly<Record<string, string | number>> | undefined): List {
  const out: List = new Map();
  for (const [name, value] of Object.entries(list ?? {})) out.set(name, parseNano(value));
  return out;
}

function addInto(into: List, from: List): void {
  for (const [name, value] of from) into.set(name, (into.get(name) ?? 0n) + value);
}

function maxInto(into: List, from: List): void {
  for (const [name, value] of from) {
    const current = into.get(name);
    if (current === undefined || value > current) into.set(name, value);
  }
}

// ---- The pod ----

interface Container {
  name: string;
  requests: List;
  limits: List;
  restartable: boolean;
}

function readContainer(c: CgroupContainer, applyDefaults: boolean): Container {
  const requests = parseList(c.resources?.requests);
  const limits = parseList(c.resources?.limits);
  // SetDefaults_Pod: a limit without a request becomes the request.
  if (applyDefaults) for (const [name, limit] of limits) if (!requests.has(name)) requests.set(name, limit);
  return { name: c.name, requests, limits, restartable: c.restartPolicy === 'Always' };
}

function validate(all: Container[], overhead: List): void {
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.name)) throw new CgroupReferenceError('E_DUPLICATE_CONTAINER');
    seen.add(c.name);
    for (const value of [...c.requests.values(), ...c.limits.values()])
      if (value < 0n) throw new CgroupReferenceError('E_NEGATIVE_QUANTITY');
    for (const [name, request] of c.requests) {
      const limit = c.limits.get(name);
      if (limit !== undefined && request > limit) throw new CgroupReferenceError('E_REQUEST_EXCEEDS_LIMIT');
    }
  }
  for (const value of overhead.values()) if (value < 0n) throw new CgroupReferenceError('E_NEGATIVE_QUANTITY');
}

/** `GetPodQOS`: only cpu and memory count, only positive amounts. */
function qosClass(all: Container[]): QosClass {
  const requests: List = new Map();
  const limits: List = new Map();
  let guaranteed = true;
  for (const c of all) {
    for (const name of ['cpu', 'memory']) {
      const request = c.requests.get(name) ?? 0n;
      if (request > 0n) requests.set(name, (requests.get(name) ?? 0n) + request);
      const limit = c.limits.get(name) ?? 0n;
      if (limit > 0n) limits.set(name, (limits.get(name) ?? 0n) + limit);
      else guaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  for (const [name, request] of requests) if (limits.get(name) !== request) guaranteed = false;
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** `PodRequests` / `PodLimits`: regular containers and sidecars summed, init containers maxed. */
function podTotal(containers: Container[], inits: Container[], pick: (c: Container) => List): List {
  const total: List = new Map();
  for (const c of containers) addInto(total, pick(c));
  const sidecars: List = new Map();
  const initPeak: List = new Map();
  for (const c of inits) {
    if (c.restartable) {
      addInto(total, pick(c));
      addInto(sidecars, pick(c));
      maxInto(initPeak, sidecars);
    } else {
      const inUse: List = new Map(pick(c));
      addInto(inUse, sidecars);
      maxInto(initPeak, inUse);
    }
  }
  maxInto(total, initPeak);
  return total;
}

function milliCpuToShares(milliCpu: number): number {
  if (milliCpu <= 0) return MIN_SHARES;
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, Math.floor((milliCpu * 1024) / 1000)));
}

function milliCpuToQuota(milliCpu: number, period: number): number {
  if (milliCpu <= 0) return 0;
  return Math.max(MIN_QUOTA_PERIOD, Math.floor((milliCpu * period) / 1000));
}

/** kubelet `getCPUWeight` (and runc before 1.3.2). */
export function cpuWeightLinear(shares: number): number {
  if (shares >= MAX_SHARES) return MAX_WEIGHT;
  return 1 + Math.floor((Math.max(0, shares - MIN_SHARES) * (MAX_WEIGHT - 1)) / (MAX_SHARES - MIN_SHARES));
}

/** runc ≥ 1.3.2 `ConvertCPUSharesToCgroupV2Value`. */
export function cpuWeightLogQuadratic(shares: number): number {
  if (shares === 0) return 0;
  if (shares <= MIN_SHARES) return 1;
  if (shares >= MAX_SHARES) return MAX_WEIGHT;
  const l = Math.log2(shares);
  return Math.ceil(10 ** ((l * l + 125 * l) / 612 - 7 / 34));
}

/** runc fs2 cpu.max from quota and period (0 = unset). */
function cpuMax(quota: number, period: number): string | undefined {
  if (quota === 0 && period === 0) return undefined;
  return `${quota > 0 ? quota : 'max'} ${period === 0 ? QUOTA_PERIOD : period}`;
}

/** `GetPodContainerName` + `ToCgroupfs` / `ToSystemd`. */
function podCgroupPath(qos: QosClass, uid: string, driver: 'systemd' | 'cgroupfs'): string {
  const podPart = `pod${uid}`;
  if (podPart.includes('/') || podPart.includes('_')) throw new CgroupReferenceError('E_INVALID_CGROUP_NAME');
  const parts = ['kubepods'];
  if (qos === 'Burstable') parts.push('burstable');
  if (qos === 'BestEffort') parts.push('besteffort');
  parts.push(podPart);
  if (driver === 'cgroupfs') return `/${parts.join('/')}`;
  // Escape '-' as '_', join with '-', then expand the slice into its parents.
  const escaped = parts.map((p) => p.replaceAll('-', '_'));
  return escaped.map((_, i) => `/${escaped.slice(0, i + 1).join('-')}.slice`).join('');
}

/** `GetContainerOOMScoreAdjust`, with the sidecar rule. */
function oomScoreAdj(
  qos: QosClass,
  nodeCritical: boolean,
  container: Container,
  sidecar: boolean,
  regular: Container[],
  capacity: number,
): number {
  if (nodeCritical || qos === 'Guaranteed') return GUARANTEED_OOM_SCORE_ADJ;
  if (qos === 'BestEffort') return BESTEFFORT_OOM_SCORE_ADJ;
  const cap = BigInt(capacity);
  const burstable = (memory: bigint) => 1000 - Number((1000n * memory) / cap);
  let score = burstable(BigInt(whole(container.requests.get('memory') ?? 0n)));
  if (sidecar) {
    const smallest = regular.reduce(
      (min, c) => {
        const memory = BigInt(whole(c.requests.get('memory') ?? 0n));
        return min === undefined || memory < min ? memory : min;
      },
      undefined as bigint | undefined,
    );
    score = Math.min(score, burstable(smallest ?? 0n));
  }
  if (score < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ;
  if (score === BESTEFFORT_OOM_SCORE_ADJ) return BESTEFFORT_OOM_SCORE_ADJ - 1;
  return score;
}

/** Everything the reference computes for one pod; throws CgroupReferenceError for an invalid one. */
export function referencePod(pod: CgroupPod, node: CgroupNodeConfig): ReferencePod {
  const applyDefaults = node.applyApiDefaults ?? true;
  const cfsQuota = node.cpuCfsQuota ?? true;
  const period = node.cpuCfsQuotaPeriodUs ?? QUOTA_PERIOD;
  const uid = pod.metadata?.uid ?? '';
  const containers = pod.spec.containers.map((c) => readContainer(c, applyDefaults));
  const inits = (pod.spec.initContainers ?? []).map((c) => readContainer(c, applyDefaults));
  const overhead = parseList(pod.spec.overhead);
  if (containers.length === 0) throw new CgroupReferenceError('E_NO_CONTAINERS');
  const all = [...containers, ...inits];
  validate(all, overhead);

  const qos = qosClass(all);
  const cgroupPath = podCgroupPath(qos, uid, node.cgroupDriver ?? 'systemd');

  // ResourceConfigForPod
  const requests = podTotal(containers, inits, (c) => c.requests);
  const limits = podTotal(containers, inits, (c) => c.limits);
  addInto(requests, overhead);
  for (const [name, value] of overhead) {
    const limit = limits.get(name);
    if (limit !== undefined && limit !== 0n) limits.set(name, limit + value);
  }
  const declared = (name: string) => all.every((c) => (c.limits.get(name) ?? 0n) !== 0n);
  const shares = milliCpuToShares(milli(requests.get('cpu') ?? 0n));
  const quota = cfsQuota ? milliCpuToQuota(milli(limits.get('cpu') ?? 0n), period) : -1;
  const memoryLimit = whole(limits.get('memory') ?? 0n);
  const result: ReferencePod = { uid, qosClass: qos, cgroupPath, cpuShares: shares, cpuWeight: 0, containers: [] };
  if (qos === 'BestEffort') {
    result.cpuShares = MIN_SHARES;
  } else {
    if (qos === 'Guaranteed' || declared('cpu')) {
      result.cpuQuota = quota;
      result.cpuPeriod = period;
    }
    if (qos === 'Guaranteed' || declared('memory')) result.memory = memoryLimit;
  }
  result.cpuWeight = cpuWeightLinear(result.cpuShares);
  const podCpuMax = cpuMax(result.cpuQuota ?? 0, result.cpuPeriod ?? 0);
  if (podCpuMax !== undefined) result.cpuMax = podCpuMax;
  if (result.memory !== undefined && result.memory !== 0) result.memoryMax = String(result.memory);

  // Per container, init containers first (calculateLinuxResources + the runtime's files).
  const critical =
    (isStaticOrMirror(pod) || (pod.spec.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY) &&
    pod.spec.priorityClassName === SYSTEM_NODE_CRITICAL;
  for (const [c, init] of [...inits.map((c) => [c, true] as const), ...containers.map((c) => [c, false] as const)]) {
    const sidecar = init && c.restartable;
    const cpuRequest = c.requests.get('cpu');
    const cpuLimit = milli(c.limits.get('cpu') ?? 0n);
    const cpuShares = milliCpuToShares(cpuRequest === undefined ? cpuLimit : milli(cpuRequest));
    const memoryLimitInBytes = whole(c.limits.get('memory') ?? 0n);
    const cpuQuota = cfsQuota ? milliCpuToQuota(cpuLimit, period) : 0;
    const cpuPeriod = cfsQuota ? period : 0;
    const out: ReferenceContainer = {
      name: c.name,
      init,
      sidecar,
      cpuShares,
      cpuQuota,
      cpuPeriod,
      memoryLimitInBytes,
      oomScoreAdj: oomScoreAdj(qos, critical, c, sidecar, containers, node.memoryCapacity),
      cpuWeight: cpuWeightLinear(cpuShares),
      cpuWeightLogQuadratic: cpuWeightLogQuadratic(cpuShares),
    };
    const max = cpuMax(cpuQuota, cpuPeriod);
    if (max !== undefined) out.cpuMax = max;
    if (memoryLimitInBytes !== 0) out.memoryMax = String(memoryLimitInBytes);
    result.containers.push(out);
  }
  return result;
}

/** kubelet `IsStaticPod || IsMirrorPod`. */
function isStaticOrMirror(pod: CgroupPod): boolean {
  const annotations = pod.metadata?.annotations ?? {};
  const source = annotations['kubernetes.io/config.source'];
  return 'kubernetes.io/config.mirror' in annotations || (source !== undefined && source !== 'api');
}

/** The batch: a JSON array of Pods in, one result or error per pod out. */
export function referencePodCgroups(podsJson: string, node: CgroupNodeConfig): ReferenceResult[] {
  if (!(node.memoryCapacity > 0)) throw new CgroupReferenceError('E_INVALID_CAPACITY');
  const pods = JSON.parse(podsJson) as CgroupPod[];
  return pods.map((pod) => {
    try {
      return referencePod(pod, node);
    } catch (err) {
      if (err instanceof CgroupReferenceError) return { uid: pod.metadata?.uid ?? '', error: { code: err.code } };
      throw err;
    }
  });
}
