/**
 * Shared pieces of the per-kind validators: reading loosely typed JSON objects, Go's `%#v` of the
 * few composite values Kubernetes prints in its messages, and small checks several groups use
 * (k8s.io/kubernetes pkg/apis/core/validation/validation.go, pkg/apis/apps/validation, v1.32).
 */
import { type ErrorList, type FieldPath, invalid } from '../../field-errors.js';
import { compareGo, GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject, LabelSelector } from '../../meta.js';
import { isValidPercent } from '../formats.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../names.js';
import { IS_NEGATIVE_ERROR_MSG } from '../object-meta.js';

/** A decoded JSON object. */
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The object at `v`, or an empty one (Go's zero struct). */
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
/** The list at `v`, or an empty one. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The string at `v`, or '' (Go's zero string). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** The number at `v`, or undefined (a nil pointer). */
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** The string map at `v` (labels, selectors), or undefined. */
export const strMap = (v: unknown): Record<string, string> | undefined =>
  isObj(v) ? (v as Record<string, string>) : undefined;

/** Semantic equality of two JSON values: key order ignored, absent equals null. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const fast = plainJsonEqual(a ?? null, b ?? null);
  return fast !== undefined ? fast : canonical(a ?? null) === canonical(b ?? null);
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * canonical(a) === canonical(b) without making the strings, for the values JSON.parse gives
 * (strings, finite numbers, booleans, null, arrays, plain objects; undefined properties are left
 * out as JSON.stringify leaves them); undefined for anything else, which the strings then decide.
 */
function plainJsonEqual(a: unknown, b: unknown): boolean | undefined {
  const scalar = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'boolean';
  if (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b)) return a === b;
  if (scalar(a) && scalar(b)) return a === b;
  // A scalar is never written as an array or a plain object is (one with toJSON may be anything).
  const structured = (v: unknown) =>
    typeof v === 'object' &&
    v !== null &&
    (Array.isArray(v) || isPlainObject(v)) &&
    typeof (v as { toJSON?: unknown }).toJSON !== 'function';
  if (scalar(a) && structured(b)) return false;
  if (scalar(b) && structured(a)) return false;
  if (!structured(a) || !structured(b) || Array.isArray(a) !== Array.isArray(b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      // An undefined element is written as null.
      const eq = plainJsonEqual(a[i] ?? null, b[i] ?? null);
      if (eq !== true) return eq;
    }
    return true;
  }
  const x = a as Obj;
  const y = b as Obj;
  // Fields whose text is not simply their value's (functions, toJSON) are left to the strings.
  const written = (v: unknown) => scalar(v) || Number.isFinite(v) || structured(v);
  let count = 0;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (v === undefined) continue;
    if (!written(v)) return undefined;
    count++;
    const w = Object.hasOwn(y, k) ? y[k] : undefined;
    if (w === undefined) return false;
    const eq = plainJsonEqual(v, w);
    if (eq !== true) return eq;
  }
  // Every field of x is in y, equal: equal if y has no other (written) field.
  for (const k of Object.keys(y)) {
    const w = y[k];
    if (w === undefined) continue;
    if (!written(w)) return undefined;
    count--;
  }
  return count === 0;
}

/**
 * A deep copy of a JSON value, as structuredClone makes it (which costs several times more):
 * arrays and plain objects copied, anything else left to structuredClone.
 */
export function cloneJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return typeof v === 'function' ? structuredClone(v) : v;
  if (Array.isArray(v))
    return (Object.getPrototypeOf(v) === Array.prototype ? v.map(cloneJson) : structuredClone(v)) as T;
  if (!isPlainObject(v)) return structuredClone(v);
  const out: Obj = {};
  for (const k of Object.keys(v)) {
    const x = cloneJson((v as Obj)[k]);
    // defineProperty: a `__proto__` key stays a field, as structuredClone keeps it.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: x, writable: true, enumerable: true, configurable: true });
    else out[k] = x;
  }
  return out as T;
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) =>
    isObj(value) ? Object.fromEntries(Object.entries(value).sort(([x], [y]) => compareGo(x, y))) : value,
  );
}

