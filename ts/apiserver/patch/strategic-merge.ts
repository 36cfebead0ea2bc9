/**
 * Strategic merge patch for the built-in kinds served here (../shared/reference/api.md §2;
 * k8s.io/apimachinery/pkg/util/strategicpatch): maps merge and null deletes, lists with a
 * `patchMergeKey` merge element by element, `metadata.finalizers` is a set, every other list is
 * replaced; directives `$patch` (replace/delete/merge), `$setElementOrder/<list>`,
 * `$deleteFromPrimitiveList/<list>` and `$retainKeys`. The merge keys come from the Go struct tags
 * of k8s.io/api v0.32 for the fields these kinds have; there is no OpenAPI schema behind it.
 */
import { newBadRequest } from '../../api/status.js';
import { getOwn, type Json, setOwn } from './json-patch.js';

type JsonObject = { [key: string]: Json };
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** How the list at `path` (field names from the root) merges. */
type ListStrategy = { mergeKey: string } | 'set' | 'replace';

function listStrategy(path: readonly string[]): ListStrategy {
  const field = path[path.length - 1] ?? '';
  const parent = path[path.length - 2] ?? '';
  if (CONTAINER_LISTS.has(field) || field === 'env' || field === 'volumes' || field === 'imagePullSecrets') {
    return { mergeKey: 'name' };
  }
  if (field === 'volumeMounts') return { mergeKey: 'mountPath' };
  if (field === 'volumeDevices') return { mergeKey: 'devicePath' };
  // Container ports merge by containerPort; Service ports by port; Endpoints subsets' and
  // EndpointSlice ports are atomic (no patch strategy).
  if (field === 'ports') {
    if (path.some((p) => CONTAINER_LISTS.has(p))) return { mergeKey: 'containerPort' };
    return parent === 'spec' ? { mergeKey: 'port' } : 'replace';
  }
  if (field === 'ownerReferences') return { mergeKey: 'uid' };
  if (field === 'conditions') return { mergeKey: 'type' };
  if (field === 'hostAliases') return { mergeKey: 'ip' };
  if (field === 'topologySpreadConstraints') return { mergeKey: 'topologyKey' };
  if (field === 'finalizers' && parent === 'metadata') return 'set';
  return 'replace';
}

function same(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A patch element without its directives, as it is stored when it has no original to merge into. */
function strip(v: Json, path: string[]): Json {
  return isObject(v) ? (applyMap({}, v, path) ?? {}) : v;
}

/** The identity of a list element for ordering: its merge key's value, or the element itself. */
function keyFn(path: string[]): (v: Json) => string {
  const strategy = listStrategy(path);
  return (v) => JSON.stringify(typeof strategy === 'object' && isObject(v) ? getOwn(v, strategy.mergeKey) : v);
}

/**
 * strategicpatch.normalizeElementOrder: the merged elements named by `patchOrder` (the patch's
 * elements, or its `$setElementOrder`) in that order, the others in their original order, and
 * the two interleaved so that elements the original already ordered keep that order; an element
 * new to the original goes before the original's remaining ones.
 */
function normalizeOrder(merged: Json[], patchOrder: Json[], original: Json[], path: string[]): Json[] {
  const keyOf = keyFn(path);
  const patchRank = new Map(patchOrder.map((v, i) => [keyOf(v), i]));
  const serverRank = new Map(original.map((v, i) => [keyOf(v), i]));
  const byRank = (rank: Map<string, number>) => (a: Json, b: Json) =>
    (rank.get(keyOf(a)) ?? 0) - (rank.get(keyOf(b)) ?? 0);
  const fromPatch = merged.filter((v) => patchRank.has(keyOf(v))).sort(byRank(patchRank));
  const serverOnly = merged.filter((v) => !patchRank.has(keyOf(v))).sort(byRank(serverRank));
  // mergeSortedSlice(serverOnly, fromPatch, serverOrder)
  const out: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < fromPatch.length) {
    if (j >= fromPatch.length) out.push(serverOnly[i++] as Json);
    else if (i >= serverOnly.length) out.push(fromPatch[j++] as Json);
    else {
      const l = serverRank.get(keyOf(serverOnly[i] as Json));
      const r = serverRank.get(keyOf(fromPatch[j] as Json));
      if (l !== undefined && r !== undefined && l < r) out.push(serverOnly[i++] as Json);
      else out.push(fromPatch[j++] as Json);
    }
  }
  return out;
}

function mergeList(original: Json | undefined, patch: Json[], path: string[]): Json[] {
  const orig = Array.isArray(original) ? original : [];
  const strategy = listStrategy(path);
  if (patch.some((p) => isObject(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isObject(p) && p.$patch === 'replace')).map((p) => strip(p, path));
  }
  if (strategy === 'replace') return patch.map((p) => strip(p, path));
  if (strategy === 'set') {
    const out = [...orig];
    for (const p of patch) if (!out.some((o) => same(o, p))) out.push(p);
    return normalizeOrder(out, patch, orig, path);
  }
  const key = strategy.mergeKey;
  const out = [...orig];
  for (const p of patch) {
    if (!isObject(p)) throw newBadRequest(`unable to find api field in struct for the merge key "${key}"`);
    const idx = out.findIndex((o) => isObject(o) && same(getOwn(o, key), getOwn(p, key)));
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = applyMap(out[idx] as JsonObject, p, path) ?? {};
    else out.push(strip(p, path));
  }
  const named = patch.filter((p) => !(isObject(p) && p.$patch === 'delete'));
  return normalizeOrder(out, named, orig, path);
}

/** Applies a patch map to an original map; undefined when the patch deletes the map. */
function applyMap(original: Json | undefined, patch: JsonObject, path: string[]): JsonObject | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return strip({ ...patch, $patch: null }, path) as JsonObject;
  const out: JsonObject = isObject(original) ? { ...original } : {};
  const orders: [string, Json[]][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith('$setElementOrder/')) {
      if (Array.isArray(v)) orders.push([k.slice('$setElementOrder/'.length), v]);
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const list = getOwn(out, field);
      if (Array.isArray(list) && Array.isArray(v))
        setOwn(
          out,
          field,
          list.filter((x) => !v.some((d) => same(d, x))),
        );
      continue;
    }
    const childPath = [...path, k];
    if (v === null) delete out[k];
    else if (Array.isArray(v)) setOwn(out, k, mergeList(getOwn(out, k), v, childPath));
    else if (isObject(v)) {
      const merged = applyMap(getOwn(out, k), v, childPath);
      if (merged === undefined) delete out[k];
      else setOwn(out, k, merged);
    } else setOwn(out, k, v);
  }
  for (const [field, list] of orders) {
    const current = getOwn(out, field);
    const before = isObject(original) ? getOwn(original, field) : undefined;
    if (Array.isArray(current)) {
      setOwn(out, field, normalizeOrder(current, list, Array.isArray(before) ? before : [], [...path, field]));
    }
  }
  const retain = patch.$retainKeys;
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  }
  return out;
}

/** Applies a strategic merge patch to `original` (an API object). */
export function strategicMergePatch(original: Json, patch: Json): Json {
  if (!isObject(patch)) throw newBadRequest('strategic merge patch must be a JSON object');
  return applyMap(original, patch, []) ?? {};
}
