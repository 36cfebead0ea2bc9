/**
 * The FieldsV1 of an update whose object has one managedFields entry, the writer's own `Update`
 * entry (same manager, apiVersion and subresource): the common PUT of a controller or client that
 * created the object. With no other manager, updater.ts's Update (then stripmeta and the merge into
 * the writer's entry, field-manager.ts) comes down to
 *
 *   owned' = (owned − removed − changed) ∪ (changed − reset fields (recursively) − stripmeta fields)
 *
 * with the time set to now when the second part is not empty, where changed and removed are
 * Compare(live, next)'s (walk.ts). This computes owned' in one walk of live and next beside the
 * stored FieldsV1, in the order toFieldsV1 writes, without decoding it into a field set, comparing
 * into sets or encoding. Whatever it does not handle it refuses (FastPathRefused; TypedError from
 * list items): a change at or below a reset field where the writer owns something, a stored field
 * in neither object, an undeclared field, duplicate keys, a FieldsV1 that does not decode. The
 * caller then takes the general path (updated-fields.test.ts checks that both agree).
 */
import {
  below,
  FastPathRefused,
  type Field,
  fieldOf,
  fieldsOf,
  hasDuplicates,
  ignoredAt,
  isObj,
  type Obj,
  type Removed,
  type Side,
  sortNames,
  strippedAt,
} from './direct-walk.js';
import type { FieldSet } from './field-set.js';
import type { FieldsV1 } from './fields-v1.js';
import { compareItems, listItemKey } from './list-items.js';
import type { Value } from './path.js';
import type { ListType, MapType, TypeNode } from './typed.js';
import { concrete, isEmptyObj, sameShape, valuesEqual } from './walk.js';

const isNode = (v: unknown): v is FieldsV1 => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmptyMap = (v: Value): boolean => isEmptyObj(v as Obj);
const isEmptyList = (v: Value): boolean => (v as Value[]).length === 0;

/** What the walk found besides the new FieldsV1. */
interface Outcome {
  /** Whether the writer took a field it did not take before (changed − stripmeta): the entry's time becomes now. */
  took: boolean;
}

/** Whether `owned` (a FieldsV1 node) makes its path a member (Set.FromJSON: `{}` or a `"."` key). */
const ownedMember = (owned: FieldsV1 | undefined): boolean =>
  owned !== undefined && (isEmptyObj(owned) || Object.hasOwn(owned, '.'));

/** The number of owned children of a stored node (its keys but `"."`). */
function childCount(owned: FieldsV1 | undefined): number {
  let n = 0;
  for (const key in owned) if (key !== '.') n++;
  return n;
}

/** The number of properties of `o` (without listing them). */
function keyCount(o: Obj): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/**
 * `o[name]` when it is an own property of `o` (one lookup): a JSON value is never a function, and
 * `__proto__` is the one property of Object.prototype that is not.
 */
function ownValue(o: Obj, name: string): Side {
  const v: unknown = o[name];
  if (typeof v === 'function' || (name === '__proto__' && !Object.hasOwn(o, name))) return undefined;
  return v as Side;
}

/**
 * The output node of the path at `lhs`/`rhs`: undefined when the writer owns nothing there. `owned`:
 * the stored FieldsV1 node of the path; `frozen`: at or below a reset field; `stripped`: the path
 * is a stripmeta field.
 */
