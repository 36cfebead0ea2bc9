/**
 * The merging walk of structured-merge-diff (typed/merge.go): two values of one type walked side
 * by side; leaves (scalars, atomic lists and maps, and empty or null lists and maps on both sides)
 * go to `rule`, every granular map or list item after its children to `post`. Merge (apply) and
 * Compare (what an update added, modified and removed) are both this walk.
 */
import { FieldSet } from './field-set.js';
import { listItemElement, TypedError } from './list-items.js';
import { fieldElement, type PathElement, pathString, type Value } from './path.js';
import { DEDUCED, fieldType, type MapType, SCALAR, type TypeNode } from './typed.js';

type Obj = { [key: string]: Value };
/** undefined: absent (Go's nil value); null: a JSON null. */
type Side = Value | undefined;

const isObj = (v: Side): v is Obj => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

const DEDUCED_MAP: MapType = { kind: 'map', atomic: false, fields: undefined, element: DEDUCED };
const ATOMIC_LIST = { kind: 'list', atomic: true, keys: [], keyDefaults: new Map(), element: DEDUCED } as const;

/** A deduced type made concrete by the value (typed/deduced: maps granular, lists atomic). */
export function concrete(t: TypeNode, v: Side): TypeNode {
  if (t.kind !== 'deduced') return t;
  if (isObj(v)) return DEDUCED_MAP;
  if (Array.isArray(v)) return ATOMIC_LIST;
  return SCALAR;
}

interface Hooks {
  /** Whether the walk builds the merged value (Merge) or only visits (Compare). */
  build: boolean;
  /** A leaf; returns the merged value (undefined: none). */
  leaf(lhs: Side, rhs: Side, path: PathElement[]): Side;
  /** A granular map or list item, after its children. */
  post?(lhs: Side, rhs: Side, path: PathElement[]): void;
}

function walk(lhs: Side, rhs: Side, t: TypeNode, path: PathElement[], hooks: Hooks): Side {
  const type = concrete(t, rhs === undefined ? lhs : rhs);
  let out: Side;
  let leaf = false;
  if (type.kind === 'scalar' || type.kind === 'deduced') {
    leaf = true;
    out = hooks.leaf(lhs, rhs, path);
  } else if (type.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    const bothEmpty = (l === undefined || l.length === 0) && (r === undefined || r.length === 0);
    if (type.atomic || bothEmpty || !sameShape(lhs, rhs, Array.isArray)) {
      leaf = true;
      out = hooks.leaf(lhs, rhs, path);
    } else {
      const items: Value[] = [];
      const rhsByKey = new Map<string, { pe: PathElement; v: Value }>();
      for (const [i, item] of (r ?? []).entries()) {
        const pe = itemElement(type, item, 'rhs: ', i, path);
        if (rhsByKey.has(pe.key))
          throw new TypedError(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
        rhsByKey.set(pe.key, { pe, v: item });
      }
      const seen = new Set<string>();
      for (const [i, item] of (l ?? []).entries()) {
        const pe = itemElement(type, item, 'lhs: ', i, path);
        // A duplicate in the live object (AllowDuplicates) is left as it is.
        if (seen.has(pe.key)) continue;
        seen.add(pe.key);
        path.push(pe);
        const o = walk(item, rhsByKey.get(pe.key)?.v, type.element, path, hooks);
        path.pop();
        if (o !== undefined && hooks.build) items.push(o);
      }
      for (const { pe, v } of rhsByKey.values()) {
        if (seen.has(pe.key)) continue;
        path.push(pe);
        const o = walk(undefined, v, type.element, path, hooks);
        path.pop();
        if (o !== undefined && hooks.build) items.push(o);
      }
      out = items.length > 0 ? items : undefined;
    }
  } else {
    const l = isObj(lhs) ? lhs : undefined;
    const r = isObj(rhs) ? rhs : undefined;
    const bothEmpty = (l === undefined || isEmptyObj(l)) && (r === undefined || isEmptyObj(r));
    if (type.atomic || bothEmpty || !sameShape(lhs, rhs, isObj)) {
      leaf = true;
      out = hooks.leaf(lhs, rhs, path);
    } else {
      const m: Obj = {};
      let any = false;
      if (l !== undefined) {
        for (const key of Object.keys(l)) {
          const o = visitField(
            type,
            key,
            l[key],
            r !== undefined && Object.hasOwn(r, key) ? r[key] : undefined,
            path,
            hooks,
          );
          if (o !== undefined && hooks.build) {
            m[key] = o;
            any = true;
          }
        }
      }
      if (r !== undefined) {
        for (const key of Object.keys(r)) {
          if (l !== undefined && Object.hasOwn(l, key)) continue;
          const o = visitField(type, key, undefined, r[key], path, hooks);
          if (o !== undefined && hooks.build) {
            m[key] = o;
            any = true;
          }
        }
      }
      out = any ? m : undefined;
    }
  }
  if (!leaf) hooks.post?.(lhs, rhs, path);
  return out;
}

function visitField(t: MapType, key: string, lhs: Side, rhs: Side, path: PathElement[], hooks: Hooks): Side {
  const ft = fieldType(t, key);
  if (ft === undefined)
    throw new TypedError(`${pathString([...path, fieldElement(key)])}: field not declared in schema`);
  path.push(fieldElement(key));
  const o = walk(lhs, rhs, ft, path, hooks);
  path.pop();
  return o;
}

/** The item's element; an error names the list and the item as validate.go does (`.a.b: element 0: …`). */
function itemElement(
  t: Parameters<typeof listItemElement>[0],
  item: Value,
  side: string,
  i: number,
  path: PathElement[],
): PathElement {
  try {
    return listItemElement(t, item);
  } catch (err) {
    throw new TypedError(`${pathString(path)}: ${side}element ${i}: ${(err as Error).message}`);
  }
}

/** Values of different shapes (a map against a string) are one leaf: the right one wins. */
export function sameShape(lhs: Side, rhs: Side, is: (v: Side) => boolean): boolean {
  const ok = (v: Side) => v === undefined || v === null || is(v);
  return ok(lhs) && ok(rhs);
}

export const isEmptyObj = (o: Obj): boolean => {
  for (const _ in o) return false;
  return true;
};

/** Deep equality of JSON values (value.Equals). */
export function valuesEqual(a: Side, b: Side): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !valuesEqual(a[k], b[k])) return false;
  return true;
}

