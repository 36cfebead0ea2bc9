/**
 * The LimitRanger admission plugin (plugin/pkg/admission/limitranger/admission.go, v1.32), for pod
 * CREATE (pod updates cannot change container resources, so they are skipped; subresources too):
 * - mutating: each LimitRange's Container `default` (limits) and `defaultRequest` (requests) fill
 *   what a container or init container leaves unset, recorded in the `kubernetes.io/limit-ranger`
 *   annotation (`LimitRanger plugin set: cpu request for container app; …`);
 * - validating: `min`, `max` and `maxLimitRequestRatio` per Container (each container and init
 *   container) and per Pod (the pod's effective requests and limits: the sum of the containers, or
 *   the largest init container if larger, sidecars counted), every violation of one LimitRange in
 *   one 403: `pods "x" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, …]`.
 * PersistentVolumeClaim limits are not enforced: PVCs are not served.
 */
import type { KubeObject } from '../../api/meta.js';
import { parseQuantity, type Quantity, quantityString } from '../../api/resource/quantity.js';
import type { LimitRangeItem, LimitRange as V1LimitRange } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { RESOURCES } from '../../client/resources.js';
import { admissionForbidden, aggregateMessage } from './chain.js';
import type { AdmissionDeps } from './deps.js';
import { listObjects } from './lister.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

// limitranger.PluginName and limitRangerAnnotation.
export const LIMIT_RANGER = 'LimitRanger';
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';
// resource.MaxMilliValue (apimachinery pkg/api/resource/quantity.go): MaxInt64 / 1000.
const MAX_MILLI_VALUE = 9_223_372_036_854_775n;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** A LimitRange as the lister hands it out (read-only, shared). */
type LimitRange = DeepReadonly<V1LimitRange>;

type ResourceList = Map<string, Quantity>;

const ZERO: Quantity = { num: 0n, den: 1n, format: 'DecimalSI' };

function quantity(v: unknown): Quantity {
  const q = parseQuantity(v);
  return 'error' in q ? ZERO : q;
}

/** A ResourceList from JSON (a value that does not parse counts as zero; validation refuses it). */
function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (isObj(v)) for (const [k, q] of Object.entries(v)) out.set(k, quantity(q));
  return out;
}

/** Rounds up to a whole number (Quantity.Value / ScaledValue round up). */
function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return q * d === n || n < 0n ? q : q + 1n;
}
const value = (q: Quantity): bigint => ceilDiv(q.num, q.den);
const milliValue = (q: Quantity): bigint => ceilDiv(q.num * 1000n, q.den);

/** requestLimitEnforcedValues: in milli-units when none would overflow, else whole units. */
function enforcedValues(req: Quantity, lim: Quantity, enforced: Quantity): [bigint, bigint, bigint] {
  const r = value(req);
  const l = value(lim);
  const e = value(enforced);
  if (r <= MAX_MILLI_VALUE && l <= MAX_MILLI_VALUE && e <= MAX_MILLI_VALUE) {
    return [milliValue(req), milliValue(lim), milliValue(enforced)];
  }
  return [r, l, e];
}

function minConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  request: ResourceList,
  limit: ResourceList,
): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = enforcedValues(req ?? ZERO, lim ?? ZERO, enforced);
  const min = quantityString(enforced);
  if (req === undefined) return `minimum ${name} usage per ${type} is ${min}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${min}, but request is ${quantityString(req)}`;
  if (lim !== undefined && l < e)
    return `minimum ${name} usage per ${type} is ${min}, but limit is ${quantityString(lim)}`;
  return undefined;
}

function maxConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  request: ResourceList,
  limit: ResourceList,
): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = enforcedValues(req ?? ZERO, lim ?? ZERO, enforced);
  const max = quantityString(enforced);
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${max}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${max}, but limit is ${quantityString(lim)}`;
  if (req !== undefined && r > e)
    return `maximum ${name} usage per ${type} is ${max}, but request is ${quantityString(req)}`;
  return undefined;
}

function limitRequestRatioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  request: ResourceList,
  limit: ResourceList,
): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l] = enforcedValues(req ?? ZERO, lim ?? ZERO, enforced);
  const ratio = quantityString(enforced);
  if (req === undefined || r === 0n) {
    return `${name} max limit to request ratio per ${type} is ${ratio}, but no request is specified or request is 0`;
  }
  if (lim === undefined || l === 0n) {
    return `${name} max limit to request ratio per ${type} is ${ratio}, but no limit is specified or limit is 0`;
  }
  let observed = Number(l) / Number(r);
  const display = observed;
  let maxRatio = Number(value(enforced));
  if (value(enforced) <= MAX_MILLI_VALUE) {
    observed *= 1000;
    maxRatio = Number(milliValue(enforced));
  }
  if (observed > maxRatio) {
    // Go's %f: six decimals.
    return `${name} max limit to request ratio per ${type} is ${ratio}, but provided ratio is ${display.toFixed(6)}`;
  }
  return undefined;
}

/** defaultContainerResourceRequirements: the Container items' defaults (later items win). */
function containerDefaults(lr: LimitRange): { requests: Map<string, unknown>; limits: Map<string, unknown> } {
  const requests = new Map<string, unknown>();
  const limits = new Map<string, unknown>();
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    for (const [k, v] of Object.entries(item.defaultRequest ?? {})) requests.set(k, v);
    for (const [k, v] of Object.entries(item.default ?? {})) limits.set(k, v);
  }
  return { requests, limits };
}

/** mergeContainerResources: fills what the container leaves unset; returns the annotation parts. */
function mergeContainer(
  c: Obj,
  defaults: { requests: Map<string, unknown>; limits: Map<string, unknown> },
  prefix: string,
): string[] {
  const resources: Obj = isObj(c.resources) ? c.resources : {};
  const fill = (field: 'requests' | 'limits', from: Map<string, unknown>): string[] => {
    const list: Obj = isObj(resources[field]) ? (resources[field] as Obj) : {};
    const set: string[] = [];
    for (const [k, v] of from) {
      if (k in list) continue;
      // The default is copied as a Quantity, serialized in its canonical form.
      list[k] = quantityString(quantity(v));
      set.push(k);
    }
    if (set.length > 0) resources[field] = list;
    return set.sort();
  };
  const setLimits = fill('limits', defaults.limits);
  const setRequests = fill('requests', defaults.requests);
  if (setLimits.length > 0 || setRequests.length > 0) c.resources = resources;
  const name = typeof c.name === 'string' ? c.name : '';
  const parts: string[] = [];
  if (setRequests.length > 0) parts.push(`${setRequests.join(', ')} request for ${prefix} ${name}`);
  if (setLimits.length > 0) parts.push(`${setLimits.join(', ')} limit for ${prefix} ${name}`);
  return parts;
}

/** PodMutateLimitFunc. */
function mutatePod(lr: LimitRange, pod: Obj): void {
  const defaults = containerDefaults(lr);
  const spec: Obj = isObj(pod.spec) ? pod.spec : {};
  const annotations = [
    ...objs(spec.containers).flatMap((c) => mergeContainer(c, defaults, 'container')),
    ...objs(spec.initContainers).flatMap((c) => mergeContainer(c, defaults, 'init container')),
  ];
  if (annotations.length === 0) return;
  const podMeta = (pod as KubeObject).metadata ?? {};
  (pod as KubeObject).metadata = podMeta;
  const meta = podMeta;
  meta.annotations = {
    ...(meta.annotations ?? {}),
    [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${annotations.join('; ')}`,
  };
}

const requestsOf = (c: Obj): ResourceList => resourceList(isObj(c.resources) ? c.resources.requests : undefined);
const limitsOf = (c: Obj): ResourceList => resourceList(isObj(c.resources) ? c.resources.limits : undefined);

