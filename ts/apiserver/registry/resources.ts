/**
 * The resource registry: every resource this apiserver serves. The built-in ones are the API's
 * table (ts/api/resources.ts: kind, scope, names, verbs, subresources), each with how this server
 * serves it (SERVING below: its fields, generation, storage version; its strategy is found in
 * strategies.ts); custom resources come from their CRDs (crd/served.ts). Discovery, the REST
 * handlers, field validation and Table printing all read it.
 */
import {
  apiVersionOf,
  BUILTIN_RESOURCES,
  type BuiltinResource,
  RESOURCE_VERBS,
  type SubresourceName,
} from '../../api/resources.js';
import type { CustomResourceServing } from '../crd/types.js';

export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural resource name (URL segment, storage key segment). */
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
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
export type { SubresourceName };

/** How discovery describes a subresource: its kind (group/version when it lives elsewhere) and verbs. */
export interface SubresourceInfo {
  name: SubresourceName;
  group: string;
  version: string;
  kind: string;
  verbs: readonly string[];
}

export { RESOURCE_VERBS };

/** How this apiserver serves a built-in resource, beyond what ts/api/resources.ts says of it. */
interface Serving {
  /** Top-level fields besides apiVersion, kind and metadata (for fieldValidation). */
  fields: readonly string[];
  /** metadata.generation kept (1 on create, +1 on every spec change). */
  generation?: true;
  /** The version its objects are stored in, when it is served at others too. */
  storageVersion?: string;
}

const SPEC_STATUS = ['spec', 'status'];
const WORKLOAD: Serving = { fields: SPEC_STATUS, generation: true };
const REVIEW: Serving = { fields: SPEC_STATUS };

/**
 * Each built-in resource's serving, by `<group>/<resource>` (all its versions): every row of
 * ts/api/resources.ts has one, and nothing else does (registry/resources.test.ts).
 */
const SERVING: Readonly<Record<string, Serving>> = {
  '/namespaces': { fields: SPEC_STATUS },
  '/configmaps': { fields: ['data', 'binaryData', 'immutable'] },
  '/secrets': { fields: ['data', 'stringData', 'type', 'immutable'] },
  '/serviceaccounts': { fields: ['secrets', 'imagePullSecrets', 'automountServiceAccountToken'] },
  '/pods': { fields: SPEC_STATUS },
  '/nodes': { fields: SPEC_STATUS },
  '/services': { fields: SPEC_STATUS },
  '/events': {
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
  },
  'apps/deployments': WORKLOAD,
  '/endpoints': { fields: ['subsets'] },
  '/replicationcontrollers': WORKLOAD,
  '/limitranges': { fields: ['spec'] },
  '/resourcequotas': { fields: SPEC_STATUS },
  '/persistentvolumeclaims': { fields: SPEC_STATUS },
  '/persistentvolumes': { fields: SPEC_STATUS },
  'apps/replicasets': WORKLOAD,
  // ControllerRevision: data and revision at the top level, no status.
  'apps/controllerrevisions': { fields: ['data', 'revision'] },
  'apps/daemonsets': WORKLOAD,
  'apps/statefulsets': WORKLOAD,
  'batch/jobs': WORKLOAD,
  'batch/cronjobs': WORKLOAD,
  'coordination.k8s.io/leases': { fields: ['spec'] },
  // endpointSliceStrategy: generation 1 on create, +1 when endpoints, ports or addressType change.
  'discovery.k8s.io/endpointslices': { fields: ['addressType', 'endpoints', 'ports'], generation: true },
  // Served at v2 and v1, stored as v2; generic/versioned-storage.ts converts v1.
  'autoscaling/horizontalpodautoscalers': { ...WORKLOAD, storageVersion: 'v2' },
  'policy/poddisruptionbudgets': WORKLOAD,
  'scheduling.k8s.io/priorityclasses': { fields: ['value', 'globalDefault', 'description', 'preemptionPolicy'] },
  'storage.k8s.io/storageclasses': {
    fields: [
      'provisioner',
      'parameters',
      'reclaimPolicy',
      'mountOptions',
      'allowVolumeExpansion',
      'volumeBindingMode',
      'allowedTopologies',
    ],
  },
  'rbac.authorization.k8s.io/roles': { fields: ['rules'] },
  'rbac.authorization.k8s.io/rolebindings': { fields: ['subjects', 'roleRef'] },
  'rbac.authorization.k8s.io/clusterroles': { fields: ['rules', 'aggregationRule'] },
  'rbac.authorization.k8s.io/clusterrolebindings': { fields: ['subjects', 'roleRef'] },
  'apiextensions.k8s.io/customresourcedefinitions': WORKLOAD,
  // Never stored: scheduling-explanation.ts answers it from the live scheduler.
  'scheduling.kubewasm.io/schedulingexplanations': REVIEW,
  // Create-only, never stored (authn/self-subject-review.ts, authn/token-review.ts, auth/access-review.ts).
  'authentication.k8s.io/selfsubjectreviews': { fields: ['status'] },
  'authentication.k8s.io/tokenreviews': REVIEW,
  'authorization.k8s.io/localsubjectaccessreviews': REVIEW,
  'authorization.k8s.io/selfsubjectaccessreviews': REVIEW,
  'authorization.k8s.io/selfsubjectrulesreviews': REVIEW,
  'authorization.k8s.io/subjectaccessreviews': REVIEW,
};

/** The `<group>/<resource>` key of SERVING. */
export function servingKey(r: { group: string; resource: string }): string {
  return `${r.group}/${r.resource}`;
}

/** The served resources of the SERVING keys (for the table test). */
export const SERVING_KEYS: readonly string[] = Object.keys(SERVING);

/** A built-in resource of the API table as this apiserver serves it. */
function served(api: BuiltinResource): ResourceInfo {
  const serving = SERVING[servingKey(api)];
  if (serving === undefined) throw new Error(`registry: no serving for ${servingKey(api)} (ts/api/resources.ts)`);
  const info: ResourceInfo = {
    group: api.group,
    version: api.version,
    resource: api.resource,
    singular: api.singular,
    kind: api.kind,
    namespaced: api.namespaced,
    shortNames: [...api.shortNames],
    categories: [...api.categories],
    generation: serving.generation === true,
    fields: serving.fields,
    statusOnSubresource: api.subresources.includes('status'),
  };
  const subresources = api.subresources.filter((name) => name !== 'status');
  if (subresources.length > 0) info.subresources = subresources;
  if (serving.storageVersion !== undefined && serving.storageVersion !== api.version) {
    info.storageVersion = serving.storageVersion;
  }
  if (api.verbs !== RESOURCE_VERBS) info.verbs = api.verbs;
  return info;
}

/** The served resources, in discovery order: ts/api's table, each as this apiserver serves it. */
export const RESOURCES: readonly ResourceInfo[] = BUILTIN_RESOURCES.map(served);

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

/** `apps/v1`, or `v1` for the core group (schema.GroupVersion.String()). */
export const groupVersion: (info: Pick<ResourceInfo, 'group' | 'version'>) => string = apiVersionOf;

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
