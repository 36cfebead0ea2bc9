/**
 * The field manager scope of a served resource: its type (Kubernetes' OpenAPI schemas for built-in
 * kinds, the CRD's schema for custom resources), Go's zero object, and the reset fields of its
 * strategies (GetResetFields in pkg/registry/<group>/<resource>/strategy.go: the main resource of
 * a kind with a status subresource never owns `status`; its status subresource never owns `spec`,
 * and for some kinds parts of metadata).
 */
import type { Schema } from '../openapi/data.js';
import type { ResourceInfo } from '../registry/resources.js';
import type { FieldManagerScope } from './field-manager.js';
import { FieldSet } from './field-set.js';
import { fieldElement } from './path.js';
import { DEDUCED, objectMetaType, SCALAR, type TypeNode, typeOfKind, typeOfSchema, zeroObjectOfKind } from './typed.js';

const STATUS = FieldSet.of([fieldElement('status')]);
const SPEC = FieldSet.of([fieldElement('spec')]);
const NONE = new FieldSet();
const meta = (f: string) => [fieldElement('metadata'), fieldElement(f)];
/** The status strategies that reset more than spec (GetResetFields of pkg/registry/apps/*, core/pod). */
const STATUS_RESETS: Record<string, FieldSet> = {
  // deploymentStatusStrategy, replicaSetStatusStrategy, statefulSetStatusStrategy, daemonSetStatusStrategy
  'apps/Deployment': FieldSet.of([fieldElement('spec')], meta('labels')),
  'apps/ReplicaSet': FieldSet.of([fieldElement('spec')], meta('labels')),
  'apps/StatefulSet': FieldSet.of([fieldElement('spec')], meta('labels')),
  'apps/DaemonSet': FieldSet.of([fieldElement('spec')], meta('labels')),
  // podStatusStrategy
  '/Pod': FieldSet.of([fieldElement('spec')], meta('deletionTimestamp'), meta('ownerReferences')),
};

const cache = new Map<string, FieldManagerScope | null>();
const customCache = new WeakMap<object, Map<string, FieldManagerScope>>();

const resetFieldsOf = (info: ResourceInfo, subresource: string): FieldSet =>
  subresource === 'status'
    ? (STATUS_RESETS[`${info.group}/${info.kind}`] ?? SPEC)
    : subresource === '' && info.statusOnSubresource
      ? STATUS
      : NONE;

/**
 * A custom resource's root type: apiVersion and kind always declared, metadata always ObjectMeta
 * (apiextensions-apiserver completes a CRD's schema so before building its type converter).
 */
function withTypeMeta(t: TypeNode): TypeNode {
  if (t.kind !== 'map') return t;
  const fields = new Map(t.fields ?? []);
  if (!fields.has('apiVersion')) fields.set('apiVersion', SCALAR);
  if (!fields.has('kind')) fields.set('kind', SCALAR);
  fields.set('metadata', objectMetaType());
  return { kind: 'map', atomic: t.atomic, fields, element: t.element };
}

/**
 * The scope of a custom resource: the type from its version's openAPIV3Schema (no schema: every
 * field deduced from the value), an empty object as the live object of a create (Unstructured).
 */
function customScope(info: ResourceInfo, subresource: string): FieldManagerScope | undefined {
  const custom = info.custom;
  if (custom === undefined) return undefined;
  let byKey = customCache.get(custom);
  if (byKey === undefined) {
    byKey = new Map();
    customCache.set(custom, byKey);
  }
  let scope = byKey.get(subresource);
  if (scope === undefined) {
    const schema = custom.schema as Schema | undefined;
    scope = {
      type: schema === undefined ? DEDUCED : withTypeMeta(typeOfSchema(schema)),
      apiVersion: `${info.group}/${info.version}`,
      kind: info.kind,
      subresource,
      resetFields: resetFieldsOf(info, subresource),
      newObject: () => ({}),
    };
    byKey.set(subresource, scope);
  }
  return scope;
}

/**
 * The scope of `info` for writes to `subresource` ('' for the main resource); undefined when the
 * kind has no schema (then no managed fields are kept, as for a type without a type converter).
 */
export function builtinScope(info: ResourceInfo, subresource: string): FieldManagerScope | undefined {
  if (info.custom !== undefined) return customScope(info, subresource);
  const key = `${info.group}/${info.version}/${info.kind}/${subresource}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit ?? undefined;
  const type = typeOfKind(info.group, info.version, info.kind);
  if (type === undefined) return undefined;
  const scope: FieldManagerScope = {
    type,
    apiVersion: info.group === '' ? info.version : `${info.group}/${info.version}`,
    kind: info.kind,
    typeOfKind: (kind) => typeOfKind(info.group, info.version, kind),
    subresource,
    resetFields: resetFieldsOf(info, subresource),
    newObject: () => zeroObjectOfKind(info.group, info.version, info.kind),
  };
  cache.set(key, scope);
  return scope;
}
