/**
 * Pruning of unknown fields (apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go
 * PruneWithOptions): object fields the structural schema does not specify are deleted, except under
 * `x-kubernetes-preserve-unknown-fields`, and apiVersion/kind/metadata of the resource root and of
 * embedded resources are kept. Only the structural part of the schema
 * counts: properties inside allOf/anyOf/oneOf/not specify nothing.
 */
import { compareBytes, isObject, itemsSchema, type JSONObject, type JSONSchemaProps, own } from './types.js';

export interface PruneOptions {
  /** The object is a whole resource: its apiVersion, kind and metadata are never pruned. */
  isResourceRoot?: boolean;
}

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Prunes `obj` in place; returns the pruned paths (`spec.foo`, `spec.list[0].bar`) sorted, for the
 * `unknown field "spec.foo"` texts of strict field validation.
 */
export function prune(schema: JSONSchemaProps, obj: unknown, opts: PruneOptions = {}): string[] {
  let s: JSONSchemaProps | undefined = schema;
  if (opts.isResourceRoot === true && s['x-kubernetes-embedded-resource'] !== true) {
    s = { ...s, 'x-kubernetes-embedded-resource': true };
  }
  const pruned: string[] = [];
  pruneValue(obj, s, '', pruned);
  return pruned.sort(compareBytes);
}

function appendKey(path: string, k: string): string {
  return path.length > 0 ? `${path}.${k}` : k;
}

function pruneValue(x: unknown, s: JSONSchemaProps | undefined, path: string, pruned: string[]): void {
  if (s !== undefined && s['x-kubernetes-preserve-unknown-fields'] === true) {
    skipPrune(x, s, path, pruned);
    return;
  }
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s);
    x.forEach((v, i) => {
      pruneValue(v, items, `${path}[${i}]`, pruned);
    });
    return;
  }
  if (!isObject(x)) return;
  if (s === undefined) {
    for (const k of Object.keys(x)) {
      pruned.push(appendKey(path, k));
      delete x[k];
    }
    return;
  }
  pruneFields(x, s, path, pruned, true);
}

/** The fields of an object: known ones recursed into, unknown ones deleted when `drop`. */
function pruneFields(x: JSONObject, s: JSONSchemaProps, path: string, pruned: string[], drop: boolean): void {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  for (const [k, v] of Object.entries(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    const p = appendKey(path, k);
    const prop = own(s.properties, k);
    if (prop !== undefined) {
      pruneValue(v, prop, p, pruned);
    } else if (s.additionalProperties !== undefined) {
      // additionalProperties: true (or false) has no schema: everything below it is unknown.
      pruneValue(v, typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined, p, pruned);
    } else if (drop) {
      // An unknown apiVersion/kind/metadata is dropped silently only at the top.
      if (!META_FIELDS.has(k) || path !== '') pruned.push(p);
      delete x[k];
    }
  }
}

/**
 * skipPrune: under preserve-unknown-fields, only the specified parts are pruned further; array
 * items stay preserved (an array without an items schema keeps everything).
 */
function skipPrune(x: unknown, s: JSONSchemaProps | undefined, path: string, pruned: string[]): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) => {
      skipPrune(v, items, `${path}[${i}]`, pruned);
    });
  } else if (isObject(x)) {
    pruneFields(x, s, path, pruned, false);
  }
}
