/**
 * GroupVersionResource and the resources this cluster serves. The client keeps its own table
 * (mirroring ts/apiserver/registry/resources.ts, checked by a test) so that it never imports the apiserver.
 */

export interface GroupVersionResource {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural resource name, the URL segment: `pods`. */
  resource: string;
}

/** A served resource: its GVR, kind and scope. */
export interface ResourceType extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
}

// The entries keep their literal group, version and kind, so that ObjectOf (ts/api/types) types
// them: `informerFor(RESOURCES.pods)` is Pod's informer.
const core = <R extends string, K extends string>(resource: R, kind: K, namespaced: boolean) =>
  ({ group: '', version: 'v1', resource, kind, namespaced }) as const satisfies ResourceType;

const gv =
  <G extends string, V extends string>(group: G, version: V) =>
  <R extends string, K extends string>(resource: R, kind: K, namespaced: boolean) =>
    ({ group, version, resource, kind, namespaced }) as const satisfies ResourceType;
const apps = gv('apps', 'v1');
const batch = gv('batch', 'v1');
const rbac = gv('rbac.authorization.k8s.io', 'v1');
const authz = gv('authorization.k8s.io', 'v1');

/**
 * The resources the apiserver serves, by plural name (a resource served at two versions has one
 * entry per version: the storage version under the plain name).
 */
export const RESOURCES = {
  namespaces: core('namespaces', 'Namespace', false),
  configmaps: core('configmaps', 'ConfigMap', true),
  secrets: core('secrets', 'Secret', true),
  serviceaccounts: core('serviceaccounts', 'ServiceAccount', true),
  pods: core('pods', 'Pod', true),
  nodes: core('nodes', 'Node', false),
  services: core('services', 'Service', true),
  events: core('events', 'Event', true),
  deployments: apps('deployments', 'Deployment', true),
  endpoints: core('endpoints', 'Endpoints', true),
  limitranges: core('limitranges', 'LimitRange', true),
  resourcequotas: core('resourcequotas', 'ResourceQuota', true),
  replicasets: apps('replicasets', 'ReplicaSet', true),
  daemonsets: apps('daemonsets', 'DaemonSet', true),
  statefulsets: apps('statefulsets', 'StatefulSet', true),
  jobs: batch('jobs', 'Job', true),
  cronjobs: batch('cronjobs', 'CronJob', true),
  leases: gv('coordination.k8s.io', 'v1')('leases', 'Lease', true),
  endpointslices: gv('discovery.k8s.io', 'v1')('endpointslices', 'EndpointSlice', true),
  horizontalpodautoscalers: gv('autoscaling', 'v2')('horizontalpodautoscalers', 'HorizontalPodAutoscaler', true),
  horizontalpodautoscalersV1: gv('autoscaling', 'v1')('horizontalpodautoscalers', 'HorizontalPodAutoscaler', true),
  poddisruptionbudgets: gv('policy', 'v1')('poddisruptionbudgets', 'PodDisruptionBudget', true),
  priorityclasses: gv('scheduling.k8s.io', 'v1')('priorityclasses', 'PriorityClass', false),
  roles: rbac('roles', 'Role', true),
  rolebindings: rbac('rolebindings', 'RoleBinding', true),
  clusterroles: rbac('clusterroles', 'ClusterRole', false),
  clusterrolebindings: rbac('clusterrolebindings', 'ClusterRoleBinding', false),
  customresourcedefinitions: gv('apiextensions.k8s.io', 'v1')(
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
  ),
  schedulingexplanations: gv('scheduling.kubewasm.io', 'v1alpha1')(
    'schedulingexplanations',
    'SchedulingExplanation',
    false,
  ),
  selfsubjectreviews: gv('authentication.k8s.io', 'v1')('selfsubjectreviews', 'SelfSubjectReview', false),
  tokenreviews: gv('authentication.k8s.io', 'v1')('tokenreviews', 'TokenReview', false),
  localsubjectaccessreviews: authz('localsubjectaccessreviews', 'LocalSubjectAccessReview', true),
  selfsubjectaccessreviews: authz('selfsubjectaccessreviews', 'SelfSubjectAccessReview', false),
  selfsubjectrulesreviews: authz('selfsubjectrulesreviews', 'SelfSubjectRulesReview', false),
  subjectaccessreviews: authz('subjectaccessreviews', 'SubjectAccessReview', false),
} as const satisfies Record<string, ResourceType>;

/** `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(gvr: Pick<GroupVersionResource, 'group' | 'version'>): string {
  return gvr.group === '' ? gvr.version : `${gvr.group}/${gvr.version}`;
}

/**
 * The URL path of a collection, object or subresource:
 * `/api/v1/namespaces/default/pods/p/status`, `/apis/apps/v1/deployments`, `/api/v1/nodes/n`.
 */
export function resourcePath(
  gvr: GroupVersionResource,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  let path = gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
  if (namespace !== undefined && namespace !== '') path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${gvr.resource}`;
  if (name !== undefined && name !== '') path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined && subresource !== '') path += `/${subresource}`;
  return path;
}
