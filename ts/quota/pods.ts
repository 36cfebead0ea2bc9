/**
 * The pod evaluator (pkg/quota/v1/evaluator/core/pods.go, v1.32): `pods`, `count/pods`, cpu and
 * memory (= their requests), `requests.*` / `limits.*` of cpu, memory and ephemeral-storage,
 * hugepages and extended resources (`requests.<name>` only), from the pod's effective requests and
 * limits; a terminal pod (Succeeded, Failed, or past its deletion grace) charges only `count/pods`.
 * Scopes: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass (In, NotIn, Exists,
 * DoesNotExist), CrossNamespacePodAffinity.
 *
 * Handles only CREATE: with InPlacePodVerticalScaling off (alpha in 1.32) a pod's resources cannot
 * change on update, so Kubernetes 1.32 does not evaluate pod updates.
 */
import { isQualifiedName } from '../api/validation/names.js';
import { type Evaluator, genericMatches, objectCountName, type ScopeSelector } from './evaluator.js';
import {
  containerResources,
  containersOf,
  initContainersOf,
  isBestEffort,
  isObj,
  objAt,
  podLimits,
  podRequests,
  podSpec,
} from './pod-resources.js';
import { add, decimal, intersection, type ResourceList } from './resource-list.js';

type Obj = Record<string, unknown>;

const POD_COUNT = objectCountName('', 'pods');

// pods.go podResources.
const POD_RESOURCES = [
  POD_COUNT,
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];
// pods.go podResourcePrefixes (v1.ResourceHugePagesPrefix, v1.ResourceRequestsHugePagesPrefix).
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
// pods.go requestedResourcePrefixes.
const REQUESTED_RESOURCE_PREFIXES = ['hugepages-'];
// v1.DefaultResourceRequestsPrefix.
const REQUESTS_PREFIX = 'requests.';
// pods.go validationSet: quota on these makes every container state them ("it was a mistake").
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

const hasPrefix = (prefixes: readonly string[], name: string): boolean => prefixes.some((p) => name.startsWith(p));

/** helper.IsNativeResource: no domain, or a `kubernetes.io/` one. */
const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** helper.IsExtendedResourceName: not native, not `requests.*`, and `requests.<name>` a qualified name. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return isQualifiedName(`${REQUESTS_PREFIX}${name}`).length === 0;
}

/** isExtendedResourceNameForQuota: only `requests.<extended>` is a quota name for an extended resource. */
const isExtendedResourceNameForQuota = (name: string): boolean =>
  !isNativeResource(name) && name.startsWith(REQUESTS_PREFIX);

/** podComputeUsageHelper: quota names from a requests and a limits list. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', decimal(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(r);
    if (request !== undefined) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    const limit = limits.get(r);
    if (limit !== undefined) out.set(`limits.${r}`, limit);
  }
  for (const [name, request] of requests) {
    if (hasPrefix(REQUESTED_RESOURCE_PREFIXES, name)) {
      out.set(name, request);
      out.set(`${REQUESTS_PREFIX}${name}`, request);
    }
    if (isExtendedResourceName(name)) out.set(`${REQUESTS_PREFIX}${name}`, request);
  }
  return out;
}

/** isTerminating: activeDeadlineSeconds set and ≥ 0. */
export function isTerminating(pod: Obj): boolean {
  const d = podSpec(pod).activeDeadlineSeconds;
  return typeof d === 'number' && d >= 0;
}

/** QuotaV1Pod: not terminal and not stuck past its deletion grace period. */
export function quotaV1Pod(pod: Obj, now: number): boolean {
  const phase = objAt(pod, 'status').phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const meta = objAt(pod, 'metadata');
  const grace = meta.deletionGracePeriodSeconds;
  if (typeof meta.deletionTimestamp === 'string' && typeof grace === 'number') {
    const deletion = Date.parse(meta.deletionTimestamp);
    if (now > deletion + grace * 1000) return false;
  }
  return true;
}

function crossNamespaceTerm(term: unknown): boolean {
  if (!isObj(term)) return false;
  return (Array.isArray(term.namespaces) && term.namespaces.length > 0) || isObj(term.namespaceSelector);
}

/** usesCrossNamespacePodAffinity: a pod (anti-)affinity term with namespaces or a namespaceSelector. */
export function usesCrossNamespacePodAffinity(pod: Obj): boolean {
  const affinity = objAt(podSpec(pod), 'affinity');
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    if (!isObj(affinity[kind])) continue;
    const a = affinity[kind] as Obj;
    const required = Array.isArray(a.requiredDuringSchedulingIgnoredDuringExecution)
      ? a.requiredDuringSchedulingIgnoredDuringExecution
      : [];
    const preferred = Array.isArray(a.preferredDuringSchedulingIgnoredDuringExecution)
      ? a.preferredDuringSchedulingIgnoredDuringExecution
      : [];
    if (required.some(crossNamespaceTerm)) return true;
    if (preferred.some((w) => isObj(w) && crossNamespaceTerm(w.podAffinityTerm))) return true;
  }
  return false;
}

/**
 * podMatchesSelector: the PriorityClass selector as a label selector over
 * `{PriorityClass: <priorityClassName>}` (no label when the pod names none).
 */
function priorityClassMatches(pod: Obj, selector: ScopeSelector): boolean {
  const name = podSpec(pod).priorityClassName;
  const has = typeof name === 'string' && name !== '';
  const values = selector.values ?? [];
  switch (selector.operator) {
    case 'In':
      return has && values.includes(name);
    case 'NotIn':
      return !has || !values.includes(name);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      // ScopedResourceSelectorRequirementsAsSelector fails; the caller treats it as no match.
      return false;
  }
}

/** podMatchesScopeFunc. */
export function podMatchesScope(selector: ScopeSelector, pod: Obj): boolean {
  switch (selector.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass':
      return priorityClassMatches(pod, selector);
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

/** PodUsageFunc: `count/pods` always; the compute resources while the pod is not terminal. */
export function podUsage(pod: Obj, now: number): ResourceList {
  const result: ResourceList = new Map([[POD_COUNT, decimal(1)]]);
  if (!quotaV1Pod(pod, now)) return result;
  return add(result, computeUsage(podRequests(pod), podLimits(pod)));
}

/** podEvaluator.Constraints: `must specify limits.cpu for: a,b; requests.memory for: c`. */
function podConstraints(required: readonly string[], pod: Obj): string | undefined {
  const requiredSet = required.filter((r) => VALIDATION_SET.has(r));
  const missing = new Map<string, Set<string>>();
  for (const c of [...containersOf(pod), ...initContainersOf(pod)]) {
    const usage = computeUsage(containerResources(c, 'requests'), containerResources(c, 'limits'));
    for (const r of requiredSet) {
      if (usage.has(r)) continue;
      const names = missing.get(r) ?? new Set<string>();
      names.add(typeof c.name === 'string' ? c.name : '');
      missing.set(r, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

export function podEvaluator(): Evaluator {
  const evaluator: Evaluator = {
    group: '',
    resource: 'pods',
    constraints: podConstraints,
    handles: (a) => a.subresource === '' && a.operation === 'CREATE',
    matches: (quota, obj) => genericMatches(evaluator, quota, obj),
    matchingResources(input) {
      const names = [...input];
      const out = intersection(names, POD_RESOURCES);
      for (const r of names) {
        if (hasPrefix(POD_RESOURCE_PREFIXES, r)) out.push(r);
        if (isExtendedResourceNameForQuota(r)) out.push(r);
      }
      return out;
    },
    matchesScope: podMatchesScope,
    usage: podUsage,
  };
  return evaluator;
}
