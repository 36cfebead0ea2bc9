/**
 * The OpenAPI v3 documents of custom resource group versions (k8s.io/apiextensions-apiserver
 * pkg/controller/openapi/builder/builder.go, v1.32): for each served version its schema under
 * `<reversed group>.<version>.<Kind>` — the version's openAPIV3Schema as published
 * (openApiV3Schema) with apiVersion, kind and metadata (ObjectMeta) added and
 * `x-kubernetes-group-version-kind` — the paths of the resource, and the ObjectMeta schemas they
 * reach. `kubectl explain <plural>` reads them; kubectl's query-param verifier finds
 * `fieldValidation` on the patch operation.
 */
import { type OpenApiData, SCHEMA_REF_PREFIX, type Schema } from '../openapi/data.js';
import { hashText, reachableSchemas, SECURITY_SCHEMES } from '../openapi/documents.js';
import type { ResourceInfo } from '../registry/resources.js';
import { definitionName, openApiV3ListSchema, openApiV3Schema } from './schema-api.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
];

// builder.go's descriptions of the type meta fields (the ObjectMeta/TypeMeta swagger docs).
const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** `apis/<group>/<version>`. */
export const customIndexKey = (info: Pick<ResourceInfo, 'group' | 'version'>): string =>
  `apis/${info.group}/${info.version}`;

/** util.ToRESTFriendlyName of group/version/kind: `com.example.stable.v1.CronTab`. */
export const schemaName = (info: Pick<ResourceInfo, 'group' | 'version' | 'kind'>): string =>
  definitionName(info.group, info.version, info.kind);

/** The kind's schema as published (the schema library adds apiVersion, kind, metadata and the GVK). */
function kindSchema(info: ResourceInfo): Schema {
  const gvk = { group: info.group, version: info.version, kind: info.kind };
  if (info.custom?.schema !== undefined) return openApiV3Schema(info.custom.schema, gvk) as Schema;
  return {
    type: 'object',
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
      kind: { description: KIND_DESCRIPTION, type: 'string' },
      metadata: { description: METADATA_DESCRIPTION, allOf: [{ $ref: `${SCHEMA_REF_PREFIX}${OBJECT_META}` }] },
    },
    'x-kubernetes-group-version-kind': [gvk],
  };
}

function listSchema(info: ResourceInfo): Schema {
  const gvk = { group: info.group, version: info.version, kind: info.kind };
  return openApiV3ListSchema(gvk, info.custom?.listKind ?? `${info.kind}List`, info.resource) as Schema;
}

const QUERY = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });

function operation(info: ResourceInfo, verb: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tags: [`${info.group.split('.')[0]}_${info.version}`],
    'x-kubernetes-action': verb,
    'x-kubernetes-group-version-kind': { group: info.group, version: info.version, kind: info.kind },
    ...extra,
  };
}

function paths(info: ResourceInfo): Record<string, Record<string, unknown>> {
  const base = `/${customIndexKey(info)}`;
  const collection = info.namespaced ? `${base}/namespaces/{namespace}/${info.resource}` : `${base}/${info.resource}`;
  const ref = { $ref: `${SCHEMA_REF_PREFIX}${schemaName(info)}` };
  const body = { content: { 'application/json': { schema: ref } }, required: true };
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } };
  const write = [QUERY('dryRun'), QUERY('fieldManager'), QUERY('fieldValidation')];
  // builder.go: custom resources take JSON, merge and apply patches (no strategic merge: kubectl
  // apply then sends a JSON merge patch).
  const patchBody = {
    content: Object.fromEntries(
      PATCH_CONTENT_TYPES.map((t) => [t, { schema: { $ref: `${SCHEMA_REF_PREFIX}${PATCH}` } }]),
    ),
    required: true,
  };
  // An object's get, put and patch: the item path's and its status subresource's.
  const objectOps = () => ({
    get: operation(info, 'get', { responses: ok }),
    put: operation(info, 'put', { parameters: write, requestBody: body, responses: ok }),
    patch: operation(info, 'patch', { parameters: [...write, QUERY('force')], requestBody: patchBody, responses: ok }),
  });
  const out: Record<string, Record<string, unknown>> = {
    [collection]: {
      get: operation(info, 'list', { parameters: [QUERY('labelSelector'), QUERY('fieldSelector'), QUERY('watch')] }),
      post: operation(info, 'post', { parameters: write, requestBody: body, responses: ok }),
      delete: operation(info, 'deletecollection'),
    },
    [`${collection}/{name}`]: { ...objectOps(), delete: operation(info, 'delete') },
  };
  if (info.statusOnSubresource) out[`${collection}/{name}/status`] = objectOps();
  return out;
}

/** The document of one custom resource group version, or undefined when nothing is served there. */
export function customOpenApiDocument(data: OpenApiData, custom: readonly ResourceInfo[], key: string): unknown {
  const served = custom.filter((r) => customIndexKey(r) === key);
  if (served.length === 0) return undefined;
  const schemas: Record<string, Schema> = {};
  const docPaths: Record<string, Record<string, unknown>> = {};
  for (const info of served) {
    schemas[schemaName(info)] = kindSchema(info);
    schemas[definitionName(info.group, info.version, info.custom?.listKind ?? `${info.kind}List`)] = listSchema(info);
    Object.assign(docPaths, paths(info));
  }
  // The meta schemas the kinds reach, transitively.
  Object.assign(schemas, reachableSchemas(data, [OBJECT_META, LIST_META, PATCH]));
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((k) => [k, schemas[k] as Schema]),
  );
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' },
    paths: docPaths,
    components: {
      schemas: sorted,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The index entries of the custom resource group versions (`apis/<g>/<v>` → its URL with a hash). */
export function customOpenApiIndex(
  data: OpenApiData,
  custom: readonly ResourceInfo[],
): Record<string, { serverRelativeURL: string }> {
  const out: Record<string, { serverRelativeURL: string }> = {};
  for (const key of new Set(custom.map(customIndexKey))) {
    const hash = hashText(JSON.stringify(customOpenApiDocument(data, custom, key)));
    out[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return out;
}
