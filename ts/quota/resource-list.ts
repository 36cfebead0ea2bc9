/**
 * v1.ResourceList arithmetic as quota does it (staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go,
 * v1.32) over exact quantities: Add, SubtractWithNonNegativeResult, Mask, LessThanOrEqual, Equals,
 * RemoveZeros, IsNegative, and the prettyPrint of admission's messages (`requests.cpu=500m`).
 *
 * A sum keeps the format of its left operand unless that is zero (Quantity.Add), so `0` + `1Gi`
 * prints `1Gi` and `1` + `500m` prints `1500m`, as Kubernetes prints them.
 */
import { compareQuantity, parseQuantity, type Quantity, quantityString } from '../api/resource/quantity.js';

export type ResourceList = Map<string, Quantity>;

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
};

function reduce(num: bigint, den: bigint, format: Quantity['format']): Quantity {
  const g = gcd(num, den);
  return { num: num / g, den: den / g, format };
}

/** resource.NewQuantity(n, DecimalSI). */
export const decimal = (n: number | bigint): Quantity => ({ num: BigInt(n), den: 1n, format: 'DecimalSI' });

/** resource.Quantity{Format: DecimalSI}: the zero CalculateUsageStats starts every resource at. */
export const ZERO: Quantity = decimal(0);

export const isZero = (q: Quantity): boolean => q.num === 0n;

/** q.Add(y): a zero q takes y's format. */
export function addQuantity(q: Quantity, y: Quantity): Quantity {
  return reduce(q.num * y.den + y.num * q.den, q.den * y.den, isZero(q) ? y.format : q.format);
}

/** q.Sub(y): a zero q takes y's format. */
export function subQuantity(q: Quantity, y: Quantity): Quantity {
  return reduce(q.num * y.den - y.num * q.den, q.den * y.den, isZero(q) ? y.format : q.format);
}

/** A ResourceList from its JSON (`{"cpu": "500m"}`); values that do not parse are left out. */
export function parseResourceList(value: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [name, text] of Object.entries(value as Record<string, unknown>)) {
    const q = parseQuantity(text);
    if (!('error' in q)) out.set(name, q);
  }
  return out;
}

/** The JSON of a ResourceList: canonical quantities, keys sorted as Go's encoding/json writes a map. */
export function resourceListJson(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = quantityString(list.get(name) as Quantity);
  return out;
}

/** Add: a + b for each named resource. */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    out.set(k, other === undefined ? v : addQuantity(v, other));
  }
  for (const [k, v] of b) if (!out.has(k)) out.set(k, v);
  return out;
}

/** SubtractWithNonNegativeResult: a - b, never below zero (`0` for names only in b). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    const diff = other === undefined ? v : subQuantity(v, other);
    out.set(k, diff.num > 0n ? diff : ZERO);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, ZERO);
  return out;
}

/** Mask: only the named resources. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  const out: ResourceList = new Map();
  for (const [k, v] of list) if (keep.has(k)) out.set(k, v);
  return out;
}

/** Equals: the same names with equal values. */
export function equals(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const other = b.get(k);
    if (other === undefined || compareQuantity(v, other) !== 0) return false;
  }
  return true;
}

/** LessThanOrEqual: whether a ≤ b for every name in both; the names of a that exceed b. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, limit] of b) {
    const value = a.get(k);
    if (value !== undefined && compareQuantity(value, limit) > 0) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** RemoveZeros. */
export function removeZeros(list: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of list) if (!isZero(v)) out.set(k, v);
  return out;
}

/** IsNegative: the names with a value below zero. */
export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.num < 0n).map(([k]) => k);
}

/** quota.Intersection: deduplicated, sorted. */
export function intersection(a: Iterable<string>, b: readonly string[]): string[] {
  const inB = new Set(b);
  return [...new Set([...a].filter((x) => inB.has(x)))].sort();
}

/** controller.go prettyPrint: `name=value` sorted by name, joined with commas. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${quantityString(list.get(k) as Quantity)}`)
    .join(',');
}

/** controller.go prettyPrintResourceNames: sorted, joined with commas. */
export function prettyPrintResourceNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}
