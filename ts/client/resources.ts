/**
 * GroupVersionResource and the resources this cluster serves. The client keeps its own table
 * (mirroring ts/apiserver/resources.ts, checked by a test) so that it never imports the apiserver.
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

const core = (resource: string, kind: string, namespaced: boolean): ResourceType => ({
  group: '',
  version: 'v1',
  resource,
  kind,
  namespaced,
});

/** The resources the apiserver serves, by plural name. */
export const RESOURCES = {
  namespaces: core('namespaces', 'Namespace', false),
  configmaps: core('configmaps', 'ConfigMap', true),
  secrets: core('secrets', 'Secret', true),
  serviceaccounts: core('serviceaccounts', 'ServiceAccount', true),
  pods: core('pods', 'Pod', true),
  nodes: core('nodes', 'Node', false),
  services: core('services', 'Service', true),
  events: core('events', 'Event', true),
  deployments: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
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