function visit(
  lhs: Side,
  rhs: Side,
  t: TypeNode,
  owned: FieldsV1 | undefined,
  removed: Removed,
  frozen: boolean,
  stripped: boolean,
  out: Outcome,
): FieldsV1 | undefined {
  const type = concrete(t, rhs === undefined ? lhs : rhs);
  let map = false;
  let list = false;
  if (type.kind === 'map') map = !type.atomic && granular(lhs, rhs, isObj, isEmptyMap);
  else if (type.kind === 'list') list = !type.atomic && granular(lhs, rhs, Array.isArray, isEmptyList);
  // Compare's leaf rule, and its post-item rule for a granular node (no "modified" there).
  const gone = rhs === undefined;
  const changed = lhs === undefined || (!gone && !map && !list && !valuesEqual(lhs, rhs));
  // At or below a reset field the writer takes nothing (removeRecursive), and loses what it owned
  // there when it changed (rare: the general path computes that).
  if (frozen && (changed || gone) && owned !== undefined) throw new FastPathRefused();
  const taken = changed && !frozen;
  const member = taken ? !stripped : !gone && ownedMember(owned);
  if (taken && member) out.took = true;
  if (!map && !list) {
    // Stored fields the walk does not reach stay as they are (owned − removed − changed): rare, and
    // left to the general path, which decodes and encodes them again.
    if (childCount(owned) > 0) throw new FastPathRefused();
    return member ? {} : undefined;
  }
  // `"."` first: an object's string keys keep their insertion order.
  const node: FieldsV1 = member ? { '.': {} } : {};
  const children = map
    ? visitMap(lhs, rhs, type as MapType, owned, removed, frozen, node, out)
    : visitList(lhs, rhs, type as ListType, owned, removed, frozen, node, out);
  if (children > 0) return node;
  return member ? {} : undefined;
}

/** Whether Compare walks into the values (a granular node): same shape and not both empty. */
function granular(lhs: Side, rhs: Side, is: (v: Side) => boolean, empty: (v: Value) => boolean): boolean {
  if (!sameShape(lhs, rhs, is)) return false;
  const lEmpty = lhs === undefined || lhs === null || !is(lhs) || empty(lhs);
  const rEmpty = rhs === undefined || rhs === null || !is(rhs) || empty(rhs);
  return !(lEmpty && rEmpty);
}

/**
 * The stored node of element `key` below `owned`; FieldsV1 that does not decode is refused. (No
 * element key names a property of Object.prototype: they all start with `f:`, `k:`, `v:` or `i:`.)
 */
function ownedChild(owned: FieldsV1 | undefined, key: string): FieldsV1 | undefined {
  if (owned === undefined) return undefined;
  const child: unknown = owned[key];
  if (child === undefined) return undefined;
  if (!isNode(child)) throw new FastPathRefused();
  return child;
}

/** The output node of element `key` (a field or list item) of a granular node. */
function visitElement(
  key: string,
  lv: Side,
  rv: Side,
  t: TypeNode,
  owned: FieldsV1 | undefined,
  removed: Removed,
  frozen: boolean,
  out: Outcome,
): FieldsV1 | undefined {
  const frozenBelow = frozen || ignoredAt(removed, key);
  return visit(lv, rv, t, owned, below(removed, key), frozenBelow, strippedAt(removed, key), out);
}

/** A field's declared type and key; an undeclared one is refused (the general path reports it). */
function declared(type: MapType, fields: Map<string, Field>, name: string): { type: TypeNode; key: string } {
  const f = fieldOf(type, fields, name);
  if (f.type === undefined) throw new FastPathRefused();
  return f as { type: TypeNode; key: string };
}

/**
 * Writes the owned fields of a granular map into `node` in element order (by name); returns how
 * many. Only fields of `rhs` can be owned: a removed field is walked for the refusals below it.
 */
