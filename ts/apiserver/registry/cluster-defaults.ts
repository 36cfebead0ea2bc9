/**
 * Defaults of the smaller kinds (v1.32): core/v1 SetDefaults_Endpoints and _LimitRangeItem,
 * discovery/v1 SetDefaults_EndpointPort, scheduling/v1 SetDefaults_PriorityClass, rbac/v1
 * SetDefaults_RoleBinding/_ClusterRoleBinding/_Subject — and the PriorityClasses kube-apiserver
 * creates at startup (pkg/apis/scheduling/helpers.go SystemPriorityClasses).
 */
import { newForbidden } from '../../api/status.js';
import { child, children, isObj, type Obj } from './objects.js';
import type { ResourceInfo } from './resources.js';

export function defaultEndpoints(o: Obj): void {
  for (const subset of children(o, 'subsets')) for (const port of children(subset, 'ports')) port.protocol ??= 'TCP';
}

/** SetDefaults_LimitRangeItem: Container limits default from max, requests from default then min. */
export function defaultLimitRange(o: Obj): void {
  for (const item of children(child(o, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const def: Obj = isObj(item.default) ? item.default : {};
    const defRequest: Obj = isObj(item.defaultRequest) ? item.defaultRequest : {};
    for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) def[k] ??= v;
    for (const [k, v] of Object.entries(def)) defRequest[k] ??= v;
    for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) defRequest[k] ??= v;
    // Empty maps are omitted (omitempty).
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(defRequest).length > 0) item.defaultRequest = defRequest;
  }
}

export function defaultEndpointSlice(o: Obj): void {
  for (const port of children(o, 'ports')) {
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

export function defaultPriorityClass(o: Obj): void {
  o.preemptionPolicy ??= 'PreemptLowerPriority';
  // Value has no omitempty: Go serializes a missing one as 0.
  o.value ??= 0;
}

/** Role and ClusterRole: `rules` has no omitempty, so an empty one serializes as null. */
export function defaultRules(o: Obj): void {
  o.rules ??= null;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';

export function defaultBinding(o: Obj): void {
  const ref = child(o, 'roleRef');
  if (ref.apiGroup === undefined || ref.apiGroup === '') ref.apiGroup = RBAC_GROUP;
  for (const s of children(o, 'subjects')) {
    if (s.apiGroup !== undefined && s.apiGroup !== '') continue;
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
  }
}

/** scheduling.SystemCriticalPriority: 2 × HighestUserDefinablePriority (1e9). */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** The built-in PriorityClasses, as kube-apiserver's scheduling post-start hook creates them. */
export const SYSTEM_PRIORITY_CLASSES: readonly Obj[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/**
 * The built-in PriorityClasses cannot be deleted (pkg/registry/scheduling/priorityclass/storage/
 * storage.go Delete): 403 "this is a system priority class and cannot be deleted".
 */
export function refuseSystemPriorityClassDelete(info: ResourceInfo, name: string): void {
  if (info.group !== 'scheduling.k8s.io' || info.resource !== 'priorityclasses') return;
  if (SYSTEM_PRIORITY_CLASSES.some((pc) => (pc.metadata as { name: string }).name === name)) {
    throw newForbidden(
      { group: info.group, resource: info.resource },
      name,
      'this is a system priority class and cannot be deleted',
    );
  }
}
