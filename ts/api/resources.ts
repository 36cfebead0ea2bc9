/**
 * The built-in resources this cluster serves and what the API says of each — group, version,
 * resource, kind, scope, singular name, short names, categories, verbs, subresources: what
 * discovery (metav1.APIResource) says, as kube-apiserver 1.32 registers them
 * (pkg/registry/<group>/<resource>/storage ShortNames() / Categories(), SingularQualifiedResource;
 * apiextensions-apiserver's CRD storage). One table, read by the client (ts/client's RESOURCES,
 * the informer factory) and by the apiserver, which adds how it serves each
 * (ts/apiserver/registry/resources.ts). A built-in kind is added here and in its registry folder.
 *
 * The entries keep their group, version and kind as literal types, so that ObjectOf
 * (types/object-of.ts) types them: `client.get(RESOURCES.pods, …)` answers a Pod,
 * `informerFor(RESOURCES.deployments)` is a Deployment's informer.
 */
import type { KubeObject } from './meta.js';
import type { GroupVersionKind, ObjectOf } from './types/object-of.js';

/** schema.GroupVersionResource (k8s.io/apimachinery/pkg/runtime/schema). */
export interface GroupVersionResource {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural resource name, the URL segment: `pods`. */
  resource: string;
}

/** A served resource as clients need it: its GVR, kind and scope. */
export interface ResourceType extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
}

/** The subresources this cluster serves. */
export type SubresourceName = 'binding' | 'eviction' | 'finalize' | 'log' | 'scale' | 'status' | 'token';

/** A built-in resource as discovery describes it (metav1.APIResource's facts). */
export interface BuiltinResource extends ResourceType {
  singular: string;
  shortNames: readonly string[];
  categories: readonly string[];
  /** The verbs discovery lists: all of RESOURCE_VERBS, or `create` alone for the never-stored reviews. */
  verbs: readonly string[];
  /** The subresources, `status` included (writes to the object itself then keep the stored status). */
  subresources: readonly SubresourceName[];
}

/** The object type of a resource (`RESOURCES.pods` → Pod); KubeObject for one the kind table does not type. */
export type ObjectOfResource<R extends GroupVersionResource> = R extends GroupVersionKind ? ObjectOf<R> : KubeObject;

/** The verbs of a stored resource, as discovery sorts them. */
export const RESOURCE_VERBS: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/** Create-only, never stored (the reviews, the SchedulingExplanation): discovery lists only `create`. */
const CREATE_ONLY: readonly string[] = ['create'];

interface Facts {
  /** Default: the kind in lower case. */
  singular?: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  verbs?: readonly string[];
  subresources?: readonly SubresourceName[];
}

/** The resources of one group version; each keeps its resource and kind literally. */
const groupVersion =
  <G extends string, V extends string>(group: G, version: V) =>
  <R extends string, K extends string>(
    resource: R,
    kind: K,
    namespaced: boolean,
    facts: Facts = {},
  ): BuiltinResource & { group: G; version: V; resource: R; kind: K } => ({
    group,
    version,
    resource,
    kind,
    namespaced,
    singular: facts.singular ?? kind.toLowerCase(),
    shortNames: facts.shortNames ?? [],
    categories: facts.categories ?? [],
    verbs: facts.verbs ?? RESOURCE_VERBS,
    subresources: facts.subresources ?? [],
  });

const core = groupVersion('', 'v1');
const apps = groupVersion('apps', 'v1');
const batch = groupVersion('batch', 'v1');
const rbac = groupVersion('rbac.authorization.k8s.io', 'v1');
const authn = groupVersion('authentication.k8s.io', 'v1');
const authz = groupVersion('authorization.k8s.io', 'v1');
const ALL = ['all'];

/**
 * The built-in resources by plural name, in discovery order (a resource served at two versions has
 * one entry per version: the preferred one, which is also the storage version, under the plain name).
 */
