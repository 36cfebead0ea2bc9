/**
 * The path element of a list item (structured-merge-diff typed/helpers.go listItemToPathElement):
 * its key fields in an associative list of maps (a missing key field takes the schema's default),
 * its value in a set of scalars. Errors carry the texts of structured-merge-diff.
 */
import { keyElement, type PathElement, type Value, valueElement } from './path.js';
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
      const v = Object.hasOwn(item, k) ? item[k] : t.keyDefaults.get(k);
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
