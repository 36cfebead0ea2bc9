/**
 * The merge semantics of a schema (k8s.io/kube-openapi pkg/schemaconv as structured-merge-diff sees
 * an OpenAPI schema): lists atomic, sets (`x-kubernetes-list-type: set`, or a legacy
 * `x-kubernetes-patch-strategy: merge` without a merge key) or maps keyed by
 * `x-kubernetes-list-map-keys` (or the legacy `x-kubernetes-patch-merge-key`); maps and structs
 * granular unless `x-kubernetes-map-type: atomic`; a schema that says nothing (RawExtension,
 * `x-kubernetes-preserve-unknown-fields`) is "deduced" from the value (maps granular, lists atomic).
 *
 * The seam for custom resources: `typeOfSchema(schema, resolveRef)` takes any OpenAPI v3 schema —
 * a CRD version's `openAPIV3Schema` with a resolver that knows no refs works as well as the
 * built-in kinds' schemas (`typeOfKind`).
 */
import { openApiDataIfLoaded, SCHEMA_REF_PREFIX, type Schema, schemaOfKind } from '../openapi/data.js';
import type { Value } from './path.js';

export type TypeNode = ScalarType | ListType | MapType | DeducedType;

export interface ScalarType {
  readonly kind: 'scalar';
}

export interface DeducedType {
  readonly kind: 'deduced';
}

export interface ListType {
  readonly kind: 'list';
  readonly atomic: boolean;
  /** Key fields of an associative list of maps; empty for a set (or an atomic list). */
  readonly keys: readonly string[];
  /** Default values of key fields (getAssociativeKeyDefault). */
  readonly keyDefaults: ReadonlyMap<string, Value>;
  readonly element: TypeNode;
}

export interface MapType {
  readonly kind: 'map';
  readonly atomic: boolean;
  /** Declared fields (a struct); undefined for a plain map. */
  readonly fields: ReadonlyMap<string, TypeNode> | undefined;
  /** The type of keys not declared (additionalProperties); undefined when there are none. */
  readonly element: TypeNode | undefined;
}

export const SCALAR: ScalarType = { kind: 'scalar' };
export const DEDUCED: DeducedType = { kind: 'deduced' };

/** Resolves a `$ref` (`#/components/schemas/<name>`) to its schema. */
export type RefResolver = (ref: string) => Schema | undefined;

const noRefs: RefResolver = () => undefined;

/** The type of a property named `key` in a map type (declared field, else the element type). */
export function fieldType(t: MapType, key: string): TypeNode | undefined {
  return t.fields?.get(key) ?? t.element;
}

/** The merge semantics of `schema`; `$ref`s are looked up with `resolveRef` (cached per schema object). */
export function typeOfSchema(schema: Schema, resolveRef: RefResolver = noRefs): TypeNode {
  return new Converter(resolveRef).convert(schema);
}

const builtinConverters = new WeakMap<object, Converter>();
const kindTypes = new Map<string, TypeNode | null>();

/** The converter of Kubernetes' own schemas, once loaded. */
function builtinConverter(): Converter | undefined {
  const data = openApiDataIfLoaded();
  if (data === undefined) return undefined;
  let conv = builtinConverters.get(data);
  if (conv === undefined) {
    const schemas = data.schemas;
    conv = new Converter((r) =>
      r.startsWith(SCHEMA_REF_PREFIX) ? schemas[r.slice(SCHEMA_REF_PREFIX.length)] : undefined,
    );
    builtinConverters.set(data, conv);
  }
  return conv;
}

/** ObjectMeta's type (custom resources' metadata is typed as ObjectMeta whatever their schema says). */
export function objectMetaType(): TypeNode {
  return (
    builtinConverter()?.convert({ $ref: `${SCHEMA_REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` }) ??
    DEDUCED
  );
}

