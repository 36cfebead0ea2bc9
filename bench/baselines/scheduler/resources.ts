// Pod resource requests and node allocatable, as the scheduler computes them
// (k8s.io/component-helpers/resource PodRequests, framework.Resource, NodeInfo.Requested and
// NonZeroRequested). Amounts are JS numbers: milli-units for cpu, whole units otherwise.

import { addRational, compareRational, parseRational, type Rational, rationalAmount, ZERO } from './quantity.js';
import type { Container, Pod, ResourceList } from './types.js';

/** schedutil.DefaultMilliCPURequest: the cpu a container without a cpu request counts as when scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** schedutil.DefaultMemoryRequest: 200 MiB, the memory a container without a memory request counts as. */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** Resource name → amount (cpu in millicores). Absent means zero. */
export type Amounts = ReadonlyMap<string, number>;

const NATIVE_TRACKED = new Set(['cpu', 'memory', 'ephemeral-storage']);

/**
 * schedutil.IsScalarResourceName: extended resources (`example.com/gpu`), `kubernetes.io/`-prefixed
 * native resources, hugepages and attachable volumes. Names without a slash other than cpu,
 * memory, ephemeral-storage and pods are not tracked by the scheduler at all.
 */
export function isScalarResourceName(name: string): boolean {
  if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')) return true;
  if (!name.includes('/')) return false;
  return !name.startsWith('requests.');
}

/** Whether framework.Resource keeps this resource of a pod's requests. */
export function isTrackedRequest(name: string): boolean {
  return NATIVE_TRACKED.has(name) || isScalarResourceName(name);
}

type ExactList = Map<string, Rational>;

function exactList(list: ResourceList | undefined): ExactList {
  const out: ExactList = new Map();
  for (const [name, q] of Object.entries(list ?? {})) out.set(name, parseRational(q));
  return out;
}

function addInto(target: ExactList, more: ExactList): void {
  for (const [name, q] of more) target.set(name, addRational(target.get(name) ?? ZERO, q));
}

function maxInto(target: ExactList, other: ExactList): void {
  for (const [name, q] of other) {
    const cur = target.get(name);
    if (cur === undefined || compareRational(q, cur) > 0) target.set(name, q);
  }
}

export interface PodRequestOptions {
  /**
   * PodResourcesOptions.NonMissingContainerRequests with the scheduler's defaults: a container
   * whose requests lack cpu counts 100m, lacking memory counts 200Mi. (An explicit "0" stays 0.)
   */
  readonly nonMissingDefaults?: boolean;
}

function containerRequests(c: Container, opts: PodRequestOptions): ExactList {
  const reqs = exactList(c.resources?.requests);
  if (opts.nonMissingDefaults === true) {
    if (!reqs.has('cpu')) reqs.set('cpu', { numerator: BigInt(DEFAULT_MILLI_CPU_REQUEST), denominator: 1000n });
    if (!reqs.has('memory')) reqs.set('memory', { numerator: BigInt(DEFAULT_MEMORY_REQUEST), denominator: 1n });
  }
  return reqs;
}

/**
 * resourcehelper.PodRequests (without pod-level resources or in-place resize):
 * the sum of app containers and sidecars, raised to the largest init-container phase
 * (an init container's phase = itself + the sidecars started before it), plus pod overhead.
 */
export function podRequests(pod: Pod, opts: PodRequestOptions = {}): Amounts {
  const reqs: ExactList = new Map();
  for (const c of pod.spec.containers) addInto(reqs, containerRequests(c, opts));

  const sidecarsSoFar: ExactList = new Map();
  const initPhaseMax: ExactList = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const own = containerRequests(c, opts);
    let phase: ExactList;
    if (c.restartPolicy === 'Always') {
      // A sidecar keeps running: it adds to the pod's steady state and to every later init phase.
      addInto(reqs, own);
      addInto(sidecarsSoFar, own);
      phase = sidecarsSoFar;
    } else {
      phase = new Map();
      addInto(phase, own);
      addInto(phase, sidecarsSoFar);
    }
    maxInto(initPhaseMax, phase);
  }
  maxInto(reqs, initPhaseMax);
  addInto(reqs, exactList(pod.spec.overhead));

  const out = new Map<string, number>();
  for (const [name, q] of reqs) if (isTrackedRequest(name)) out.set(name, rationalAmount(name, q));
  return out;
}

/** framework.Resource from node.status.allocatable: cpu, memory, ephemeral-storage, pods, scalars. */
export function nodeAllocatable(allocatable: ResourceList | undefined): Amounts {
  const out = new Map<string, number>();
  for (const [name, q] of Object.entries(allocatable ?? {})) {
    if (isTrackedRequest(name) || name === 'pods') out.set(name, rationalAmount(name, parseRational(q)));
  }
  return out;
}

export function amount(a: Amounts, name: string): number {
  return a.get(name) ?? 0;
}

export function sumAmounts(a: Amounts, b: Amounts): Map<string, number> {
  const out = new Map(a);
  for (const [name, v] of b) out.set(name, (out.get(name) ?? 0) + v);
  return out;
}
