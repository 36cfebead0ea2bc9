/**
 * The FieldsV1 of a write that nobody else manages fields of (a create, mostly), written straight
 * from the walk: the same set as Compare(live, next)'s added ∪ modified (walk.ts), without building
 * a field set, then the reset fields and stripmeta's fields taken out of the trie. Creates are the
 * hot path; updater.ts is the general one (created-fields.test.ts checks that both agree).
 */
import type { FieldSet } from './field-set.js';
import type { FieldsV1 } from './fields-v1.js';
import { listItemElement } from './list-items.js';
import { compareElements, type PathElement, type Value } from './path.js';
import { fieldType, type TypeNode } from './typed.js';
import { concrete, isEmptyObj, sameShape, valuesEqual } from './walk.js';

type Obj = { [key: string]: Value };
type Side = Value | undefined;

const isObj = (v: Side): v is Obj => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** A value the general path has an error for (an undeclared field, duplicate keys): the caller takes that path. */
export class FastPathRefused extends Error {}

const MEMBER: FieldsV1 = Object.freeze({}) as FieldsV1;

/**
 * The FieldsV1 node of `rhs` against `lhs`: undefined when nothing there is owned, `{}` for an
 * owned leaf, else its children in element order after `"."` when the node itself is new.
 */
function visit(lhs: Side, rhs: Side, t: TypeNode): FieldsV1 | undefined {
  if (rhs === undefined) return undefined; // removed: not ours to own
  const type = concrete(t, rhs);
  if (type.kind === 'scalar' || type.kind === 'deduced') return leaf(lhs, rhs);
  if (type.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    const bothEmpty = (l === undefined || l.length === 0) && (r === undefined || r.length === 0);
    if (type.atomic || bothEmpty || !sameShape(lhs, rhs, Array.isArray)) return leaf(lhs, rhs);
    let lhsByKey: Map<string, Value> | undefined;
    if (l !== undefined && l.length > 0) {
      lhsByKey = new Map();
      for (const item of l) {
        const pe = listItemElement(type, item);
        if (!lhsByKey.has(pe.key)) lhsByKey.set(pe.key, item);
      }
    }
    const kids: { pe: PathElement; node: FieldsV1 }[] = [];
    const seen = new Set<string>();
    for (const item of r ?? []) {
      const pe = listItemElement(type, item);
      if (seen.has(pe.key)) throw new FastPathRefused(); // the general path reports duplicates
      seen.add(pe.key);
      const n = visit(lhsByKey?.get(pe.key), item, type.element);
      if (n !== undefined) kids.push({ pe, node: n });
    }
    if (kids.length > 1) kids.sort((a, b) => compareElements(a.pe, b.pe));
    const out = open(lhs);
    for (const k of kids) out[k.pe.key] = k.node;
    return close(out, lhs, kids.length);
  }
  const l = isObj(lhs) ? lhs : undefined;
  const r = isObj(rhs) ? rhs : undefined;
  const bothEmpty = (l === undefined || isEmptyObj(l)) && (r === undefined || isEmptyObj(r));
  if (type.atomic || bothEmpty || !sameShape(lhs, rhs, isObj)) return leaf(lhs, rhs);
  const out = open(lhs);
  let n = 0;
  // Field elements sort by name.
  for (const key of Object.keys(r as Obj).sort()) {
    const ft = fieldType(type, key);
    if (ft === undefined) throw new FastPathRefused();
    const child = visit(l !== undefined && Object.hasOwn(l, key) ? l[key] : undefined, (r as Obj)[key], ft);
    if (child !== undefined) {
      out[`f:${key}`] = child;
      n++;
    }
  }
  return close(out, lhs, n);
}

function leaf(lhs: Side, rhs: Value): FieldsV1 | undefined {
  return lhs === undefined || !valuesEqual(lhs, rhs) ? MEMBER : undefined;
}

/** A granular node: a member when new (the post-item hook's Added), so `"."` comes first. */
function open(lhs: Side): FieldsV1 {
  return lhs === undefined ? { '.': MEMBER } : {};
}

function close(out: FieldsV1, lhs: Side, children: number): FieldsV1 | undefined {
  if (children > 0) return out;
  return lhs === undefined ? MEMBER : undefined;
}

/**
 * Takes `set`'s paths out of `node` — everything below members when `recursive` (RecursiveDifference),
 * else just the members (Difference) — dropping nodes left with nothing. False when `node` is left empty.
 */
function remove(node: FieldsV1, set: FieldSet, recursive: boolean): boolean {
  for (const key of set.members.keys()) {
    const child = node[key];
    if (child === undefined) continue;
    if (recursive || child === MEMBER || Object.keys(child).length === 0) delete node[key];
    else if ('.' in child) delete child['.'];
  }
  for (const [key, c] of set.children) {
    const child = node[key];
    if (child === undefined || child === MEMBER) continue;
    if (!remove(child, c.set, recursive)) delete node[key];
  }
  for (const _ in node) return true;
  return false;
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
  const root = visit(live, next, t);
  if (root === undefined || root === MEMBER) return undefined;
  delete root['.'];
  if (!remove(root, ignored, true)) return undefined;
  if (!remove(root, strip, false)) return undefined;
  return unfreeze(root);
}

/** The shared empty node replaced by fresh ones, so the stored entry is an ordinary object. */
function unfreeze(node: FieldsV1): FieldsV1 {
  for (const key of Object.keys(node)) {
    const child = node[key] as FieldsV1;
    node[key] = child === MEMBER ? {} : unfreeze(child);
  }
  return node;
}
