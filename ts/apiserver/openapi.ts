/**
 * A minimal OpenAPI v3 surface: the document index and one document per group version holding a
 * `patch` operation per kind that lists the `fieldValidation` parameter. That is what kubectl's
 * query-param verifier looks for before it hands validation to the server with
 * `fieldValidation=Strict` (../shared/reference/api.md §1.4). No schemas: `kubectl explain` and
 * client-side schema validation are not served.
 */
import { VERSION_INFO } from './discovery.js';
import { groupVersion, groupVersions, RESOURCES } from './resources.js';

/** `api/v1`, `apis/apps/v1`: the index keys. */
function indexKey(gv: { group: string; version: string }): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

// Changes whenever the served resources change; kubectl caches documents by this hash.
const HASH = (() => {
  let h = 2166136261;
  for (const ch of JSON.stringify(RESOURCES)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h.toString(16).toUpperCase().padStart(8, '0');
})();

/** GET /openapi/v3. */
export function openApiIndex(): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of groupVersions()) {
    const key = indexKey(gv);
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${HASH}` };
  }
  return { paths };
}

/** GET /openapi/v3/<key>, or undefined when the key names no served group version. */
export function openApiDocument(key: string): unknown {
  const gv = groupVersions().find((x) => indexKey(x) === key);
  if (gv === undefined) return undefined;
  const paths: Record<string, unknown> = {};
  for (const x of RESOURCES.filter((y) => groupVersion(y) === groupVersion(gv))) {
    const base = `/${key}`;
    const path = x.namespaced ? `${base}/namespaces/{namespace}/${x.resource}/{name}` : `${base}/${x.resource}/{name}`;
    paths[path] = {
      patch: {
        'x-kubernetes-group-version-kind': { group: x.group, version: x.version, kind: x.kind },
        parameters: [
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
        ],
        responses: {},
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion },
    paths,
    components: { schemas: {} },
  };
}
