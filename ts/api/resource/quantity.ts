/**
 * resource.Quantity (k8s.io/apimachinery/pkg/api/resource quantity.go, v0.32) for validation,
 * quota and limit ranges: parse with ParseQuantity's errors, compare exactly, and print the
 * canonical String() Kubernetes puts in its messages and writes back (`1500m`, `2k`, `1536Mi`).
 * On the wire a Quantity is a string (types/resource.ts).
 */
import { GoLiteral, goQuote } from '../go-format.js';

/** quantity.go splitREString. */
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** ErrFormatWrong. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${SPLIT_RE}'`;
/** ErrSuffix. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** An exact value `num / den` (den > 0) and the format its suffix chose. */
export interface Quantity {
  num: bigint;
  den: bigint;
  format: QuantityFormat;
}

// suffix.go: binary and decimal SI suffixes.
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL).map(([s, e]) => [e, s]));

// Parsed quantities by text: pods repeat a handful of them (`100m`, `128Mi`) in every request.
const parsed = new Map<string, Readonly<Quantity> | Readonly<{ error: string }>>();
const MAX_PARSED = 4096;

/** ParseQuantity (a JSON number is read as its text, as Quantity.UnmarshalJSON does). */
export function parseQuantity(input: unknown): Quantity | { error: string } {
  if (typeof input !== 'string' && typeof input !== 'number') return { error: QUANTITY_FORMAT_ERROR };
  const key = String(input);
  let q = parsed.get(key);
  if (q === undefined) {
    q = Object.freeze(parseQuantityText(key));
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(key, q);
  }
  return q;
}

function parseQuantityText(input: string): Quantity | { error: string } {
  const text = input.trim();
  if (text.length === 0) return { error: QUANTITY_FORMAT_ERROR };
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return { error: QUANTITY_FORMAT_ERROR };
  const [, sign = '', whole = '', fraction = '', suffix = ''] = m;
  let num = BigInt(`${whole}${fraction}` || '0');
  let den = 10n ** BigInt(fraction.length);
  let format: QuantityFormat;
  if (suffix in BINARY) {
    format = 'BinarySI';
    num *= 2n ** BigInt(BINARY[suffix] as number);
  } else if (suffix in DECIMAL) {
    format = 'DecimalSI';
    const e = DECIMAL[suffix] as number;
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  } else {
    const exp = /^[eE]([-+]?[0-9]+)$/.exec(suffix);
    if (exp === null) return { error: QUANTITY_SUFFIX_ERROR };
    format = 'DecimalExponent';
    const e = Number.parseInt(exp[1] as string, 10);
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  }
  if (sign === '-') num = -num;
  return { num, den, format };
}

/** q.Cmp(other): -1, 0 or 1. */
export function compareQuantity(a: Quantity, b: Quantity): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export const isNegative = (q: Quantity): boolean => q.num < 0n;

/** MilliValue() % 1000 === 0, i.e. a whole number once rounded up to milli-units. */
export function isWholeAtMilli(q: Quantity): boolean {
  const scaled = q.num * 1000n;
  let milli = scaled / q.den;
  if (milli * q.den !== scaled && scaled > 0n) milli += 1n;
  return milli % 1000n === 0n;
}

/** Rounds away from zero to a multiple of 10^-9 (Quantity keeps at most nano precision). */
function nanoUnits(q: Quantity): bigint {
  const scaled = q.num * 1_000_000_000n;
  let n = scaled / q.den;
  if (n * q.den !== scaled) n += scaled > 0n ? 1n : -1n;
  return n;
}

/** Quantity.String(): the canonical form in the quantity's format. */
export function quantityString(q: Quantity): string {
  let format = q.format;
  if (format === 'BinarySI') {
    const integral = q.num % q.den === 0n;
    const v = q.num / q.den;
    if (!integral || (v > -1024n && v < 1024n)) {
      format = 'DecimalSI';
    } else {
      let mantissa = v;
      let exp = 0;
      while (exp < 60 && mantissa % 1024n === 0n) {
        mantissa /= 1024n;
        exp += 10;
      }
      const suffix = Object.entries(BINARY).find(([, e]) => e === exp)?.[0] ?? '';
      return `${mantissa}${suffix}`;
    }
  }
  let mantissa = nanoUnits(q);
  if (mantissa === 0n) return '0';
  let exp = -9;
  while (exp < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exp += 3;
  }
  if (format === 'DecimalExponent') return exp === 0 ? `${mantissa}` : `${mantissa}e${exp}`;
  return `${mantissa}${DECIMAL_SUFFIX[exp] ?? ''}`;
}

/**
 * Go's `%#v` of a resource.Quantity as ParseQuantity leaves it, which some messages print raw (its
 * String() has a pointer receiver): the int64Amount of ParseQuantity's fast path and the text it
 * caches when the input is already canonical.
 */
export function quantityGoValue(text: unknown, q: Quantity): GoLiteral {
  const str = String(text).trim();
  let value = 0n;
  let scale = 0;
  let cached = '';
  if (str === '0') {
    cached = '0';
  } else {
    const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(str);
    const negative = m?.[1] === '-';
    const num = m?.[2] ?? '';
    const denom = m?.[3] ?? '';
    const suffix = m?.[4] ?? '';
    const shifted = `${num}${denom}`;
    if (q.format === 'BinarySI') {
      const exp = BINARY[suffix] ?? 0;
      const n = BigInt(num || '0');
      value = denom.length === 0 ? n * 2n ** BigInt(exp) : q.num / q.den;
      if (exp % 10 === 0 && (n & 7n) !== 0n && denom.length === 0) cached = str;
    } else {
      const exp = suffix in DECIMAL ? (DECIMAL[suffix] as number) : Number.parseInt(suffix.slice(1) || '0', 10);
      scale = exp - denom.length;
      value = BigInt(shifted || '0');
      if (scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') cached = str;
    }
    if (negative) value = -value;
  }
  return new GoLiteral(
    `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${goQuote(cached)}, Format:${goQuote(q.format)}}`,
  );
}
