/**
 * field.Path operations on a path that may be nil, as the schema algorithms start from a nil root
 * (`nil.Child("spec")` is `spec`, `nil.Index(0)` is `[0]`).
 */
import { FieldPath } from '../../../api/field-errors.js';

export type MaybePath = FieldPath | undefined;

export function child(p: MaybePath, name: string): FieldPath {
  return p === undefined ? FieldPath.root(name) : p.child(name);
}

export function index(p: MaybePath, i: number): FieldPath {
  return p === undefined ? FieldPath.root(`[${i}]`) : p.index(i);
}

export function key(p: MaybePath, k: string): FieldPath {
  return p === undefined ? FieldPath.root(`[${k}]`) : p.key(k);
}
