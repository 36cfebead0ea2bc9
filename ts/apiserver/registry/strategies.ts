/**
 * What each kind's registry strategy does on create and update beyond the generic metadata
 * handling (pkg/registry/<group>/<kind>/strategy.go and the v1 defaulters, v1.32): status owned by
 * the status subresource, the defaults `kubectl get -o yaml` shows (pkg/apis/<group>/<version>/
 * defaults.go; one module per group in strategy/), Secret.stringData. The single entry point
 * rest.ts uses.
 */
import type { KubeObject } from '../../api/meta.js';
import {
  isCustomStrategy,
  prepareCustomCreate,
  prepareCustomStatusUpdate,
  prepareCustomUpdate,
} from './apiextensions/customresources/strategy.js';
import {
  daemonSetCreated,
  daemonSetUpdated,
  defaultDaemonSet,
  defaultDeployment,
  defaultReplicaSet,
  defaultStatefulSet,
} from './apps/defaults.js';
import { defaultHpaV1, defaultHpaV2 } from './autoscaling/horizontalpodautoscalers/strategy.js';
import { defaultCronJob, defaultJob, jobCreated } from './batch/defaults.js';
import {
  defaultBinding,
  defaultEndpointSlice,
  defaultEndpoints,
  defaultLimitRange,
  defaultPriorityClass,
  defaultRules,
} from './cluster-defaults.js';
import { applyPodDefaults, applyPodSpecDefaults, dropDisabledPodFields } from './core/pods/defaults.js';
import { child, isObj, type Obj } from './objects.js';
import type { ResourceInfo } from './resources.js';

export { refuseSystemPriorityClassDelete, SYSTEM_PRIORITY_CLASSES } from './cluster-defaults.js';

