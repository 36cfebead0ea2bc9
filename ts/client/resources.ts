/**
 * The resources a client names, and their URL paths. The table is the API's own
 * (ts/api/resources.ts), shared with the apiserver, so the client never imports the apiserver.
 *
 *   resourcePath(RESOURCES.pods, 'default', 'web-0', 'status')   // /api/v1/namespaces/default/pods/web-0/status
 */
import type { GroupVersionResource } from '../api/resources.js';

export {
  apiVersionOf,
  type GroupVersionResource,
  type ObjectOfResource,
  RESOURCES,
  type ResourceType,
} from '../api/resources.js';

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
