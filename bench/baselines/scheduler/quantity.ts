// An exact parser for Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource).
// A quantity is `<sign?><digits>[.<digits>]<suffix>` where the suffix is a binary SI unit
// (Ki Mi Gi Ti Pi Ei), a decimal SI unit (n u m "" k M G T P E) or a decimal exponent (e3, E-2).
// Values are kept as exact rationals in bigint; `Quantity.Value()` and `MilliValue()` round up
// (away from zero, inf.RoundUp), which is what the scheduler reads for every resource.

import type { QuantityString } from './types.js';

/** Thrown for text that is not a Kubernetes quantity. `code` is stable; branch on it. */
export class QuantityError extends Error {
  readonly code = 'E_QUANTITY_FORMAT';
  constructor(readonly input: string) {
    super(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${input}`);
    this.name = 'QuantityError';
  }
}

// Suffix → [base, exponent]: the multiplier is base^exponent.
const SUFFIXES: Readonly<Record<string, readonly [bigint, number]>> = {
  Ki: [2n, 10],
  Mi: [2n, 20],
  Gi: [2n, 30],
  Ti: [2n, 40],
  Pi: [2n, 50],
  Ei: [2n, 60],
  n: [10n, -9],
  u: [10n, -6],
  m: [10n, -3],
  '': [10n, 0],
  k: [10n, 3],
  M: [10n, 6],
  G: [10n, 9],
  T: [10n, 12],
  P: [10n, 15],
  E: [10n, 18],
};

const QUANTITY = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;

/** An exact rational `numerator / denominator` (denominator > 0). */
export interface Rational {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** The exact value of a quantity. */
export function parseRational(input: QuantityString): Rational {
  const text = typeof input === 'number' ? numberToText(input) : input.trim();
  const m = QUANTITY.exec(text);
  if (m === null) throw new QuantityError(text);
  const [, sign = '', whole = '', fraction = '', suffix = ''] = m;
  if (whole === '' && fraction === '') throw new QuantityError(text);

  let base: bigint;
  let exponent: number;
  const known = SUFFIXES[suffix];
  if (known !== undefined) {
    [base, exponent] = known;
  } else {
    const exp = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (exp === null || exp[1] === undefined) throw new QuantityError(text);
    base = 10n;
    exponent = Number.parseInt(exp[1], 10);
  }

  let numerator = BigInt(`${whole}${fraction}` || '0');
  let denominator = 10n ** BigInt(fraction.length);
  if (exponent >= 0) numerator *= base ** BigInt(exponent);
  else denominator *= base ** BigInt(-exponent);
  if (sign === '-') numerator = -numerator;
  return { numerator, denominator };
}

function numberToText(n: number): string {
  if (!Number.isFinite(n)) throw new QuantityError(String(n));
  // JSON numbers such as 1e+21 become "1e+21", which the exponent suffix accepts.
  return String(n);
}

/** Division rounding away from zero (inf.RoundUp). */
function divRoundUp(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  if (q * denominator === numerator) return q;
  return numerator > 0n ? q + 1n : q - 1n;
}

/** `Quantity.Value()`: the integer value, rounded up. `parseQuantityValue("1.5Ki") === 1536n`. */
export function parseQuantityValue(input: QuantityString): bigint {
  const r = parseRational(input);
  return divRoundUp(r.numerator, r.denominator);
}

/** `Quantity.MilliValue()`: the value × 1000, rounded up. `parseQuantityMilli("100m") === 100n`. */
export function parseQuantityMilli(input: QuantityString): bigint {
  const r = parseRational(input);
  return divRoundUp(r.numerator * 1000n, r.denominator);
}

/**
 * The scheduler's reading of a resource: milli-units for cpu, whole units for everything else,
 * as a JS number. Throws a RangeError past 2^53 so no arithmetic silently loses precision.
 */
export function resourceAmount(resourceName: string, input: QuantityString): number {
  const v = resourceName === 'cpu' ? parseQuantityMilli(input) : parseQuantityValue(input);
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`quantity ${String(input)} of ${resourceName} is beyond 2^53`);
  }
  return Number(v);
}

export const ZERO: Rational = { numerator: 0n, denominator: 1n };

export function addRational(a: Rational, b: Rational): Rational {
  if (a.denominator === b.denominator) return { numerator: a.numerator + b.numerator, denominator: a.denominator };
  return {
    numerator: a.numerator * b.denominator + b.numerator * a.denominator,
    denominator: a.denominator * b.denominator,
  };
}

export function compareRational(a: Rational, b: Rational): number {
  const l = a.numerator * b.denominator;
  const r = b.numerator * a.denominator;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** A summed quantity read the way the scheduler reads it (see resourceAmount). */
export function rationalAmount(resourceName: string, q: Rational): number {
  const v =
    resourceName === 'cpu' ? divRoundUp(q.numerator * 1000n, q.denominator) : divRoundUp(q.numerator, q.denominator);
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`quantity of ${resourceName} is beyond 2^53`);
  }
  return Number(v);
}
