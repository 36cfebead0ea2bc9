/**
 * The FieldsV1 of a write that nobody else manages fields of (a create, mostly), written straight
 * from one walk: the same set as Compare(live, next)'s added ∪ modified (walk.ts), without the
 * reset fields (and everything below them) and stripmeta's fields (members only), encoded as
 * toFieldsV1 does — with no field set, no removal pass and no copying. Creates are the hot path;
 * updater.ts is the general one (created-fields.test.ts checks that both agree).
 */
import type { FieldSet } from './field-set.js';
import type { FieldsV1 } from './fields-v1.js';
import { compareItems, listItemKey } from './list-items.js';
import { fieldElement, type Value } from './path.js';
import { fieldType, type ListType, type MapType, type TypeNode } from './typed.js';
import { concrete, isEmptyObj, sameShape, valuesEqual } from './walk.js';

type Obj = { [key: string]: Value };
type Side = Value | undefined;

const isObj = (v: Side): v is Obj => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** A value the general path has an error for (an undeclared field, duplicate keys): the caller takes that path. */
export class FastPathRefused extends Error {}

/**
 * Where the walk is in the sets taken out of the result: `ignored` (the reset fields: a member
 * drops the node and all below it) and `strip` (stripmeta: a member drops only the node's own
 * membership). Undefined below the few paths they name, which is nearly everywhere.
 */
interface Removed {
  ignored: FieldSet | undefined;
  strip: FieldSet | undefined;
}

const NOTHING_REMOVED: Removed = { ignored: undefined, strip: undefined };

/** The sets below element `key`, as `remove` of a trie descends into a child. */
function below(removed: Removed, key: string): Removed {
  if (removed === NOTHING_REMOVED) return removed;
  const ignored = removed.ignored?.children.get(key)?.set;
  const strip = removed.strip?.children.get(key)?.set;
  return ignored === undefined && strip === undefined ? NOTHING_REMOVED : { ignored, strip };
}

/**
 * The FieldsV1 node of `rhs` against `lhs`: undefined when nothing there is owned, `{}` for an
 * owned leaf (or a granular node left with no owned children), else its owned children in element
 * order after `"."` when the node itself is new. `stripped`: the node's own membership does not
 * count (stripmeta, and the root, which is never a member).
 */
function visit(lhs: Side, rhs: Side, t: TypeNode, removed: Removed, stripped: boolean): FieldsV1 | undefined {
  if (rhs === undefined) return undefined; // removed: not ours to own
  const type = concrete(t, rhs);
  if (type.kind === 'scalar' || type.kind === 'deduced') return leaf(lhs, rhs, stripped);
  if (type.kind === 'list') return visitList(lhs, rhs, type, removed, stripped);
  return visitMap(lhs, rhs, type, removed, stripped);
}

function leaf(lhs: Side, rhs: Value, stripped: boolean): FieldsV1 | undefined {
  return !stripped && (lhs === undefined || !valuesEqual(lhs, rhs)) ? {} : undefined;
}

/** Whether element `key` of a node is dropped with everything below it (a reset field). */
const ignoredAt = (removed: Removed, key: string): boolean => removed.ignored?.members.has(key) === true;
/** Whether element `key`'s own membership is dropped (a stripmeta field). */
const strippedAt = (removed: Removed, key: string): boolean => removed.strip?.members.has(key) === true;

function visitMap(lhs: Side, rhs: Value, type: MapType, removed: Removed, stripped: boolean): FieldsV1 | undefined {
  const l = isObj(lhs) ? lhs : undefined;
  const r = isObj(rhs) ? rhs : undefined;
  const bothEmpty = (l === undefined || isEmptyObj(l)) && (r === undefined || isEmptyObj(r));
  if (type.atomic || bothEmpty || !sameShape(lhs, rhs, isObj)) return leaf(lhs, rhs, stripped);
  // A new node is a member (the post-item hook's Added), so `"."` comes first.
  const member = lhs === undefined && !stripped;
  const out: FieldsV1 = member ? { '.': {} } : {};
  let owned = 0;
  if (r !== undefined) {
    const fields = fieldsOf(type);
    for (const key of sortedKeys(r)) {
      const { type: ft, key: fkey } = fieldOf(type, fields, key);
      if (ft === undefined) throw new FastPathRefused();
      const lv = l !== undefined && Object.hasOwn(l, key) ? l[key] : undefined;
      // A reset field is still walked: the general path's errors there must send the write to it.
      const child = visit(lv, r[key], ft, below(removed, fkey), strippedAt(removed, fkey));
      if (child === undefined || ignoredAt(removed, fkey)) continue;
      out[fkey] = child;
      owned++;
    }
  }
  return finish(out, owned, member);
}