/** The type of a built-in kind from Kubernetes' OpenAPI schemas (loadOpenApiData must have finished). */
export function typeOfKind(group: string, version: string, kind: string): TypeNode | undefined {
  const key = `${group}/${version}/${kind}`;
  const cached = kindTypes.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const data = openApiDataIfLoaded();
  const ref = schemaOfKind(group, version, kind);
  if (data === undefined || ref === undefined) {
    if (data !== undefined) kindTypes.set(key, null);
    return undefined;
  }
  const t = (builtinConverter() as Converter).convert(ref);
  kindTypes.set(key, t);
  return t;
}

/** Schemas to types, each named schema once (recursive schemas resolve lazily). */
class Converter {
  private readonly named = new Map<string, TypeNode>();
  constructor(private readonly resolveRef: RefResolver) {}

  /** The schema a property points at: its `$ref` or `allOf: [{$ref}]`, with the property's own extensions on top. */
  private target(schema: Schema): { ref: string | undefined; schema: Schema } {
    const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
    if (ref === undefined) return { ref: undefined, schema };
    return { ref, schema: this.resolveRef(ref) ?? {} };
  }

  convert(prop: Schema): TypeNode {
    const { ref, schema } = this.target(prop);
    // Extensions beside a reference override the referenced schema's (a field marked atomic).
    const overrides = ref !== undefined && hasMergeExtensions(prop);
    if (ref !== undefined && !overrides) {
      const done = this.named.get(ref);
      if (done !== undefined) return done;
      const t = this.build({ ...schema }, ref);
      return t;
    }
    return this.build(ref === undefined ? prop : { ...schema, ...extensionsOf(prop) }, undefined);
  }

  private build(schema: Schema, ref: string | undefined): TypeNode {
    if (schema['x-kubernetes-int-or-string'] === true || schema.format === 'int-or-string')
      return this.remember(ref, SCALAR);
    if (schema.type === 'array') {
      const items = schema.items;
      const { atomic, keys } = listRelationship(schema);
      let element: TypeNode | undefined;
      const keyDefaults = new Map<string, Value>();
      if (items !== undefined && keys.length > 0) {
        const itemSchema = this.target(items).schema;
        for (const k of keys) {
          const d = itemSchema.properties?.[k]?.default;
          if (d !== undefined) keyDefaults.set(k, d as Value);
        }
      }
      const conv = this;
      const t: ListType = {
        kind: 'list',
        atomic,
        keys,
        keyDefaults,
        get element(): TypeNode {
          element ??= items === undefined ? DEDUCED : conv.convert(items);
          return element;
        },
      };
      return this.remember(ref, t);
    }
    const props = schema.properties;
    const additional = schema.additionalProperties;
    if (schema.type === 'object' || props !== undefined) {
      if (props === undefined && (additional === undefined || additional === true || additional === false)) {
        return this.remember(ref, schema['x-kubernetes-map-type'] === 'atomic' ? ATOMIC_DEDUCED_MAP : DEDUCED);
      }
      const conv = this;
      let fields: Map<string, TypeNode> | undefined;
      let element: TypeNode | undefined;
      const t: MapType = {
        kind: 'map',
        atomic: schema['x-kubernetes-map-type'] === 'atomic',
        get fields(): ReadonlyMap<string, TypeNode> | undefined {
          if (props === undefined) return undefined;
          if (fields === undefined) {
            fields = new Map();
            for (const [name, p] of Object.entries(props)) fields.set(name, conv.convert(p));
          }
          return fields;
        },
        get element(): TypeNode | undefined {
          if (typeof additional !== 'object')
            return schema['x-kubernetes-preserve-unknown-fields'] === true ? DEDUCED : undefined;
          element ??= conv.convert(additional);
          return element;
        },
      };
      return this.remember(ref, t);
    }
    if (schema.type !== undefined) return this.remember(ref, SCALAR);
    // oneOf of scalars (Quantity) is a scalar; no type at all is deduced from the value.
    if (schema.oneOf?.every((s) => s.type !== 'object' && s.type !== 'array')) {
      return this.remember(ref, SCALAR);
    }
    return this.remember(ref, DEDUCED);
  }