export const RESOURCES = {
  namespaces: core('namespaces', 'Namespace', false, { shortNames: ['ns'], subresources: ['finalize', 'status'] }),
  configmaps: core('configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  secrets: core('secrets', 'Secret', true),
  serviceaccounts: core('serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'], subresources: ['token'] }),
  pods: core('pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ALL,
    subresources: ['binding', 'eviction', 'log', 'status'],
  }),
  nodes: core('nodes', 'Node', false, { shortNames: ['no'], subresources: ['status'] }),
  services: core('services', 'Service', true, { shortNames: ['svc'], categories: ALL, subresources: ['status'] }),
  events: core('events', 'Event', true, { shortNames: ['ev'] }),
  deployments: apps('deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    categories: ALL,
    subresources: ['scale', 'status'],
  }),
  endpoints: core('endpoints', 'Endpoints', true, { singular: 'endpoints', shortNames: ['ep'] }),
  // pkg/registry/core/replicationcontroller/storage/storage.go: ShortNames rc, Categories all.
  replicationcontrollers: core('replicationcontrollers', 'ReplicationController', true, {
    shortNames: ['rc'],
    categories: ALL,
    subresources: ['scale', 'status'],
  }),
  limitranges: core('limitranges', 'LimitRange', true, { shortNames: ['limits'] }),
  resourcequotas: core('resourcequotas', 'ResourceQuota', true, { shortNames: ['quota'], subresources: ['status'] }),
  persistentvolumeclaims: core('persistentvolumeclaims', 'PersistentVolumeClaim', true, {
    shortNames: ['pvc'],
    subresources: ['status'],
  }),
  persistentvolumes: core('persistentvolumes', 'PersistentVolume', false, {
    shortNames: ['pv'],
    subresources: ['status'],
  }),
  replicasets: apps('replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    categories: ALL,
    subresources: ['scale', 'status'],
  }),
  controllerrevisions: apps('controllerrevisions', 'ControllerRevision', true),
  daemonsets: apps('daemonsets', 'DaemonSet', true, { shortNames: ['ds'], categories: ALL, subresources: ['status'] }),
  statefulsets: apps('statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    categories: ALL,
    subresources: ['scale', 'status'],
  }),
  jobs: batch('jobs', 'Job', true, { categories: ALL, subresources: ['status'] }),
  cronjobs: batch('cronjobs', 'CronJob', true, { shortNames: ['cj'], categories: ALL, subresources: ['status'] }),
  leases: groupVersion('coordination.k8s.io', 'v1')('leases', 'Lease', true),
  endpointslices: groupVersion('discovery.k8s.io', 'v1')('endpointslices', 'EndpointSlice', true),
  // autoscaling/v2 first: the preferred version, and the one HPAs are stored in.
  horizontalpodautoscalers: groupVersion('autoscaling', 'v2')(
    'horizontalpodautoscalers',
    'HorizontalPodAutoscaler',
    true,
    {
      shortNames: ['hpa'],
      categories: ALL,
      subresources: ['status'],
    },
  ),
  horizontalpodautoscalersV1: groupVersion('autoscaling', 'v1')(
    'horizontalpodautoscalers',
    'HorizontalPodAutoscaler',
    true,
    { shortNames: ['hpa'], categories: ALL, subresources: ['status'] },
  ),
  poddisruptionbudgets: groupVersion('policy', 'v1')('poddisruptionbudgets', 'PodDisruptionBudget', true, {
    shortNames: ['pdb'],
    subresources: ['status'],
  }),
  priorityclasses: groupVersion('scheduling.k8s.io', 'v1')('priorityclasses', 'PriorityClass', false, {
    shortNames: ['pc'],
  }),
  storageclasses: groupVersion('storage.k8s.io', 'v1')('storageclasses', 'StorageClass', false, { shortNames: ['sc'] }),
  roles: rbac('roles', 'Role', true),
  rolebindings: rbac('rolebindings', 'RoleBinding', true),
  clusterroles: rbac('clusterroles', 'ClusterRole', false),
  clusterrolebindings: rbac('clusterrolebindings', 'ClusterRoleBinding', false),
  // apiextensions-apiserver's CRD storage (pkg/registry/customresourcedefinition/etcd.go ShortNames, Categories).
  customresourcedefinitions: groupVersion('apiextensions.k8s.io', 'v1')(
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    { shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: ['status'] },
  ),
  // kubewasm's own: the live scheduler's per-node, per-plugin verdicts, answered to a create (only).
  schedulingexplanations: groupVersion('scheduling.kubewasm.io', 'v1alpha1')(
    'schedulingexplanations',
    'SchedulingExplanation',
    false,
    { verbs: CREATE_ONLY },
  ),
  // pkg/registry/authentication/rest/storage_authentication.go and
  // pkg/registry/authorization/rest/storage_authorization.go: create-only, never stored.
  selfsubjectreviews: authn('selfsubjectreviews', 'SelfSubjectReview', false, { verbs: CREATE_ONLY }),
  tokenreviews: authn('tokenreviews', 'TokenReview', false, { verbs: CREATE_ONLY }),
  localsubjectaccessreviews: authz('localsubjectaccessreviews', 'LocalSubjectAccessReview', true, {
    verbs: CREATE_ONLY,
  }),
  selfsubjectaccessreviews: authz('selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, {
    verbs: CREATE_ONLY,
  }),
  selfsubjectrulesreviews: authz('selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, { verbs: CREATE_ONLY }),
  subjectaccessreviews: authz('subjectaccessreviews', 'SubjectAccessReview', false, { verbs: CREATE_ONLY }),
} as const satisfies Record<string, BuiltinResource>;

/** Every built-in resource, in discovery order. */
export const BUILTIN_RESOURCES: readonly BuiltinResource[] = Object.values(RESOURCES);

/** schema.GroupVersion.String(): `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(gv: { group: string; version: string }): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}
