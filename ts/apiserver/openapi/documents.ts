/**
 * `/openapi/v3` and `/openapi/v3/<api/v1|apis/<group>/<version>>`: the documents kube-apiserver
 * 1.32 publishes, cut down to what this server serves. Each served group version gets the real
 * paths of its served resources (collection, item, watch, and the served subresources — kubectl's
 * query-param verifier reads the `patch` operation's `fieldValidation` parameter,
 * ../shared/reference/api.md §1.4) and every component schema those paths reach, with
 * descriptions and `x-kubernetes-group-version-kind` (kubectl explain, client-side apply's patch
 * metadata). The paths follow RESOURCES, so a resource added there appears here; one missing from
 * the data gets a bare `patch` operation so kubectl still hands validation to the server.
 */
import { VERSION_INFO } from '../endpoints/discovery.js';
import { groupVersions, RESOURCES, type ResourceInfo, subresourcesOf } from '../registry/resources.js';
import { loadOpenApiData, type OpenApiData, SCHEMA_REF_PREFIX, type Schema, type StoredOperation } from './data.js';

/** `api/v1`, `apis/apps/v1`: the index keys. */
export function indexKey(gv: { group: string; version: string }): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

/** An OpenAPI v3 document as served. */
export interface OpenApiDocument {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
}

// The security scheme every Kubernetes v3 document declares (api/openapi-spec/v3/*_openapi.json).
export const SECURITY_SCHEMES = {
  BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
};

/** Whether a stored path (`/api/v1/watch/namespaces/{namespace}/pods`) belongs to a served resource. */
function pathServed(path: string, prefix: string, served: readonly ResourceInfo[]): boolean {
  const rest = path.slice(prefix.length);
  if (rest === '/') return true; // getAPIResources of the group version
  let seg = rest.split('/').slice(1);
  if (seg[0] === 'watch') seg = seg.slice(1);
  if (seg[0] === 'namespaces' && seg[1] === '{namespace}' && seg.length >= 3) seg = seg.slice(2);
  const info = served.find((r) => r.resource === seg[0]);
  if (info === undefined) return false;
  if (seg.length <= 2) return seg.length === 1 || seg[1] === '{name}';
  return seg.length === 3 && subresourcesOf(info).some((s) => s.name === seg[2]);
}

/** The item path of a resource (`/apis/apps/v1/namespaces/{namespace}/deployments/{name}`). */
function itemPath(info: ResourceInfo): string {
  const base = `/${indexKey(info)}`;
  return info.namespaced ? `${base}/namespaces/{namespace}/${info.resource}/{name}` : `${base}/${info.resource}/{name}`;
}

/** Every `$ref` target name in a value. */
function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_REF_PREFIX)) {
        out.add(v.slice(SCHEMA_REF_PREFIX.length));
      } else {
        collectRefs(v, out);
      }
    }
  }
}

/** The schemas named in `roots` and every one they reach through `$ref`, in name order as kube-apiserver lists them. */
export function reachableSchemas(data: OpenApiData, roots: Iterable<string>): Record<string, Schema> {
  const names = new Set(roots);
  const queue = [...names];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    const found = new Set<string>();
    collectRefs(data.schemas[name], found);
    for (const n of found) {
      if (!names.has(n)) {
        names.add(n);
        queue.push(n);
      }
    }
  }
  const schemas: Record<string, Schema> = {};
  for (const name of [...names].sort()) {
    const schema = data.schemas[name];
    if (schema !== undefined) schemas[name] = schema;
  }
  return schemas;
}

function expandOperation(data: OpenApiData, op: StoredOperation): Record<string, unknown> {
  const out: Record<string, unknown> = { ...op };
  if (op.parameters) out.parameters = op.parameters.map((i) => data.parameters[i]);
  if (op.requestBody !== undefined) out.requestBody = data.requestBodies[op.requestBody];
  if (op.responses) {
    out.responses = Object.fromEntries(Object.entries(op.responses).map(([code, i]) => [code, data.responses[i]]));
  }
  return out;
}

/** Builds the document of one served group version. */
export function buildDocument(data: OpenApiData, key: string): OpenApiDocument | undefined {
  const gv = groupVersions().find((x) => indexKey(x) === key);
  if (gv === undefined) return undefined;
  const served = RESOURCES.filter((r) => r.group === gv.group && r.version === gv.version);
  const prefix = `/${key}`;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(data.paths[key] ?? {})) {
    if (!pathServed(path, prefix, served)) continue;
    const out: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(item)) {
      if (op === undefined) continue;
      out[method] = Array.isArray(op)
        ? op.map((i) => data.parameters[i])
        : expandOperation(data, op as StoredOperation);
    }
    paths[path] = out;
  }
  for (const info of served) {
    const path = itemPath(info);
    if (paths[path] !== undefined) continue;
    // Not in the Kubernetes documents: enough for kubectl's query-param verifier.
    paths[path] = {
      patch: {
        'x-kubernetes-group-version-kind': { group: info.group, version: info.version, kind: info.kind },
        parameters: [
          { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
          { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
        ],
        responses: {},
      },
    };
  }
  // The schemas the paths reach, transitively.
  const roots = new Set<string>();
  collectRefs(paths, roots);
  const schemas = reachableSchemas(data, roots);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: VERSION_INFO.gitVersion },
    paths,
    components: { schemas, securitySchemes: SECURITY_SCHEMES },
  };
}

/** FNV-1a over the text with two seeds: 16 hex digits that change whenever the document does. */
export function hashText(text: string): string {
  let a = 2166136261;
  let b = 0x811c9dc5 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 16777619) >>> 0;
    b = Math.imul(b ^ c, 16777619) >>> 0;
  }
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).toUpperCase();
}

interface Built {
  doc: OpenApiDocument;
  hash: string;
}

// RESOURCES does not change while the process runs, so each document is built once.
let built: Promise<Map<string, Built>> | undefined;

function documents(): Promise<Map<string, Built>> {
  built ??= loadOpenApiData().then((data) => {
    const out = new Map<string, Built>();
    for (const gv of groupVersions()) {
      const key = indexKey(gv);
      const doc = buildDocument(data, key);
      if (doc !== undefined) out.set(key, { doc, hash: hashText(JSON.stringify(doc)) });
    }
    return out;
  });
  return built;
}

/** GET /openapi/v3: `{paths: {"api/v1": {serverRelativeURL: "/openapi/v3/api/v1?hash=…"}, …}}`. */
export async function openApiIndex(): Promise<{ paths: Record<string, { serverRelativeURL: string }> }> {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, { hash }] of await documents()) {
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}

/** GET /openapi/v3/<key>, or undefined when the key names no served group version. */
export async function openApiDocument(key: string): Promise<OpenApiDocument | undefined> {
  return (await documents()).get(key)?.doc;
}
