/**
 * Pieces shared by the walks that write FieldsV1 straight from the values, without field sets:
 * created-fields.ts (a create) and updated-fields.ts (an update of the writer's own fields).
 */
import type { FieldSet } from './field-set.js';
import { fieldElement, type Value } from './path.js';
import { fieldType, type MapType, type TypeNode } from './typed.js';

export type Obj = { [key: string]: Value };
export type Side = Value | undefined;

export const isObj = (v: Side): v is Obj => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** A value the general path has an error for (an undeclared field, duplicate keys): the caller takes that path. */
export class FastPathRefused extends Error {}

/**
 * Where the walk is in the sets taken out of the result: `ignored` (the reset fields: a member
 * drops the node and all below it) and `strip` (stripmeta: a member drops only the node's own
 * membership). Undefined below the few paths they name, which is nearly everywhere.
 */
export interface Removed {
  readonly ignored: FieldSet | undefined;
  readonly strip: FieldSet | undefined;
}

const NOTHING_REMOVED: Removed = { ignored: undefined, strip: undefined };

/** The sets below element `key`, as `remove` of a trie descends into a child. */
export function below(removed: Removed, key: string): Removed {
  if (removed === NOTHING_REMOVED) return removed;
  const ignored = removed.ignored?.children.get(key)?.set;
  const strip = removed.strip?.children.get(key)?.set;
  return ignored === undefined && strip === undefined ? NOTHING_REMOVED : { ignored, strip };
}

/** Whether element `key` of a node is dropped with everything below it (a reset field). */
export const ignoredAt = (removed: Removed, key: string): boolean => removed.ignored?.members.has(key) === true;
/** Whether element `key`'s own membership is dropped (a stripmeta field). */
export const strippedAt = (removed: Removed, key: string): boolean => removed.strip?.members.has(key) === true;

/** A property's type in a map type (undefined: not declared) and its FieldsV1 key. */
export interface Field {
  readonly type: TypeNode | undefined;
  readonly key: string;
}

/** Bound on the fields remembered per map type: a plain map (labels) may have any keys. */
const MAX_FIELDS_PER_TYPE = 1000;
const fieldsByType = new WeakMap<MapType, Map<string, Field>>();

/** The fields of `t` looked up so far (a lookup through the type's getters costs more than the walk's other steps). */
export function fieldsOf(t: MapType): Map<string, Field> {
  let fields = fieldsByType.get(t);
  if (fields === undefined) {
    fields = new Map();
    fieldsByType.set(t, fields);
  }
  return fields;
}

export function fieldOf(t: MapType, fields: Map<string, Field>, name: string): Field {
  let f = fields.get(name);
  if (f === undefined) {
    f = { type: fieldType(t, name), key: fieldElement(name).key };
    if (fields.size < MAX_FIELDS_PER_TYPE) fields.set(name, f);
  }
  return f;
}

/** Whether a key repeats: a scan for the few items of most lists, a set for long ones. */
export function hasDuplicates(keys: readonly string[]): boolean {
  if (keys.length > 8) return new Set(keys).size !== keys.length;
  for (let i = 1; i < keys.length; i++) if (keys.indexOf(keys[i] as string) < i) return true;
  return false;
}

/** Up to this many names, an insertion sort (no call per comparison) beats Array.prototype.sort. */
const INSERTION_SORT_MAX = 24;

/**
 * `names` sorted in place in field element order (by name, in UTF-16 code units as `<` compares
 * them). Objects mostly have a few keys: an insertion sort, as sort() without a comparator converts
 * and compares generically (once the largest cost of the create walk).
 */
export function sortNames(names: string[]): string[] {
  if (names.length > INSERTION_SORT_MAX) return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < names.length; i++) {
    const name = names[i] as string;
    let j = i - 1;
    while (j >= 0 && (names[j] as string) > name) {
      names[j + 1] = names[j] as string;
      j--;
    }
    names[j + 1] = name;
  }
  return names;
}