/** ValidateNonnegativeField for an optional number. */
export function nonNegative(value: number | undefined, path: FieldPath): ErrorList {
  return value !== undefined && value < 0 ? [invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** ValidateDNS1123Label: one Invalid per message. */
export function dns1123Label(value: string, path: FieldPath): ErrorList {
  return isDNS1123Label(value).map((m) => invalid(path, value, m));
}

/** ValidateDNS1123Subdomain: one Invalid per message. */
export function dns1123Subdomain(value: string, path: FieldPath): ErrorList {
  return isDNS1123Subdomain(value).map((m) => invalid(path, value, m));
}

/** ValidateQualifiedName: one Invalid per message. */
export function qualifiedName(value: string, path: FieldPath): ErrorList {
  return isQualifiedName(value).map((m) => invalid(path, value, m));
}

/** Go's `%#v` of a map[string]string (`map[string]string(nil)` when absent). */
export function goStringMap(m: Record<string, string> | undefined): string {
  if (m === undefined) return 'map[string]string(nil)';
  const entries = Object.entries(m).sort(([a], [b]) => compareGo(a, b));
  return `map[string]string{${entries.map(([k, v]) => `${goQuote(k)}:${goQuote(String(v))}`).join(', ')}}`;
}

/** Go's `%#v` of a []string (`[]string(nil)` when absent). */
export function goStringSlice(list: readonly unknown[] | undefined): string {
  if (list === undefined) return '[]string(nil)';
  return `[]string{${list.map((v) => goQuote(str(v))).join(', ')}}`;
}

/** The bad value Kubernetes prints for a template's labels (a map, nil when absent). */
export function labelsValue(labels: Record<string, string> | undefined): GoLiteral {
  return new GoLiteral(goStringMap(labels));
}

/** Go's `%#v` of a metav1.LabelSelector (a *LabelSelector prints dereferenced). */
export function labelSelectorValue(sel: LabelSelector | undefined): GoLiteral {
  if (sel === undefined) return new GoLiteral('"null"');
  const exprs = sel.matchExpressions;
  const reqs =
    exprs === undefined
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${exprs
          .map(
            (e) =>
              `v1.LabelSelectorRequirement{Key:${goQuote(str(e.key))}, Operator:${goQuote(str(e.operator))}, Values:${goStringSlice(e.values)}}`,
          )
          .join(', ')}}`;
  return new GoLiteral(`v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${reqs}}`);
}

/** The address Go prints for a non-nil pointer inside a `%#v` literal (any fixed value will do). */
export const GO_POINTER = '0xc000000000';

/** `(*T)(nil)` or `(*T)(0xc…)`. */
export function goPointer(type: string, v: unknown): string {
  return `(*${type})(${v === undefined || v === null ? 'nil' : GO_POINTER})`;
}

/** An intstr.IntOrString read from JSON. */
export type IntOrString = { type: 'int'; value: number } | { type: 'string'; value: string };

export function intOrString(v: unknown): IntOrString | undefined {
  if (typeof v === 'number') return { type: 'int', value: v };
  if (typeof v === 'string') return { type: 'string', value: v };
  return undefined;
}

/** Go's `%#v` of an intstr.IntOrString (its String() has a pointer receiver, so a value prints raw). */
export function intOrStringValue(v: IntOrString | undefined): GoLiteral {
  if (v === undefined) return new GoLiteral('intstr.IntOrString{Type:0, IntVal:0, StrVal:""}');
  return v.type === 'int'
    ? new GoLiteral(`intstr.IntOrString{Type:0, IntVal:${v.value}, StrVal:""}`)
    : new GoLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v.value)}}`);
}

/** `IntOrString.IntValue()`: a string converts with Atoi (0 when not a number). */
export function intValue(v: IntOrString | undefined): number {
  if (v === undefined) return 0;
  if (v.type === 'int') return v.value;
  return /^[+-]?\d+$/.test(v.value) ? Number.parseInt(v.value, 10) : 0;
}

/** getPercentValue: the number of a valid `N%`. */
export function percentValue(v: IntOrString | undefined): number | undefined {
  if (v === undefined || v.type !== 'string' || isValidPercent(v.value).length > 0) return undefined;
  return Number.parseInt(v.value.slice(0, -1), 10);
}

/** getIntOrPercentValue. */
export function intOrPercentValue(v: IntOrString | undefined): number {
  return percentValue(v) ?? intValue(v);
}

/** ValidatePositiveIntOrPercent (apps validation): a valid percent or a non-negative integer. */
export function validatePositiveIntOrPercent(v: IntOrString | undefined, path: FieldPath): ErrorList {
  if (v === undefined) return [];
  if (v.type === 'string') return isValidPercent(v.value).map((m) => invalid(path, intOrStringValue(v), m));
  return nonNegative(v.value, path);
}

/** IsNotMoreThan100Percent. */
export function isNotMoreThan100Percent(v: IntOrString | undefined, path: FieldPath): ErrorList {
  const p = percentValue(v);
  if (p === undefined || p <= 100) return [];
  return [invalid(path, intOrStringValue(v), 'must not be greater than 100%')];
}

/** The object's metadata.name. */
export function nameOf(o: KubeObject): string {
  return o.metadata?.name ?? '';
}
