/**
 * The resource registry: every resource this apiserver serves, in one table. Discovery, the REST
 * handlers, field validation and Table printing all read it.
 */
import type { CustomResourceServing } from '../crd/types.js';

export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural resource name (URL segment, storage key segment). */
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** metadata.generation is kept (1 on create, +1 on every spec change). */
  generation: boolean;
  /** Top-level fields the kind has besides apiVersion, kind and metadata (for fieldValidation). */
  fields: readonly string[];
  /**
   * The kind has a status subresource: writes to the main resource keep the stored status, and
   * `…/<name>/status` writes only the status.
   */
  statusOnSubresource: boolean;
  /** The subresources served besides `status` (which follows statusOnSubresource). */
  subresources?: readonly SubresourceName[];
  /**
   * The version objects are stored in when it is not this one (autoscaling/v1 HPAs are stored as
   * autoscaling/v2); generic/versioned-storage.ts converts on the way in and out.
   */
  storageVersion?: string;
  /** The verbs discovery lists when not all of RESOURCE_VERBS (create-only reviews: `['create']`). */
  verbs?: readonly string[];
  /** A custom resource: what its CustomResourceDefinition says about serving it (crd/served.ts). */
  custom?: CustomResourceServing;
}

/** A kind served only as a subresource body (no collection, no storage of its own): Scale, Binding, TokenRequest… */
export function bodyKind(group: string, version: string, kind: string, fields: readonly string[]): ResourceInfo {
  return {
    group,
    version,
    resource: '',
    singular: '',
    kind,
    namespaced: true,
    shortNames: [],
    categories: [],
    generation: false,
    fields,
    statusOnSubresource: false,
  };
}

/** autoscaling/v1 Scale, the body of every `…/scale` subresource. */
export const SCALE_KIND: ResourceInfo = bodyKind('autoscaling', 'v1', 'Scale', ['spec', 'status']);

/** The custom resources a server serves besides RESOURCES (crd/registry.ts keeps them from the CRDs). */
export interface CustomResourceLookup {
  find(group: string, version: string, resource: string): ResourceInfo | undefined;
  /** Every served custom resource, each group's preferred version first. */
  all(): readonly ResourceInfo[];
}

/** The subresources this apiserver serves (endpoints/subresources.ts). */
export type SubresourceName = 'binding' | 'eviction' | 'finalize' | 'log' | 'scale' | 'status' | 'token';

/** How discovery describes a subresource: its kind (group/version when it lives elsewhere) and verbs. */
export interface SubresourceInfo {
  name: SubresourceName;
  group: string;
  version: string;
  kind: string;
  verbs: readonly string[];
}

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
export const RESOURCE_VERBS: readonly string[] = VERBS;

function r(
  info: Omit<ResourceInfo, 'singular' | 'categories' | 'shortNames' | 'generation' | 'statusOnSubresource'> &
    Partial<ResourceInfo>,
): ResourceInfo {
  return {
    singular: info.kind.toLowerCase(),
    categories: [],
    shortNames: [],
    generation: false,
    statusOnSubresource: false,
    ...info,
  };
}

/** HorizontalPodAutoscaler, served at autoscaling/v2 and v1 alike. */
const HPA = {
  group: 'autoscaling',
  resource: 'horizontalpodautoscalers',
  kind: 'HorizontalPodAutoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  generation: true,
  fields: ['spec', 'status'],
  statusOnSubresource: true,
} satisfies Omit<ResourceInfo, 'version' | 'singular'>;