function visitMap(
  lhs: Side,
  rhs: Side,
  type: MapType,
  owned: FieldsV1 | undefined,
  removed: Removed,
  frozen: boolean,
  node: FieldsV1,
  out: Outcome,
): number {
  const l = isObj(lhs) ? lhs : undefined;
  const r = isObj(rhs) ? rhs : undefined;
  const fields = fieldsOf(type);
  let count = 0;
  let reached = 0;
  let kept = 0;
  if (r !== undefined) {
    for (const name of sortNames(Object.keys(r))) {
      const f = declared(type, fields, name);
      const o = ownedChild(owned, f.key);
      if (o !== undefined) reached++;
      const lv = l === undefined ? undefined : ownValue(l, name);
      if (lv !== undefined) kept++;
      const child = visitElement(f.key, lv, r[name], f.type, o, removed, frozen, out);
      if (child === undefined) continue;
      node[f.key] = child;
      count++;
    }
  }
  if (l !== undefined && kept < keyCount(l)) {
    for (const name in l) {
      if (r !== undefined && Object.hasOwn(r, name)) continue;
      const f = declared(type, fields, name);
      const o = ownedChild(owned, f.key);
      if (o !== undefined) reached++;
      visitElement(f.key, l[name], undefined, f.type, o, removed, frozen, out);
    }
  }
  // A stored field in neither object (see visit).
  if (reached !== childCount(owned)) throw new FastPathRefused();
  return count;
}

/**
 * Writes the owned items of a granular list into `node` in element order; returns how many. Only
 * items of `rhs` can be owned: a removed item is walked for the refusals below it.
 */
function visitList(
  lhs: Side,
  rhs: Side,
  type: ListType,
  owned: FieldsV1 | undefined,
  removed: Removed,
  frozen: boolean,
  node: FieldsV1,
  out: Outcome,
): number {
  const l = Array.isArray(lhs) ? lhs : NO_ITEMS;
  const r = Array.isArray(rhs) ? rhs : NO_ITEMS;
  const rKeys: string[] = [];
  for (const item of r) rKeys.push(listItemKey(type, item));
  if (hasDuplicates(rKeys)) throw new FastPathRefused(); // the general path reports them
  // A duplicate in the live object (AllowDuplicates) is left as it is, as Compare does: the first counts.
  const lhsByKey = new Map<string, Value>();
  for (const item of l) {
    const key = listItemKey(type, item);
    if (!lhsByKey.has(key)) lhsByKey.set(key, item);
  }
  const kids: { key: string; item: Value; node: FieldsV1 }[] = [];
  let reached = 0;
  for (let i = 0; i < r.length; i++) {
    const key = rKeys[i] as string;
    const item = r[i] as Value;
    const o = ownedChild(owned, key);
    if (o !== undefined) reached++;
    const child = visitElement(key, lhsByKey.get(key), item, type.element, o, removed, frozen, out);
    if (child !== undefined) kids.push({ key, item, node: child });
  }
  for (const [key, item] of lhsByKey) {
    if (rKeys.includes(key)) continue;
    const o = ownedChild(owned, key);
    if (o !== undefined) reached++;
    visitElement(key, item, undefined, type.element, o, removed, frozen, out);
  }
  // A stored item in neither list (see visit).
  if (reached !== childCount(owned)) throw new FastPathRefused();
  if (kids.length > 1) kids.sort((a, b) => compareItems(type, a.item, b.item));
  for (const k of kids) node[k.key] = k.node;
  return kids.length;
}

const NO_ITEMS: readonly Value[] = [];

/**
 * The writer's FieldsV1 after an update of `live` to `next` when `owned` (the stored FieldsV1 of its
 * own Update entry) is the only entry: undefined when it owns nothing any more; `took` when its
 * entry's time becomes the write's. `ignored`: the reset fields; `strip`: stripmeta's fields.
 */
export function updatedFieldsV1(
  live: Value,
  next: Value,
  t: TypeNode,
  owned: FieldsV1,
  ignored: FieldSet,
  strip: FieldSet,
): { fieldsV1: FieldsV1 | undefined; took: boolean } {
  const out: Outcome = { took: false };
  const fieldsV1 = visit(live, next, t, owned, { ignored, strip }, false, true, out);
  // The root is never a member (a `"."` or `{}` there decodes as nothing).
  if (fieldsV1 !== undefined) delete fieldsV1['.'];
  return { fieldsV1: fieldsV1 === undefined || isEmptyObj(fieldsV1) ? undefined : fieldsV1, took: out.took };
}
