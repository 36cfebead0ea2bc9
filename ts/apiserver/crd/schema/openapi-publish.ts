/**
 * The OpenAPI v3 schema of a custom resource kind as /openapi/v3 publishes it
 * (apiextensions-apiserver pkg/controller/openapi/builder/builder.go buildKubeNative for v3): the
 * structural schema unfolded (unfold.go: int-or-string gains its anyOf), with apiVersion, kind and a
 * metadata reference to ObjectMeta at the root and in every embedded resource, and the
 * `x-kubernetes-group-version-kind` extension.
 */
import { isIntOrStringAllOfPattern, isIntOrStringAnyOfPattern } from './structural.js';
import { deepCopy, type JSONObject, type JSONSchemaProps } from './types.js';

const SCHEMA_PREFIX = '#/components/schemas/';
/** objectMetaSchemaRef and listMetaSchemaRef for v3. */
const OBJECT_META_REF = `${SCHEMA_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`;
const LIST_META_REF = `${SCHEMA_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta`;
// swaggerPartialObjectMetadataListDescriptions["metadata"].
const LIST_METADATA_DESCRIPTION =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
// swaggerPartialObjectMetadataDescriptions["metadata"].
const METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
// TypeMeta's generated OpenAPI descriptions (k8s.io/apimachinery/pkg/apis/meta/v1 TypeMeta).
const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
// builder.go addEmbeddedProperties descriptions.
const EMBEDDED_API_VERSION_DESCRIPTION =
  'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND_DESCRIPTION =
  'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * The published schema of a CR kind: `openApiV3Schema(schema, {group, version, kind})`. Without a
 * GVK the extension is left out (the caller adds it).
 */
export function openApiV3Schema(schema: JSONSchemaProps, gvk?: GroupVersionKind): Record<string, unknown> {
  const out = unfold(deepCopy(schema)) as JSONObject;
  const props = (out.properties ?? {}) as Record<string, JSONObject>;
  props.metadata = { $ref: OBJECT_META_REF, description: METADATA_DESCRIPTION };
  props.apiVersion = { description: API_VERSION_DESCRIPTION, type: 'string' };
  props.kind = { description: KIND_DESCRIPTION, type: 'string' };
  out.properties = props;
  addEmbeddedProperties(out);
  if (gvk !== undefined) {
    out['x-kubernetes-group-version-kind'] = [{ group: gvk.group, kind: gvk.kind, version: gvk.version }];
  }
  return out;
}

/**
 * NewStructural + Unfold + ToKubeOpenAPI: example and externalDocs are not kept by a structural
 * schema; x-kubernetes-int-or-string without the anyOf/allOf pattern gets it.
 */
function unfold(s: JSONSchemaProps): JSONSchemaProps {
  delete s.example;
  delete s.externalDocs;
  if (s['x-kubernetes-int-or-string'] === true && !isIntOrStringAnyOfPattern(s) && !isIntOrStringAllOfPattern(s)) {
    const pattern: JSONSchemaProps[] = [{ type: 'integer' }, { type: 'string' }];
    if (s.anyOf === undefined) s.anyOf = pattern;
    else s.allOf = [{ anyOf: pattern }, ...(s.allOf ?? [])];
  }
  for (const p of Object.values(s.properties ?? {})) unfold(p);
  if (s.items !== undefined && !Array.isArray(s.items)) unfold(s.items);
  if (typeof s.additionalProperties === 'object') unfold(s.additionalProperties);
  for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) stripUnkept(sub);
  if (s.not !== undefined) stripUnkept(s.not);
  return s;
}

/** The nested value validations lose example and externalDocs too (no unfolding there). */
function stripUnkept(s: JSONSchemaProps): void {
  delete s.example;
  delete s.externalDocs;
  for (const p of Object.values(s.properties ?? {})) stripUnkept(p);
  if (s.items !== undefined && !Array.isArray(s.items)) stripUnkept(s.items);
  if (typeof s.additionalProperties === 'object') stripUnkept(s.additionalProperties);
  for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) stripUnkept(sub);
  if (s.not !== undefined) stripUnkept(s.not);
}

/** addEmbeddedProperties: TypeMeta and the ObjectMeta reference inside embedded resources. */
function addEmbeddedProperties(s: JSONObject): void {
  const props = s.properties as Record<string, JSONObject> | undefined;
  for (const p of Object.values(props ?? {})) addEmbeddedProperties(p);
  const items = s.items;
  if (items !== undefined && items !== null && typeof items === 'object' && !Array.isArray(items)) {
    addEmbeddedProperties(items as JSONObject);
  }
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null && typeof ap === 'object') addEmbeddedProperties(ap as JSONObject);
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  const own = { ...(props ?? {}) };
  own.apiVersion = { description: EMBEDDED_API_VERSION_DESCRIPTION, type: 'string' };
  own.kind = { description: EMBEDDED_KIND_DESCRIPTION, type: 'string' };
  own.metadata = { $ref: OBJECT_META_REF, description: METADATA_DESCRIPTION };
  s.properties = own;
  const req = Array.isArray(s.required) ? [...(s.required as string[])] : [];
  if (!req.includes('kind')) req.push('kind');
  if (!req.includes('apiVersion')) req.push('apiVersion');
  s.required = req;
}

/**
 * The component name of a CR kind (util.ToRESTFriendlyName of `group/version/kind`, the group's
 * domain reversed): `definitionName('stable.example.com', 'v1', 'CronTab')` →
 * `com.example.stable.v1.CronTab`.
 */
export function definitionName(group: string, version: string, kind: string): string {
  const g = group.includes('.') ? group.split('.').reverse().join('.') : group;
  return [g, version, kind].join('.');
}

/** buildListSchema (v3): the `<Kind>List` schema referring to the kind's component. */
export function openApiV3ListSchema(gvk: GroupVersionKind, listKind: string, plural: string): Record<string, unknown> {
  return {
    type: 'object',
    description: `${listKind} is a list of ${gvk.kind}`,
    required: ['items'],
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
      items: {
        type: 'array',
        items: { $ref: `${SCHEMA_PREFIX}${definitionName(gvk.group, gvk.version, gvk.kind)}` },
        description: `List of ${plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
      },
      kind: { description: KIND_DESCRIPTION, type: 'string' },
      metadata: { $ref: LIST_META_REF, description: LIST_METADATA_DESCRIPTION },
    },
    'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: listKind, version: gvk.version }],
  };
}