/** The served resources, in discovery order. */
export const RESOURCES: readonly ResourceInfo[] = [
  r({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    shortNames: ['ns'],
    fields: ['spec', 'status'],
    statusOnSubresource: true,
    subresources: ['finalize'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'configmaps',
    kind: 'ConfigMap',
    namespaced: true,
    shortNames: ['cm'],
    fields: ['data', 'binaryData', 'immutable'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'secrets',
    kind: 'Secret',
    namespaced: true,
    fields: ['data', 'stringData', 'type', 'immutable'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
    fields: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'],
    subresources: ['token'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    fields: ['spec', 'status'],
    statusOnSubresource: true,
    subresources: ['binding', 'eviction', 'log'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'nodes',
    kind: 'Node',
    namespaced: false,
    shortNames: ['no'],
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'services',
    kind: 'Service',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'events',
    kind: 'Event',
    namespaced: true,
    shortNames: ['ev'],
    fields: [
      'involvedObject',
      'reason',
      'message',
      'source',
      'firstTimestamp',
      'lastTimestamp',
      'count',
      'type',
      'eventTime',
      'series',
      'action',
      'related',
      'reportingComponent',
      'reportingInstance',
    ],
  }),
  r({
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
    subresources: ['scale'],
  }),
  // Discovery metadata of the kinds below: kube-apiserver 1.32 (pkg/registry/<group>/<kind>/storage
  // ShortNames()/Categories(), singular names from SingularQualifiedResource).
  r({
    group: '',
    version: 'v1',
    resource: 'endpoints',
    singular: 'endpoints',
    kind: 'Endpoints',
    namespaced: true,
    shortNames: ['ep'],
    fields: ['subsets'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'limitranges',
    kind: 'LimitRange',
    namespaced: true,
    shortNames: ['limits'],
    fields: ['spec'],
  }),
  r({
    group: '',
    version: 'v1',
    resource: 'resourcequotas',
    kind: 'ResourceQuota',
    namespaced: true,
    shortNames: ['quota'],
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    kind: 'ReplicaSet',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
    subresources: ['scale'],
  }),
  r({
    group: 'apps',
    version: 'v1',
    resource: 'daemonsets',
    kind: 'DaemonSet',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: 'apps',
    version: 'v1',
    resource: 'statefulsets',
    kind: 'StatefulSet',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
    subresources: ['scale'],
  }),
  r({
    group: 'batch',
    version: 'v1',
    resource: 'jobs',
    kind: 'Job',
    namespaced: true,
    categories: ['all'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: 'batch',
    version: 'v1',
    resource: 'cronjobs',
    kind: 'CronJob',
    namespaced: true,
    shortNames: ['cj'],
    categories: ['all'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: 'coordination.k8s.io',
    version: 'v1',
    resource: 'leases',
    kind: 'Lease',
    namespaced: true,
    fields: ['spec'],
  }),
  r({
    group: 'discovery.k8s.io',
    version: 'v1',
    resource: 'endpointslices',
    kind: 'EndpointSlice',
    namespaced: true,
    // endpointSliceStrategy: generation 1 on create, +1 when endpoints, ports or addressType change.
    generation: true,
    fields: ['addressType', 'endpoints', 'ports'],
  }),
  // autoscaling/v2 first: the preferred version, and the one HPAs are stored in; v1 converts.
  r({ ...HPA, version: 'v2' }),
  r({ ...HPA, version: 'v1', storageVersion: 'v2' }),
  r({
    group: 'policy',
    version: 'v1',
    resource: 'poddisruptionbudgets',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    shortNames: ['pdb'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  r({
    group: 'scheduling.k8s.io',
    version: 'v1',
    resource: 'priorityclasses',
    kind: 'PriorityClass',
    namespaced: false,
    shortNames: ['pc'],
    fields: ['value', 'globalDefault', 'description', 'preemptionPolicy'],
  }),
  r({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'roles',
    kind: 'Role',
    namespaced: true,
    fields: ['rules'],
  }),
  r({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'rolebindings',
    kind: 'RoleBinding',
    namespaced: true,
    fields: ['subjects', 'roleRef'],
  }),
  r({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterroles',
    kind: 'ClusterRole',
    namespaced: false,
    fields: ['rules', 'aggregationRule'],
  }),
  r({
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    namespaced: false,
    fields: ['subjects', 'roleRef'],
  }),
  // apiextensions-apiserver's CRD storage (pkg/registry/customresourcedefinition/etcd.go ShortNames, Categories).
  r({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    generation: true,
    fields: ['spec', 'status'],
    statusOnSubresource: true,
  }),
  // Create-only and never stored (scheduling-explanation.ts answers it from the live scheduler).
  r({
    group: 'scheduling.kubewasm.io',
    version: 'v1alpha1',
    resource: 'schedulingexplanations',
    kind: 'SchedulingExplanation',
    namespaced: false,
    fields: ['spec', 'status'],
  }),
  // authentication.k8s.io/v1: create-only, never stored (authn/self-subject-review.ts,
  // authn/token-review.ts), as pkg/registry/authentication/rest/storage_authentication.go registers them.
  r({
    group: 'authentication.k8s.io',
    version: 'v1',
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    namespaced: false,
    fields: ['status'],
    verbs: ['create'],
  }),
  r({
    group: 'authentication.k8s.io',
    version: 'v1',
    resource: 'tokenreviews',
    kind: 'TokenReview',
    namespaced: false,
    fields: ['spec', 'status'],
    verbs: ['create'],
  }),
  // authorization.k8s.io/v1: create-only, never stored (auth/access-review.ts); discovery lists
  // only `create`, as pkg/registry/authorization/rest/storage_authorization.go registers them.
  ...(
    [
      ['localsubjectaccessreviews', 'LocalSubjectAccessReview', true],
      ['selfsubjectaccessreviews', 'SelfSubjectAccessReview', false],
      ['selfsubjectrulesreviews', 'SelfSubjectRulesReview', false],
      ['subjectaccessreviews', 'SubjectAccessReview', false],
    ] as const
  ).map(([resource, kind, namespaced]) =>
    r({
      group: 'authorization.k8s.io',
      version: 'v1',
      resource,
      kind,
      namespaced,
      fields: ['spec', 'status'],
      verbs: ['create'],
    }),
  ),
];

const SUBRESOURCE_VERBS = ['get', 'patch', 'update'] as const;

/**
 * The subresources of a resource, sorted by name as discovery lists them: `status` (the kind
 * itself), `scale` (autoscaling/v1 Scale), `binding` (v1 Binding, create only).
 */
export function subresourcesOf(info: ResourceInfo): SubresourceInfo[] {
  const out: SubresourceInfo[] = [];
  for (const name of info.subresources ?? []) {
    if (name === 'binding') out.push({ name, group: '', version: 'v1', kind: 'Binding', verbs: ['create'] });
    if (name === 'eviction') {
      out.push({ name, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    }
    // namespaces/finalize: PUT only (pkg/registry/core/namespace/storage FinalizeREST).
    if (name === 'finalize') out.push({ name, group: '', version: 'v1', kind: 'Namespace', verbs: ['update'] });
    if (name === 'scale')
      out.push({ name, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUBRESOURCE_VERBS });
    // pods/log (kind Pod, get) and serviceaccounts/token (TokenRequest, create), as kube-apiserver lists them.
    if (name === 'log') out.push({ name, group: '', version: 'v1', kind: 'Pod', verbs: ['get'] });
    if (name === 'token') {
      out.push({ name, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
    }
  }
  if (info.statusOnSubresource) {
    out.push({ name: 'status', group: info.group, version: info.version, kind: info.kind, verbs: SUBRESOURCE_VERBS });
  }
  // Custom resources: status, then scale, as apiextensions' discovery_controller.go lists them.
  if (info.custom !== undefined) return out.sort((a, b) => (a.name === 'status' ? -1 : b.name === 'status' ? 1 : 0));
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `apps/v1`, or `v1` for the core group. */
export function groupVersion(info: Pick<ResourceInfo, 'group' | 'version'>): string {
  return info.group === '' ? info.version : `${info.group}/${info.version}`;
}

/** The resource served at group/version/resource, if any: a built-in one, else a custom resource of `custom`. */
export function findResource(
  group: string,
  version: string,
  resource: string,
  custom?: CustomResourceLookup,
): ResourceInfo | undefined {
  return (
    RESOURCES.find((x) => x.group === group && x.version === version && x.resource === resource) ??
    custom?.find(group, version, resource)
  );
}

/**
 * The served groups with their versions, preferred version first, in discovery order:
 * `[{group:'', versions:['v1']}, …, {group:'autoscaling', versions:['v2','v1']}, …]`.
 */
export function groups(extra: readonly ResourceInfo[] = []): { group: string; versions: string[] }[] {
  const out: { group: string; versions: string[] }[] = [];
  for (const gv of groupVersions(extra)) {
    const g = out.find((x) => x.group === gv.group);
    if (g === undefined) out.push({ group: gv.group, versions: [gv.version] });
    else g.versions.push(gv.version);
  }
  return out;
}

/**
 * The served group versions, in discovery order: `[{group:'', version:'v1'}, {group:'apps', …}]`;
 * `extra` (custom resources) after the built-in ones.
 */
export function groupVersions(extra: readonly ResourceInfo[] = []): { group: string; version: string }[] {
  const seen = new Set<string>();
  const out: { group: string; version: string }[] = [];
  for (const x of [...RESOURCES, ...extra]) {
    const gv = groupVersion(x);
    if (!seen.has(gv)) {
      seen.add(gv);
      out.push({ group: x.group, version: x.version });
    }
  }
  return out;
}

/**
 * The storage key of an object: `/registry/<resource>/<namespace>/<name>` or `/registry/<resource>/<name>`;
 * a custom resource's under its group, as apiextensions-apiserver keys them (`/registry/<group>/<resource>/…`).
 */
export function objectKey(info: ResourceInfo, namespace: string, name: string): string {
  return info.namespaced ? `${resourcePrefix(info)}${namespace}/${name}` : `${resourcePrefix(info)}${name}`;
}

/** The storage prefix of a collection (all namespaces when `namespace` is ''). */
export function collectionPrefix(info: ResourceInfo, namespace: string): string {
  return info.namespaced && namespace !== '' ? `${resourcePrefix(info)}${namespace}/` : resourcePrefix(info);
}

function resourcePrefix(info: ResourceInfo): string {
  return info.custom === undefined ? `/registry/${info.resource}/` : `/registry/${info.group}/${info.resource}/`;
}
