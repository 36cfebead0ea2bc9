/**
 * The path element of a list item (structured-merge-diff typed/helpers.go listItemToPathElement):
 * its key fields in an associative list of maps (a missing key field takes the schema's default),
 * its value in a set of scalars. Errors carry the texts of structured-merge-diff.
 */
import { compareElements, compareValues, keyElement, type PathElement, type Value, valueElement } from './path.js';
import type { ListType } from './typed.js';

export class TypedError extends Error {}

const isMap = (v: Value | undefined): v is { [key: string]: Value } =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

export function listItemElement(t: ListType, item: Value): PathElement {
  if (t.keys.length > 0) {
    if (item === null) throw new TypedError('associative list with keys may not have a null element');
    if (!isMap(item)) throw new TypedError('associative list with keys may not have non-map elements');
    const fields: [string, Value][] = [];
    for (const k of t.keys) {
      const v = keyValue(t, item, k);
      if (v === undefined) {
        throw new TypedError(
          `associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`,
        );
      }
      fields.push([k, v]);
    }
    return keyElement(fields);
  }
  if (Array.isArray(item)) throw new TypedError('not supported: associative list with lists as elements');
  if (item === null) throw new TypedError("associative list without keys has an element that's an explicit null");
  if (typeof item === 'object') throw new TypedError("associative list without keys has an element that's a map type");
  return valueElement(item);
}

/** Bound on the item keys remembered per list type (names and uids come and go): past it, they start over. */
const MAX_KEYS_PER_LIST_TYPE = 1000;
const itemKeysByType = new WeakMap<ListType, Map<string | number, string>>();

/**
 * listItemElement(t, item).key for the create walk: an item whose key is made of scalars (a name,
 * a uid, a port and protocol: nearly every list item) gets the string the last item with the same
 * key values got, without building an element or JSON (and one string each time is cheaper to use
 * as a property key).
 */
export function listItemKey(t: ListType, item: Value): string {
  const values = scalarKeyValues(t, item);
  if (values === undefined) return listItemElement(t, item).key;
  let keys = itemKeysByType.get(t);
  if (keys === undefined) {
    keys = new Map();
    itemKeysByType.set(t, keys);
  }
  let key = keys.get(values);
  if (key === undefined) {
    key = listItemElement(t, item).key;
    if (keys.size >= MAX_KEYS_PER_LIST_TYPE) keys.clear();
    keys.set(values, key);
  }
  return key;
}

/**
 * What tells apart the keys of `t`'s items when they are scalars: a set item itself, the value of
 * the one key field, else the key values' JSON joined by commas (the body of a JSON array, so
 * unambiguous). Undefined for any other item (listItemElement decides, or has the error).
 */
function scalarKeyValues(t: ListType, item: Value): string | number | undefined {
  if (t.keys.length === 0) return isScalarKey(item) ? item : undefined;
  if (!isMap(item)) return undefined;
  if (t.keys.length === 1) {
    const v = keyValue(t, item, t.keys[0] as string);
    return isScalarKey(v) ? v : undefined;
  }
  let joined = '';
  for (let i = 0; i < t.keys.length; i++) {
    const v = keyValue(t, item, t.keys[i] as string);
    if (!isScalarKey(v)) return undefined;
    joined += i === 0 ? JSON.stringify(v) : `,${JSON.stringify(v)}`;
  }
  return joined;
}

const isScalarKey = (v: Value | undefined): v is string | number => typeof v === 'string' || typeof v === 'number';

/** An item's key field, else the schema's default for it (undefined: neither). */
function keyValue(t: ListType, item: { [key: string]: Value }, name: string): Value | undefined {
  return Object.hasOwn(item, name) ? item[name] : t.keyDefaults.get(name);
}

/**
 * compareElements of two items' elements (listItemElement). Items keyed by one field compare by
 * its values (FieldList.Compare of one field each), without building the elements.
 */
export function compareItems(t: ListType, a: Value, b: Value): number {
  if (t.keys.length === 1 && isMap(a) && isMap(b)) {
    const name = t.keys[0] as string;
    const va = keyValue(t, a, name);
    const vb = keyValue(t, b, name);
    if (va !== undefined && vb !== undefined) return compareValues(va, vb);
  }
  return compareElements(listItemElement(t, a), listItemElement(t, b));
}