  private remember(ref: string | undefined, t: TypeNode): TypeNode {
    if (ref !== undefined) this.named.set(ref, t);
    return t;
  }
}

const ATOMIC_DEDUCED_MAP: MapType = { kind: 'map', atomic: true, fields: undefined, element: DEDUCED };

const MERGE_EXTENSIONS = ['x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type'] as const;

function hasMergeExtensions(s: Schema): boolean {
  return MERGE_EXTENSIONS.some((k) => s[k] !== undefined);
}

function extensionsOf(s: Schema): Schema {
  const out: Schema = {};
  for (const k of MERGE_EXTENSIONS) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

/** schemaconv getListElementRelationship: list-type first, then the legacy patch strategy. */
function listRelationship(schema: Schema): { atomic: boolean; keys: string[] } {
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'atomic') return { atomic: true, keys: [] };
  if (listType === 'set') return { atomic: false, keys: [] };
  if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'];
    return { atomic: false, keys: Array.isArray(keys) ? (keys as string[]) : [] };
  }
  const strategy = schema['x-kubernetes-patch-strategy'];
  if (typeof strategy === 'string' && strategy.split(',').includes('merge')) {
    const key = schema['x-kubernetes-patch-merge-key'];
    return { atomic: false, keys: typeof key === 'string' ? [key] : [] };
  }
  return { atomic: true, keys: [] };
}

const zeroObjects = new Map<string, Readonly<Record<string, Value>>>();

/**
 * Go's zero value of a built-in kind as the unstructured converter writes it (what
 * `scope.Creater.New(kind)` gives the field manager as the live object of a create): non-pointer
 * struct fields (`default: {}` in Kubernetes' OpenAPI) are there as objects, required lists and
 * pointers as null. Scalars are left out: a leaf counts as changed either way. Shared and frozen:
 * the field manager only reads it.
 */
export function zeroObjectOfKind(group: string, version: string, kind: string): Readonly<Record<string, Value>> {
  const key = `${group}/${version}/${kind}`;
  let z = zeroObjects.get(key);
  if (z === undefined) {
    const data = openApiDataIfLoaded();
    const ref = schemaOfKind(group, version, kind);
    let obj: Record<string, Value> = {};
    if (data !== undefined && ref !== undefined) {
      const schemas = data.schemas;
      const resolve: RefResolver = (r) =>
        r.startsWith(SCHEMA_REF_PREFIX) ? schemas[r.slice(SCHEMA_REF_PREFIX.length)] : undefined;
      obj = zeroOf(ref, resolve, 0);
    }
    z = deepFreeze(obj);
    zeroObjects.set(key, z);
  }
  return z;
}

function deepFreeze<T extends Value>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const child of Object.values(v)) deepFreeze(child as Value);
    Object.freeze(v);
  }
  return v;
}

function zeroOf(prop: Schema, resolve: RefResolver, depth: number): Record<string, Value> {
  const ref = prop.$ref ?? (prop.allOf?.length === 1 ? prop.allOf[0]?.$ref : undefined);
  const schema = ref === undefined ? prop : (resolve(ref) ?? {});
  const out: Record<string, Value> = {};
  if (depth > 12 || schema.properties === undefined) return out;
  const required = new Set(schema.required ?? []);
  for (const [name, p] of Object.entries(schema.properties)) {
    const isStruct = p.default !== undefined && typeof p.default === 'object' && p.default !== null;
    const target = p.$ref ?? (p.allOf?.length === 1 ? p.allOf[0]?.$ref : undefined);
    if (isStruct && target !== undefined) out[name] = zeroOf(p, resolve, depth + 1);
    // ObjectMeta.creationTimestamp is a non-pointer metav1.Time: a zero one marshals as null.
    else if (name === 'creationTimestamp' && target?.endsWith('.meta.v1.Time')) out[name] = null;
    else if (
      required.has(name) &&
      p.default === undefined &&
      (p.type === 'array' || target !== undefined || p.type === 'object')
    )
      out[name] = null;
  }
  return out;
}