/** A property's type in a map type (undefined: not declared) and its FieldsV1 key. */
interface Field {
  readonly type: TypeNode | undefined;
  readonly key: string;
}

/** Bound on the fields remembered per map type: a plain map (labels) may have any keys. */
const MAX_FIELDS_PER_TYPE = 1000;
const fieldsByType = new WeakMap<MapType, Map<string, Field>>();

/** The fields of `t` looked up so far (a lookup through the type's getters costs more than the walk's other steps). */
function fieldsOf(t: MapType): Map<string, Field> {
  let fields = fieldsByType.get(t);
  if (fields === undefined) {
    fields = new Map();
    fieldsByType.set(t, fields);
  }
  return fields;
}

function fieldOf(t: MapType, fields: Map<string, Field>, name: string): Field {
  let f = fields.get(name);
  if (f === undefined) {
    f = { type: fieldType(t, name), key: fieldElement(name).key };
    if (fields.size < MAX_FIELDS_PER_TYPE) fields.set(name, f);
  }
  return f;
}

function visitList(lhs: Side, rhs: Value, type: ListType, removed: Removed, stripped: boolean): FieldsV1 | undefined {
  const l = Array.isArray(lhs) ? lhs : undefined;
  const r = Array.isArray(rhs) ? rhs : undefined;
  const bothEmpty = (l === undefined || l.length === 0) && (r === undefined || r.length === 0);
  if (type.atomic || bothEmpty || !sameShape(lhs, rhs, Array.isArray)) return leaf(lhs, rhs, stripped);
  let lhsByKey: Map<string, Value> | undefined;
  if (l !== undefined && l.length > 0) {
    lhsByKey = new Map();
    for (const item of l) {
      const key = listItemKey(type, item);
      if (!lhsByKey.has(key)) lhsByKey.set(key, item);
    }
  }
  const items = r ?? [];
  const keys = items.map((item) => listItemKey(type, item));
  if (hasDuplicates(keys)) throw new FastPathRefused(); // the general path reports them
  const kids: { key: string; item: Value; node: FieldsV1 }[] = [];
  for (let i = 0; i < items.length; i++) {
    const key = keys[i] as string;
    const item = items[i] as Value;
    const child = visit(lhsByKey?.get(key), item, type.element, below(removed, key), strippedAt(removed, key));
    if (child !== undefined && !ignoredAt(removed, key)) kids.push({ key, item, node: child });
  }
  if (kids.length > 1) kids.sort((a, b) => compareItems(type, a.item, b.item));
  const member = lhs === undefined && !stripped;
  const out: FieldsV1 = member ? { '.': {} } : {};
  for (const k of kids) out[k.key] = k.node;
  return finish(out, kids.length, member);
}

/** Whether a key repeats: a scan for the few items of most lists, a set for long ones. */
function hasDuplicates(keys: readonly string[]): boolean {
  if (keys.length > 8) return new Set(keys).size !== keys.length;
  for (let i = 1; i < keys.length; i++) if (keys.indexOf(keys[i] as string) < i) return true;
  return false;
}

/** Up to this many keys, an insertion sort (no call per comparison) beats Array.prototype.sort. */
const INSERTION_SORT_MAX = 24;

/**
 * The keys of `o` in field element order (by name, in UTF-16 code units as `<` compares them).
 * Objects mostly have a few keys: an insertion sort, as sort() without a comparator converts and
 * compares generically (the largest cost of the walk before this).
 */
function sortedKeys(o: Obj): string[] {
  const keys = Object.keys(o);
  if (keys.length > INSERTION_SORT_MAX) return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** A granular node with no owned children is an owned leaf when it is a member, else not there. */
function finish(out: FieldsV1, owned: number, member: boolean): FieldsV1 | undefined {
  if (owned > 0) return out;
  return member ? {} : undefined;
}

/**
 * The FieldsV1 `next` owns against `live` when no manager owns anything yet, without `ignored`
 * (reset fields, recursively) and `strip` (stripmeta, members only); undefined when empty.
 * Throws FastPathRefused, or TypedError for list items, where the general path has errors.
 */
export function createdFieldsV1(
  live: Value,
  next: Value,
  t: TypeNode,
  ignored: FieldSet,
  strip: FieldSet,
): FieldsV1 | undefined {
  return visit(live, next, t, { ignored, strip }, true);
}
