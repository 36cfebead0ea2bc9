/**
 * A pod's effective requests and limits as quota charges them (pkg/api/v1/resource/helpers.go
 * PodRequests / PodLimits, v1.32, with the alpha gates off: no in-place resize status, no pod-level
 * resources): the sum of the app containers and sidecars, raised to the largest init phase (an init
 * container plus the sidecars started before it), plus the pod overhead (for limits only where a
 * limit is set). And the pod's QoS class (pkg/apis/core/v1/helper/qos GetPodQOS), for BestEffort.
 */
import { compareQuantity } from '../api/resource/quantity.js';
import { addQuantity, parseResourceList, type ResourceList } from './resource-list.js';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const objAt = (o: Obj, key: string): Obj => (isObj(o[key]) ? (o[key] as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

export const podSpec = (pod: Obj): Obj => objAt(pod, 'spec');
export const containersOf = (pod: Obj): Obj[] => list(podSpec(pod).containers);
export const initContainersOf = (pod: Obj): Obj[] => list(podSpec(pod).initContainers);

/** A container's `resources.requests` or `resources.limits`. */
export function containerResources(c: Obj, which: 'requests' | 'limits'): ResourceList {
  return parseResourceList(objAt(objAt(c, 'resources'), which));
}

/** addResourceList: adds `more` into `target`. */
function addInto(target: ResourceList, more: ResourceList): void {
  for (const [k, v] of more) {
    const cur = target.get(k);
    target.set(k, cur === undefined ? v : addQuantity(cur, v));
  }
}

/** maxResourceList: raises `target` to `other` where it is larger or missing. */
function maxInto(target: ResourceList, other: ResourceList): void {
  for (const [k, v] of other) {
    const cur = target.get(k);
    if (cur === undefined || compareQuantity(cur, v) < 0) target.set(k, v);
  }
}

function aggregate(pod: Obj, which: 'requests' | 'limits'): ResourceList {
  const result: ResourceList = new Map();
  for (const c of containersOf(pod)) addInto(result, containerResources(c, which));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of initContainersOf(pod)) {
    const own = containerResources(c, which);
    let phase: ResourceList;
    if (c.restartPolicy === 'Always') {
      // A restartable init container (sidecar) keeps running next to the app containers.
      addInto(result, own);
      addInto(sidecars, own);
      phase = sidecars;
    } else {
      phase = new Map();
      addInto(phase, own);
      addInto(phase, sidecars);
    }
    maxInto(initMax, phase);
  }
  maxInto(result, initMax);
  return result;
}

/** PodRequests with overhead. */
export function podRequests(pod: Obj): ResourceList {
  const reqs = aggregate(pod, 'requests');
  addInto(reqs, parseResourceList(podSpec(pod).overhead));
  return reqs;
}

/** PodLimits: overhead added only to the resources that have a limit. */
export function podLimits(pod: Obj): ResourceList {
  const limits = aggregate(pod, 'limits');
  for (const [k, v] of parseResourceList(podSpec(pod).overhead)) {
    const cur = limits.get(k);
    if (cur !== undefined) limits.set(k, addQuantity(cur, v));
  }
  return limits;
}

// qos.go isSupportedQoSComputeResource: cpu and memory.
const QOS_RESOURCES = new Set(['cpu', 'memory']);

/** GetPodQOS(pod) === BestEffort: no positive cpu or memory request or limit in any container. */
export function isBestEffort(pod: Obj): boolean {
  const qosClass = objAt(pod, 'status').qosClass;
  if (typeof qosClass === 'string' && qosClass !== '') return qosClass === 'BestEffort';
  for (const c of [...containersOf(pod), ...initContainersOf(pod)]) {
    for (const which of ['requests', 'limits'] as const) {
      for (const [k, v] of containerResources(c, which)) if (QOS_RESOURCES.has(k) && v.num > 0n) return false;
    }
  }
  return true;
}
