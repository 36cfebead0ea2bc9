/**
 * Go's `%#v` of unstructured JSON values (`map[string]interface {}`, `[]interface {}`, int64,
 * float64, string, bool, nil) — how field.Error prints a composite bad value.
 */
import { GoLiteral, goQuote } from '../../../api/go-format.js';
import { goV } from './openapi-errors.js';
import { compareBytes, isObject } from './types.js';

/** `%#v` of a value nested in a map or slice. */
export function goSharp(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return goV(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharp(x)).join(', ')}}`;
  if (isObject(v)) {
    const keys = Object.keys(v).sort(compareBytes);
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharp(v[k])}`).join(', ')}}`;
  }
  return String(v);
}

/** A bad value for a field error: scalars as they are, maps and slices as Go literals. */
export function goBadValue(v: unknown): unknown {
  return isObject(v) || Array.isArray(v) ? new GoLiteral(goSharp(v)) : v;
}
