/**
 * Defaulting of custom resources (apiextensions-apiserver pkg/apiserver/schema/defaulting:
 * prunenulls.go PruneNonNullableNullsWithoutDefaults, then algorithm.go Default), as the request
 * decoder applies them after pruning: a `null` where the schema is not nullable is dropped unless the
 * field has a default, which then replaces it; missing fields with a default get a copy of it.
 */
import { deepCopy, isObject, itemsSchema, type JSONSchemaProps, own, setOwn } from './types.js';

/** Both defaulting steps, in place: `applyDefaults(schema, obj)`. */
export function applyDefaults(schema: JSONSchemaProps, obj: unknown): void {
  pruneNonNullableNullsWithoutDefaults(obj, schema);
  defaultValue(obj, schema);
}

function hasDefault(s: JSONSchemaProps | undefined): boolean {
  return s !== undefined && s.default !== undefined && s.default !== null;
}

/** isNonNullableNull: a null the schema does not allow. */
function isNonNullableNull(x: unknown, s: JSONSchemaProps | undefined): boolean {
  return x === null && s !== undefined && s.nullable !== true;
}

/** The schema of one object field: a property, else additionalProperties. */
function fieldSchema(k: string, s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  if (s === undefined) return undefined;
  const prop = own(s.properties, k);
  if (prop !== undefined) return prop;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** PruneNonNullableNullsWithoutDefaults. */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s);
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, items);
  } else if (isObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      const sub = fieldSchema(k, s);
      if (isNonNullableNull(v, sub) && !hasDefault(sub)) delete x[k];
      else pruneNonNullableNullsWithoutDefaults(v, sub);
    }
  }
}

/** Default: defaults of missing (or non-nullable null) fields, then recursion. */
export function defaultValue(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items)) x[i] = deepCopy(items?.default ?? null);
      defaultValue(x[i], items);
    }
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (!hasDefault(prop)) continue;
    if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) setOwn(x, k, deepCopy(prop.default));
  }
  const ap = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  for (const k of Object.keys(x)) {
    const prop = own(s.properties, k);
    if (prop !== undefined) {
      defaultValue(x[k], prop);
    } else if (s.additionalProperties !== undefined) {
      if (isNonNullableNull(x[k], ap)) setOwn(x, k, deepCopy(ap?.default ?? null));
      defaultValue(x[k], ap);
    }
  }
}
