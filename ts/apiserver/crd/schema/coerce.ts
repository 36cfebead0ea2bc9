/**
 * Coercion of embedded resources' TypeMeta and ObjectMeta as a custom resource is decoded
 * (apiextensions-apiserver pkg/apiserver/schema/objectmeta/algorithm.go Coerce with
 * dropInvalidFields=false, and coerce.go GetObjectMeta/SetObjectMeta): apiVersion and kind must be
 * strings, metadata must decode as an ObjectMeta, and is then written back as Kubernetes writes an
 * ObjectMeta — unknown fields dropped, empty ones omitted, times in UTC, a zero creationTimestamp
 * removed. The first problem ends the walk, as in Kubernetes (a decode error, 400).
 */
import { type FieldError, invalid } from '../../../api/field-errors.js';
import { OBJECT_META_FIELDS } from '../../../api/meta.js';
import { rfc3339 } from '../../../api/time.js';
import { decodeObjectMeta } from './embedded-resource.js';
import { child, index, key, type MaybePath } from './field-path.js';
import { goBadValue } from './go-values.js';
import { additionalSchema, isObject, itemsSchema, type JSONObject, type JSONSchemaProps, own } from './types.js';

export interface CoerceResult {
  /** The first error, as Kubernetes returns it; the object is partly coerced then. */
  error?: FieldError;
  /** Unknown fields inside embedded metadata (`spec.template.metadata.foo`), sorted. */
  unknownFields: string[];
}

const TIMES = new Set(['creationTimestamp', 'deletionTimestamp']);

/** Coerce(nil, obj, schema, isResourceRoot=false, dropInvalidFields=false), in place. */
export function coerceEmbeddedResources(schema: JSONSchemaProps, obj: unknown): CoerceResult {
  const unknownFields: string[] = [];
  const error = coerce(undefined, obj, schema, unknownFields);
  unknownFields.sort();
  return error === undefined ? { unknownFields } : { error, unknownFields };
}

function coerce(
  path: MaybePath,
  x: unknown,
  s: JSONSchemaProps | undefined,
  unknown: string[],
): FieldError | undefined {
  if (s === undefined) return undefined;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      const err = coerce(index(path, i), x[i], items, unknown);
      if (err !== undefined) return err;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const ap = additionalSchema(s);
  for (const [k, v] of Object.entries(x)) {
    if (embedded && (k === 'apiVersion' || k === 'kind') && typeof v !== 'string') {
      return invalid(child(path, k), goBadValue(v), 'must be a string');
    }
    if (embedded && k === 'metadata') {
      const decoded = decodeObjectMeta(v);
      if (typeof decoded === 'string') return invalid(child(path, 'metadata'), goBadValue(v), decoded);
      if (isObject(v)) {
        const metaPath = child(path, 'metadata').toString();
        for (const f of Object.keys(v)) if (!OBJECT_META_FIELDS.includes(f)) unknown.push(`${metaPath}.${f}`);
      }
      x.metadata = setObjectMeta(decoded as JSONObject);
    }
    const prop = own(s.properties, k);
    let err: FieldError | undefined;
    if (prop !== undefined) err = coerce(child(path, k), x[k], prop, unknown);
    else if (s.additionalProperties !== undefined) err = coerce(key(path, k), x[k], ap, unknown);
    if (err !== undefined) return err;
  }
  return undefined;
}

/** SetObjectMeta: ToUnstructured of the decoded ObjectMeta (omitempty fields left out). */
function setObjectMeta(meta: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const f of OBJECT_META_FIELDS) {
    const v = meta[f];
    if (v === undefined || v === null || v === '' || v === 0) continue;
    if ((Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0)) continue;
    out[f] = TIMES.has(f) && typeof v === 'string' ? utcSeconds(v) : v;
  }
  // A zero deletionGracePeriodSeconds is a set pointer: kept.
  if (meta.deletionGracePeriodSeconds === 0) out.deletionGracePeriodSeconds = 0;
  return out;
}

/** metav1.Time's ToUnstructured: RFC 3339 in UTC, whole seconds. */
function utcSeconds(t: string): string {
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return t;
  return rfc3339(ms);
}
