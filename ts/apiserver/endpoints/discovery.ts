/**
 * Discovery documents: /version, legacy /api, /apis, /api/v1, /apis/<g>/<v>, and aggregated
 * discovery v2 (apidiscovery.k8s.io/v2) when the Accept header asks for it
 * (../shared/reference/api.md §1.1).
 */
import {
  groups,
  groupVersion,
  RESOURCE_VERBS,
  RESOURCES,
  type ResourceInfo,
  subresourcesOf,
} from '../registry/resources.js';

/** The version this apiserver reports (kubectl's dispatcher reads it, api.md §0.7). */
export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-kubewasm',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '1970-01-01T00:00:00Z',
  goVersion: 'n/a',
  compiler: 'wasm',
  platform: 'wasm/kubewasm',
};

/** The Content-Type kubectl recognises as aggregated discovery v2. */
export const AGGREGATED_DISCOVERY_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Whether an Accept header prefers aggregated discovery v2. */
export function wantsAggregated(accept: string | null): boolean {
  if (accept === null) return false;
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return (
      params.includes('g=apidiscovery.k8s.io') && params.includes('v=v2') && params.includes('as=APIGroupDiscoveryList')
    );
  });
}

/** Legacy `/api`; `serverAddress` is host:port as the client reached us. */
export function apiVersions(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** Legacy `/apis`; `custom`: the served custom resources (their groups follow the built-in ones). */
export function apiGroupList(custom: readonly ResourceInfo[] = []): unknown {
  const list = groups(custom)
    .filter((g) => g.group !== '')
    .map((g) => {
      // Preferred version first (autoscaling: v2, v1), as kube-apiserver lists them.
      const versions = g.versions.map((version) => ({
        groupVersion: groupVersion({ group: g.group, version }),
        version,
      }));
      return { name: g.group, versions, preferredVersion: versions[0] };
    });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: list };
}

/** Legacy `/api/v1`, `/apis/<g>/<v>`; undefined for a group version not served. */
export function apiResourceList(group: string, version: string, custom: readonly ResourceInfo[] = []): unknown {
  const resources = [...RESOURCES, ...custom].filter((x) => x.group === group && x.version === version);
  if (resources.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersion({ group, version }),
    resources: resources.flatMap((x) => [
      {
        name: x.resource,
        singularName: x.singular,
        namespaced: x.namespaced,
        kind: x.kind,
        verbs: x.verbs ?? RESOURCE_VERBS,
        ...(x.shortNames.length > 0 ? { shortNames: x.shortNames } : {}),
        ...(x.categories.length > 0 ? { categories: x.categories } : {}),
      },
      // `deployments/scale`: a kind from another group version names it (group, version).
      ...subresourcesOf(x).map((sub) => ({
        name: `${x.resource}/${sub.name}`,
        singularName: '',
        namespaced: x.namespaced,
        ...(sub.group !== x.group || sub.version !== x.version ? { group: sub.group, version: sub.version } : {}),
        kind: sub.kind,
        verbs: sub.verbs,
      })),
    ]),
  };
}

function discoveryResource(x: ResourceInfo): unknown {
  const subresources = subresourcesOf(x).map((sub) => ({
    subresource: sub.name,
    responseKind: { group: sub.group, version: sub.version, kind: sub.kind },
    verbs: sub.verbs,
  }));
  return {
    resource: x.resource,
    responseKind: { group: x.group, version: x.version, kind: x.kind },
    scope: x.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: x.singular,
    verbs: x.verbs ?? RESOURCE_VERBS,
    ...(x.shortNames.length > 0 ? { shortNames: x.shortNames } : {}),
    ...(x.categories.length > 0 ? { categories: x.categories } : {}),
    ...(subresources.length > 0 ? { subresources } : {}),
  };
}

/** Aggregated discovery v2 for `/api` (core: true) or `/apis` (core: false), with the custom resources. */
export function aggregatedDiscovery(core: boolean, custom: readonly ResourceInfo[] = []): unknown {
  const all = [...RESOURCES, ...custom];
  const items = groups(custom)
    .filter((g) => (g.group === '') === core)
    .map((g) => ({
      metadata: { name: g.group },
      // Preferred version first: kubectl takes versions[0] as the preferred one.
      versions: g.versions.map((version) => ({
        version,
        freshness: 'Current',
        resources: all.filter((x) => x.group === g.group && x.version === version).map(discoveryResource),
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}
