/**
 * The OpenAPI v3 data of Kubernetes v1.32.2 (k8s-1.32.2.json, written by scripts/gen-openapi.mjs):
 * component schemas shared by every group version, and each group version's paths with their
 * parameters, responses and request bodies stored once in tables. Loaded on first use with a
 * dynamic import, so a browser bundle pays for the ~1 MB only when the OpenAPI documents or field
 * validation need it.
 */

/** An OpenAPI v3 schema as Kubernetes publishes them (the keywords its documents use). */
export interface Schema {
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  $ref?: string;
  required?: string[];
  default?: unknown;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  [extension: string]: unknown;
}

/** One stored operation: parameters, request body and responses are table indexes. */
export interface StoredOperation {
  parameters?: number[];
  requestBody?: number;
  responses?: Record<string, number>;
  [key: string]: unknown;
}

/** A stored path item: operations by method, and path-level parameters (table indexes). */
export type StoredPathItem = { parameters?: number[] } & Record<string, StoredOperation | number[] | undefined>;

export interface OpenApiData {
  source: { module: string; zipSha256: string; dir: string; generator: string };
  schemas: Record<string, Schema>;
  parameters: unknown[];
  responses: unknown[];
  requestBodies: unknown[];
  /**
   * Schema → property → Go type, for fields whose type is a named non-struct type the schema
   * cannot name (`io.k8s.api.core.v1.PodSpec` → `restartPolicy` → `v1.RestartPolicy`).
   */
  goTypes: Record<string, Record<string, string>>;
  /** Index key (`api/v1`, `apis/apps/v1`) → path → item. */
  paths: Record<string, Record<string, StoredPathItem>>;
}

/** `#/components/schemas/` + name: how the documents refer to a schema. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

let loaded: OpenApiData | undefined;
let loading: Promise<OpenApiData> | undefined;

/** Loads the data once; later calls return the same promise. */
export function loadOpenApiData(): Promise<OpenApiData> {
  loading ??= import('./k8s-1.32.2.json').then((m) => {
    loaded = (m as { default: unknown }).default as OpenApiData;
    return loaded;
  });
  return loading;
}

/** The data if loadOpenApiData() has finished, else undefined. */
export function openApiDataIfLoaded(): OpenApiData | undefined {
  return loaded;
}

let kindIndex: Map<string, string> | undefined;

/**
 * The schema of a group/version/kind (`x-kubernetes-group-version-kind`) as a reference
 * (`{$ref: '#/components/schemas/io.k8s.api.apps.v1.Deployment'}`), once the data is loaded.
 */
export function schemaOfKind(group: string, version: string, kind: string): Schema | undefined {
  const data = openApiDataIfLoaded();
  if (data === undefined) return undefined;
  if (kindIndex === undefined) {
    kindIndex = new Map();
    for (const [name, schema] of Object.entries(data.schemas)) {
      const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
      // Shared meta types (DeleteOptions, WatchEvent) list every group: only single-kind schemas are kinds.
      if (gvks.length !== 1) continue;
      const g = gvks[0] as { group: string; version: string; kind: string };
      kindIndex.set(`${g.group}/${g.version}/${g.kind}`, name);
    }
  }
  const name = kindIndex.get(`${group}/${version}/${kind}`);
  return name === undefined ? undefined : { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}
