/**
 * TypeMeta and ObjectMeta of embedded resources (`x-kubernetes-embedded-resource: true`):
 * apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go Validate. apiVersion and kind
 * are required; metadata, when present, must decode as an ObjectMeta and pass ValidateObjectMeta
 * with the path-segment name rule.
 */
import { type FieldError, invalid, required } from '../../../api/field-errors.js';
import type { ObjectMeta } from '../../../api/meta.js';
import { goTimeParseError, RFC3339 } from '../../../api/time.js';
import { isDNS1035Label, validatePathSegmentName } from '../../../api/validation/names.js';
import { validateObjectMeta } from '../../../api/validation/object-meta.js';
import { child, index, key, type MaybePath } from './field-path.js';
import { goBadValue } from './go-values.js';
import {
  additionalSchema,
  compareBytes,
  goJSON,
  isObject,
  itemsSchema,
  type JSONObject,
  type JSONSchemaProps,
  own,
} from './types.js';

/** objectmeta.Validate: embedded resources at any depth, and the root itself when `isResourceRoot`. */
export function validateEmbeddedResources(
  path: MaybePath,
  obj: unknown,
  s: JSONSchemaProps | undefined,
  isResourceRoot: boolean,
): FieldError[] {
  if (isResourceRoot) {
    const base = s ?? {};
    s = base['x-kubernetes-embedded-resource'] === true ? base : { ...base, 'x-kubernetes-embedded-resource': true };
  }
  return walk(path, obj, s);
}

function walk(path: MaybePath, x: unknown, s: JSONSchemaProps | undefined): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => {
      errs.push(...walk(index(path, i), v, items));
    });
  } else if (isObject(x)) {
    if (s['x-kubernetes-embedded-resource'] === true) errs.push(...validateEmbeddedResource(path, x));
    const ap = additionalSchema(s);
    for (const [k, v] of Object.entries(x)) {
      const prop = own(s.properties, k);
      if (prop !== undefined) errs.push(...walk(child(path, k), v, prop));
      else if (ap !== undefined) errs.push(...walk(key(path, k), v, ap));
    }
  }
  return errs;
}

/** schema.ParseGroupVersion's error, or undefined when `gv` parses. */
export function parseGroupVersionError(gv: string): string | undefined {
  if (gv === '' || gv === '/') return undefined;
  const slashes = gv.split('/').length - 1;
  return slashes <= 1 ? undefined : `unexpected GroupVersion string: ${gv}`;
}

function validateEmbeddedResource(path: MaybePath, x: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(child(path, 'apiVersion'), ''));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(child(path, 'kind'), ''));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(child(path, 'apiVersion'), goBadValue(v), 'must be a string'));
      else if (v.length === 0) errs.push(required(child(path, 'apiVersion'), ''));
      else {
        const err = parseGroupVersionError(v);
        if (err !== undefined) errs.push(invalid(child(path, 'apiVersion'), v, err));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(child(path, 'kind'), goBadValue(v), 'must be a string'));
      else if (v.length === 0) errs.push(required(child(path, 'kind'), ''));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) {
          errs.push(
            invalid(child(path, 'kind'), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`),
          );
        }
      }
    } else if (k === 'metadata') {
      const decoded = decodeObjectMeta(v);
      if (typeof decoded === 'string') {
        errs.push(invalid(child(path, 'metadata'), goBadValue(v), decoded));
      } else {
        const meta: ObjectMeta = { ...decoded };
        if ((meta.name ?? '') === '') meta.name = 'fakename'; // as Kubernetes, to skip "name is required"
        errs.push(
          ...validateObjectMeta(meta, (meta.namespace ?? '') !== '', validatePathSegmentName, child(path, 'metadata')),
        );
      }
    }
  }
  return errs;
}

/** ObjectMeta's fields and their Go types (k8s.io/apimachinery/pkg/apis/meta/v1 types.go). */
const META_FIELDS: Record<string, string> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'types.UID',
  resourceVersion: 'string',
  generation: 'int64',
  creationTimestamp: 'v1.Time',
  deletionTimestamp: 'v1.Time',
  deletionGracePeriodSeconds: 'int64',
  labels: 'map[string]string',
  annotations: 'map[string]string',
  ownerReferences: '[]v1.OwnerReference',
  finalizers: '[]string',
  managedFields: '[]v1.ManagedFieldsEntry',
};

/** encoding/json's name for the JSON kind of a value in UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

function typeError(v: unknown, key: string, type: string): string {
  return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${key} of type ${type}`;
}

/** The first error decoding one field's value as its Go type, or undefined. */
function fieldError(key: string, type: string, v: unknown): { error: string; abort: boolean } | undefined {
  if (v === null) return undefined;
  const saved = (error: string) => ({ error, abort: false });
  switch (type) {
    case 'string':
    case 'types.UID':
      return typeof v === 'string' ? undefined : saved(typeError(v, key, type));
    case 'int64':
      if (typeof v !== 'number') return saved(typeError(v, key, type));
      if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 63) {
        return saved(`json: cannot unmarshal number ${goJSON(v)} into Go struct field ObjectMeta.${key} of type int64`);
      }
      return undefined;
    case 'v1.Time': {
      // metav1.Time.UnmarshalJSON: a string, then time.Parse(RFC3339); its errors end the decode.
      if (typeof v !== 'string')
        return { error: `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`, abort: true };
      const err = goTimeParseError(v, RFC3339);
      return err === undefined ? undefined : { error: err, abort: true };
    }
    case 'map[string]string': {
      if (!isObject(v)) return saved(typeError(v, key, type));
      const bad = Object.keys(v)
        .sort(compareBytes)
        .find((k) => v[k] !== null && typeof v[k] !== 'string');
      return bad === undefined ? undefined : saved(typeError(v[bad], key, 'string'));
    }
    case '[]string': {
      if (!Array.isArray(v)) return saved(typeError(v, key, type));
      const bad = v.find((x) => x !== null && typeof x !== 'string');
      return bad === undefined ? undefined : saved(typeError(bad, key, 'string'));
    }
    default:
      return Array.isArray(v) ? undefined : saved(typeError(v, key, type));
  }
}

/**
 * GetObjectMeta without dropping malformed fields (objectmeta/algorithm.go: utiljson.Unmarshal of
 * the metadata's JSON): the ObjectMeta, or encoding/json's error — the first type mismatch in key
 * order, or at once the error of metav1.Time's UnmarshalJSON. OwnerReferences and managedFields are
 * checked for being arrays only.
 */
export function decodeObjectMeta(v: unknown): ObjectMeta | string {
  if (v === null) return {};
  if (!isObject(v)) return `json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta`;
  let first: string | undefined;
  for (const k of Object.keys(v).sort(compareBytes)) {
    const type = own(META_FIELDS, k);
    if (type === undefined) continue;
    const err = fieldError(k, type, v[k]);
    if (err === undefined) continue;
    if (err.abort) return err.error;
    first ??= err.error;
  }
  return first ?? (v as ObjectMeta);
}