function base64Utf8(s: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Secret: stringData is write-only, merged into data (base64) and dropped (SecretV1 conversion). */
function foldStringData(o: Obj): void {
  if (!isObj(o.stringData)) {
    delete o.stringData;
    return;
  }
  const data: Obj = isObj(o.data) ? { ...o.data } : {};
  // defineProperty: a key such as __proto__ is data here, never the object's prototype.
  for (const [k, v] of Object.entries(o.stringData)) {
    Object.defineProperty(data, k, {
      value: base64Utf8(String(v)),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  o.data = data;
  delete o.stringData;
}

/** SetDefaults_* by group/version/kind. */
const DEFAULTERS: Record<string, (o: Obj) => void> = {
  '/v1/Secret': (o) => {
    if (typeof o.type !== 'string' || o.type === '') o.type = 'Opaque';
    foldStringData(o);
  },
  '/v1/Pod': (o) => {
    const spec = child(o, 'spec');
    applyPodSpecDefaults(spec);
    applyPodDefaults(spec);
  },
  '/v1/Service': (o) => {
    const spec = child(o, 'spec');
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports) {
        if (!isObj(p)) continue;
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    }
  },
  '/v1/Endpoints': defaultEndpoints,
  '/v1/LimitRange': defaultLimitRange,
  'apps/v1/Deployment': defaultDeployment,
  'apps/v1/ReplicaSet': defaultReplicaSet,
  'apps/v1/DaemonSet': defaultDaemonSet,
  'apps/v1/StatefulSet': defaultStatefulSet,
  'batch/v1/Job': defaultJob,
  'batch/v1/CronJob': defaultCronJob,
  'autoscaling/v1/HorizontalPodAutoscaler': defaultHpaV1,
  'autoscaling/v2/HorizontalPodAutoscaler': defaultHpaV2,
  'discovery.k8s.io/v1/EndpointSlice': defaultEndpointSlice,
  'scheduling.k8s.io/v1/PriorityClass': defaultPriorityClass,
  'rbac.authorization.k8s.io/v1/Role': defaultRules,
  'rbac.authorization.k8s.io/v1/ClusterRole': defaultRules,
  'rbac.authorization.k8s.io/v1/RoleBinding': defaultBinding,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': defaultBinding,
};

/**
 * The scheme's defaulting of the version `info` names, as decoding applies it: to a request's
 * object before admission and the strategy see it (rest.ts), to objects converted into the
 * version (conversion.ts).
 */
export function applyVersionDefaults(info: ResourceInfo, obj: Record<string, unknown>): void {
  DEFAULTERS[`${info.group}/${info.version}/${info.kind}`]?.(obj);
}

/** The status a new object starts with when its status belongs to the status subresource. */
function initialStatus(info: ResourceInfo): Obj {
  // The zero status as Go serializes it: the fields without omitempty show as 0 (or null).
  switch (`${info.group}/${info.version}/${info.kind}`) {
    case '/v1/Namespace':
      return { phase: 'Active' };
    case '/v1/Pod':
      return { phase: 'Pending' };
    case 'apps/v1/ReplicaSet':
      return { replicas: 0 };
    case 'apps/v1/StatefulSet':
      return { replicas: 0, availableReplicas: 0 };
    case 'apps/v1/DaemonSet':
      return { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    case 'autoscaling/v1/HorizontalPodAutoscaler':
      return { currentReplicas: 0, desiredReplicas: 0 };
    case 'autoscaling/v2/HorizontalPodAutoscaler':
      return { currentMetrics: null, desiredReplicas: 0 };
    case 'policy/v1/PodDisruptionBudget':
      return { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
    default:
      return {};
  }
}

/** PrepareForCreate (the defaults were applied when the object was decoded: applyVersionDefaults). */
export function prepareForCreate(info: ResourceInfo, obj: KubeObject): void {
  // Custom resources and CRDs: crd/strategy.ts.
  if (isCustomStrategy(info)) {
    prepareCustomCreate(info, obj);
    return;
  }
  const o = obj as Obj;
  if (info.statusOnSubresource && !info.createKeepsStatus) o.status = initialStatus(info);
  switch (`${info.group}/${info.kind}`) {
    case '/Pod':
      dropDisabledPodFields(child(o, 'spec'), undefined);
      break;
    case 'batch/Job':
      jobCreated(o);
      break;
    case 'apps/DaemonSet':
      daemonSetCreated(o);
      break;
  }
}

/** PrepareForUpdate: the stored status is kept for kinds with a status subresource. */
export function prepareForUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  if (isCustomStrategy(info)) {
    prepareCustomUpdate(info, obj, old);
    return;
  }
  const o = obj as Obj;
  if (info.statusOnSubresource) {
    const status = (old as Obj).status;
    if (status === undefined) delete o.status;
    else o.status = status;
  }
  if (info.group === 'apps' && info.kind === 'DaemonSet') daemonSetUpdated(o, old as Obj);
  if (info.group === '' && info.kind === 'Pod') {
    const oldSpec = (old as Obj).spec;
    dropDisabledPodFields(child(o, 'spec'), isObj(oldSpec) ? oldSpec : undefined);
  }
}

/**
 * The status strategies' PrepareForUpdate (`…/status` writes): everything but the status comes
 * from the stored object where Kubernetes resets it — the spec always; a pod's ownerReferences
 * (and its qosClass when the new status has none); a deployment's labels.
 */
export function prepareForStatusUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  if (isCustomStrategy(info)) {
    prepareCustomStatusUpdate(info, obj, old);
    return;
  }
  const o = obj as Obj;
  const prev = old as Obj;
  if (prev.spec === undefined) delete o.spec;
  else o.spec = structuredClone(prev.spec);
  const meta = (o.metadata ?? {}) as Obj;
  const oldMeta = (prev.metadata ?? {}) as Obj;
  const keep = (field: string): void => {
    if (oldMeta[field] === undefined) delete meta[field];
    else meta[field] = structuredClone(oldMeta[field]);
  };
  switch (`${info.group}/${info.kind}`) {
    case '/Pod': {
      keep('ownerReferences');
      const status: Obj = isObj(o.status) ? o.status : {};
      const oldStatus: Obj = isObj(prev.status) ? prev.status : {};
      if ((status.qosClass ?? '') === '' && oldStatus.qosClass !== undefined) status.qosClass = oldStatus.qosClass;
      if (o.status !== undefined || status.qosClass !== undefined) o.status = status;
      break;
    }
    case 'apps/Deployment':
      keep('labels');
      break;
  }
}

/**
 * Whether the change bumps metadata.generation, for kinds that keep one: any change outside
 * metadata and status — the spec, or for an EndpointSlice its endpoints, ports and addressType
 * (endpointSliceStrategy.PrepareForUpdate).
 */
export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const body = (o: KubeObject): Obj => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o as Obj;
    return rest;
  };
  return canonicalJson(body(obj)) !== canonicalJson(body(old));
}

/** JSON with object keys sorted, so that key order alone is no change. */
function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_key, value: unknown) =>
    isObj(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value,
  );
}
