/**
 * The uniqueness of `x-kubernetes-list-type: set` items and `map` keys
 * (apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go ValidateListSetsAndMaps).
 */
import { duplicate, type FieldError, invalid } from '../../../api/field-errors.js';
import { GoLiteral } from '../../../api/go-format.js';
import { child, index, key, type MaybePath } from './field-path.js';
import { goBadValue, goSharp } from './go-values.js';
import {
  additionalSchema,
  goJSON,
  isObject,
  itemsSchema,
  type JSONObject,
  type JSONSchemaProps,
  own,
  setOwn,
} from './types.js';

/** ValidateListSetsAndMaps over an object. */
export function validateListSetsAndMaps(
  path: MaybePath,
  s: JSONSchemaProps | undefined,
  obj: JSONObject,
): FieldError[] {
  if (s === undefined) return [];
  const errs: FieldError[] = [];
  const ap = additionalSchema(s);
  if (ap !== undefined) {
    for (const [k, v] of Object.entries(obj)) errs.push(...validateValue(key(path, k), ap, v));
  }
  if (s.properties !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = own(s.properties, k);
      if (sub !== undefined) errs.push(...validateValue(child(path, k), sub, v));
    }
  }
  return errs;
}

function validateValue(path: MaybePath, s: JSONSchemaProps, v: unknown): FieldError[] {
  if (Array.isArray(v)) return validateArray(path, s, v);
  if (isObject(v)) return validateListSetsAndMaps(path, s, v);
  return [];
}

function validateArray(path: MaybePath, s: JSONSchemaProps, arr: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of nonUnique(arr)) errs.push(duplicate(index(path, i), goBadValue(arr[i])));
  } else if (listType === 'map') {
    errs.push(...validateListMap(path, s, arr));
  }
  const items = itemsSchema(s);
  if (items !== undefined)
    arr.forEach((x, i) => {
      errs.push(...validateValue(index(path, i), items, x));
    });
  return errs;
}

/** A sentinel for a map key field that is not set. */
const UNSPECIFIED = Symbol('unspecifiedKeyValue');

/** validateListSet: the index of each value's second appearance. */
function nonUnique(arr: readonly unknown[]): number[] {
  const seen = new Map<unknown, number>();
  const out: number[] = [];
  arr.forEach((x, i) => {
    // Compounds compare by their JSON; scalars by value (1 and "1" differ).
    const k = isObject(x) || Array.isArray(x) ? `c:${goJSON(x)}` : typeof x === 'string' ? `s:${x}` : x;
    const times = seen.get(k);
    if (times === undefined) seen.set(k, 1);
    else {
      seen.set(k, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

function validateListMap(path: MaybePath, s: JSONSchemaProps, arr: unknown[]): FieldError[] {
  for (let i = 0; i < arr.length; i++) {
    const x = arr[i];
    if (x !== null && !isObject(x)) {
      return [invalid(index(path, i), goBadValue(x), 'must be an object for an array of list-type map')];
    }
  }
  if (arr.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  if (keyFields.length === 1) {
    const f = keyFields[0] as string;
    const keys = arr.map((x) => (isObject(x) && Object.hasOwn(x, f) ? x[f] : UNSPECIFIED));
    return nonUnique(keys).map((i) => {
      const k = keys[i];
      return duplicate(index(path, i), mapLiteral(k === UNSPECIFIED ? {} : { [f]: k }));
    });
  }
  const keys = arr.map((x) => {
    const k: JSONObject = {};
    if (isObject(x)) for (const f of keyFields) if (Object.hasOwn(x, f)) setOwn(k, f, x[f]);
    return k;
  });
  return nonUnique(keys).map((i) => duplicate(index(path, i), mapLiteral(keys[i] as JSONObject)));
}

/** Go's `%#v` of a `map[string]interface {}`. */
function mapLiteral(m: JSONObject): GoLiteral {
  return new GoLiteral(goSharp(m));
}