function add(list: ResourceList, more: ResourceList): void {
  for (const [k, q] of more) {
    const have = list.get(k);
    list.set(
      k,
      have === undefined ? q : { num: have.num * q.den + q.num * have.den, den: have.den * q.den, format: have.format },
    );
  }
}

function max(list: ResourceList, other: ResourceList): void {
  for (const [k, q] of other) {
    const have = list.get(k);
    if (have === undefined || q.num * have.den > have.num * q.den) list.set(k, q);
  }
}

/**
 * podRequests / podLimits (resourcehelper.PodRequests without overhead or status): the containers'
 * sum, raised to any init container's need; restartable (sidecar) init containers add to the sum
 * and to what every later init container runs beside.
 */
function podResources(spec: Obj, of: (c: Obj) => ResourceList): ResourceList {
  const total: ResourceList = new Map();
  for (const c of objs(spec.containers)) add(total, of(c));
  const sidecars: ResourceList = new Map();
  const init: ResourceList = new Map();
  for (const c of objs(spec.initContainers)) {
    let need = of(c);
    if (c.restartPolicy === 'Always') {
      add(total, need);
      add(sidecars, need);
      need = new Map(sidecars);
    } else {
      const sum = new Map(need);
      add(sum, sidecars);
      need = sum;
    }
    max(init, need);
  }
  max(total, init);
  return total;
}

/** PodValidateLimitFunc: every violation of one LimitRange. */
function validatePod(lr: LimitRange, pod: Obj): string[] {
  const spec: Obj = isObj(pod.spec) ? pod.spec : {};
  const errs: string[] = [];
  const check = (item: DeepReadonly<LimitRangeItem>, type: string, requests: ResourceList, limits: ResourceList) => {
    for (const [k, v] of Object.entries(item.min ?? {})) {
      const e = minConstraint(type, k, quantity(v), requests, limits);
      if (e !== undefined) errs.push(e);
    }
    for (const [k, v] of Object.entries(item.max ?? {})) {
      const e = maxConstraint(type, k, quantity(v), requests, limits);
      if (e !== undefined) errs.push(e);
    }
    for (const [k, v] of Object.entries(item.maxLimitRequestRatio ?? {})) {
      const e = limitRequestRatioConstraint(type, k, quantity(v), requests, limits);
      if (e !== undefined) errs.push(e);
    }
  };
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...objs(spec.containers), ...objs(spec.initContainers)]) {
        check(item, 'Container', requestsOf(c), limitsOf(c));
      }
    }
    if (item.type === 'Pod') check(item, 'Pod', podResources(spec, requestsOf), podResources(spec, limitsOf));
  }
  return errs;
}

/** SupportsAttributes: pods, not their subresources, and not pod updates. */
const supports = (a: AdmissionAttributes): boolean =>
  a.info.group === '' && a.info.resource === 'pods' && a.subresource === '' && a.operation === 'CREATE';

export function limitRangerPlugin(deps: AdmissionDeps): AdmissionPlugin {
  /** runLimitFunc: each LimitRange of the namespace in turn; the first one refused is the answer. */
  const run = async (a: AdmissionAttributes, fn: (lr: LimitRange, pod: Obj) => string[]): Promise<void> => {
    const pod = a.object;
    if (pod === undefined) return;
    // Objects being deleted are left alone.
    if ((a.oldObject as KubeObject | undefined)?.metadata?.deletionTimestamp) return;
    for (const lr of await listObjects(deps, RESOURCES.limitranges, a.namespace)) {
      const errs = fn(lr, pod);
      if (errs.length > 0) throw admissionForbidden(a, aggregateMessage(errs));
    }
  };
  return {
    name: LIMIT_RANGER,
    handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && supports(a),
    admit: (a) =>
      run(a, (lr, pod) => {
        mutatePod(lr, pod);
        return [];
      }),
    validate: (a) => run(a, validatePod),
  };
}