/** TypedValue.Merge: `rhs` merged onto `lhs` (leaves of rhs win, granular maps and lists merge). */
export function mergeValues(lhs: Value, rhs: Value, t: TypeNode): Value {
  const out = walk(lhs, rhs, t, [], { build: true, leaf: (l, r) => (r !== undefined ? r : l) });
  return out === undefined ? {} : out;
}

/** What changed from `lhs` to `rhs` (typed.Comparison). */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * TypedValue.Compare. `c` may pass one set as both `added` and `modified` when only their union
 * is wanted (an update nobody else manages fields of).
 */
export function compareValues(
  lhs: Value,
  rhs: Value,
  t: TypeNode,
  c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() },
): Comparison {
  walk(lhs, rhs, t, [], {
    build: false,
    leaf(l, r, path) {
      if (l === undefined) c.added.insert(path);
      else if (r === undefined) c.removed.insert(path);
      else if (!valuesEqual(l, r)) c.modified.insert(path);
      return undefined;
    },
    post(l, r, path) {
      if (l === undefined) c.added.insert(path);
      else if (r === undefined) c.removed.insert(path);
    },
  });
  return c;
}

/**
 * TypedValue.ToFieldSet (typed/tofieldset.go): every leaf, every list item, and the map entries
 * that are null, empty, or keys of a plain map (struct fields with content are implied by their children).
 */
export function toFieldSet(v: Value, t: TypeNode): FieldSet {
  const set = new FieldSet();
  const path: PathElement[] = [];
  const visit = (val: Value, type: TypeNode): void => {
    const tt = concrete(type, val);
    if (tt.kind === 'scalar' || tt.kind === 'deduced') {
      set.insert(path);
      return;
    }
    if (tt.kind === 'list') {
      if (tt.atomic) {
        set.insert(path);
        return;
      }
      if (!Array.isArray(val)) return;
      const seen = new Set<string>();
      for (const [i, item] of val.entries()) {
        const pe = itemElement(tt, item, '', i, path);
        if (seen.has(pe.key))
          throw new TypedError(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
        seen.add(pe.key);
        path.push(pe);
        visit(item, tt.element);
        set.insert(path);
        path.pop();
      }
      return;
    }
    if (tt.atomic) {
      set.insert(path);
      return;
    }
    if (!isObj(val)) return;
    for (const key of Object.keys(val)) {
      const child = val[key] as Value;
      const declared = tt.fields?.get(key);
      const ft = declared ?? tt.element;
      if (ft === undefined)
        throw new TypedError(`${pathString([...path, fieldElement(key)])}: field not declared in schema`);
      path.push(fieldElement(key));
      visit(child, ft);
      if (child === null || (isObj(child) && isEmptyObj(child)) || declared === undefined) set.insert(path);
      path.pop();
    }
  };
  visit(v, t);
  return set;
}

/**
 * TypedValue.RemoveItems (typed/remove.go): `v` without the values at the members of `toRemove`
 * (and everything below them); children of `toRemove` are descended into.
 */
export function removeItems(v: Value, t: TypeNode, toRemove: FieldSet): Value {
  const tt = concrete(t, v);
  if (tt.kind === 'list') {
    if (tt.atomic || !Array.isArray(v)) return v;
    const out: Value[] = [];
    for (const item of v) {
      const pe = listItemElement(tt, item);
      if (toRemove.members.has(pe.key)) continue;
      const sub = toRemove.withPrefix(pe);
      out.push(sub === undefined || sub.empty() ? item : removeItems(item, tt.element, sub));
    }
    return out;
  }
  if (tt.kind === 'map') {
    if (tt.atomic || !isObj(v)) return v;
    const out: Obj = {};
    for (const key of Object.keys(v)) {
      const pe = fieldElement(key);
      if (toRemove.members.has(pe.key)) continue;
      const sub = toRemove.withPrefix(pe);
      const ft = fieldType(tt, key);
      out[key] =
        sub === undefined || sub.empty() || ft === undefined
          ? (v[key] as Value)
          : removeItems(v[key] as Value, ft, sub);
    }
    return out;
  }
  return v;
}

/**
 * Set.EnsureNamedFieldsAreMembers: `set` plus every struct field (declared in the schema) that has
 * children in it, so removing the set also removes a struct emptied of its owned fields.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, t: TypeNode): FieldSet {
  const out = new FieldSet();
  for (const [k, pe] of set.members) out.members.set(k, pe);
  for (const [k, c] of set.children) {
    let ct: TypeNode = DEDUCED;
    if (c.pe.kind === 'f' && t.kind === 'map') {
      if (t.fields?.has(c.pe.name)) out.members.set(k, c.pe);
      ct = fieldType(t, c.pe.name) ?? DEDUCED;
    } else if (c.pe.kind === 'k' && t.kind === 'list') {
      ct = t.element;
    }
    out.children.set(k, { pe: c.pe, set: ensureNamedFieldsAreMembers(c.set, ct) });
  }
  return out;
}
