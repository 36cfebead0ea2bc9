/**
 * The FieldsV1 of a write that nobody else manages fields of (a create, mostly), written straight
 * from one walk: the same set as Compare(live, next)'s added ∪ modified (walk.ts), without the
 * reset fields (and everything below them) and stripmeta's fields (members only), encoded as
 * toFieldsV1 does — with no field set, no removal pass and no copying. Creates are the hot path;
 * updater.ts is the general one (created-fields.test.ts checks that both agree).
 */
import {
  below,
  FastPathRefused,
  fieldOf,
  fieldsOf,
  hasDuplicates,
  ignoredAt,
  isObj,
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
    for (const key of sortNames(Object.keys(r))) {
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
