/**
 * Go's value formatting, as far as Kubernetes' error messages depend on it: `strconv.Quote` (`%q`),
 * `%v` for numbers and `%#v` for the few composite values validation reports, plus byte lengths
 * and byte-order comparison (Go strings are UTF-8 bytes, JS strings UTF-16 units).
 */

/** A value whose Go `%#v`/`%v` rendering the caller already knows, e.g. a Go struct literal. */
export class GoLiteral {
  constructor(readonly repr: string) {}
  toString(): string {
    return this.repr;
  }
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's `strconv.Quote`: `goQuote('a"b\n')` → `"a\"b\n"`. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const r = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') {
      out += `\\${ch}`;
      continue;
    }
    if (r >= 0xd800 && r <= 0xdfff) {
      // A lone surrogate cannot be UTF-8; Go's JSON decoder would have made it U+FFFD.
      out += '\uFFFD';
      continue;
    }
    if (r === 0x20 || (r > 0x20 && r < 0x7f) || (r >= 0x80 && printable.test(ch))) {
      out += ch;
      continue;
    }
    switch (r) {
      case 0x07:
        out += '\\a';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x0b:
        out += '\\v';
        break;
      default:
        if (r < 0x20 || r === 0x7f) out += `\\x${hex(r, 2)}`;
        else if (r < 0x10000) out += `\\u${hex(r, 4)}`;
        else out += `\\U${hex(r, 8)}`;
    }
  }
  return `${out}"`;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Go's `%v` of a number. Integers print as Go prints an int64; other values as a float64
 * (`strconv.FormatFloat(f, 'g', -1, 64)`: %e when the exponent is < -4 or >= 6).
 */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Number.POSITIVE_INFINITY) return '+Inf';
  if (f === Number.NEGATIVE_INFINITY) return '-Inf';
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return BigInt(f).toString();
  // Shortest round-trip digits (JS and Go agree on them), then Go's %g layout.
  const [mantissa = '0', expPart = '0'] = f.toExponential().split('e');
  const exp = Number(expPart);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const abs = Math.abs(exp);
    return `${mantissa}e${sign}${abs < 10 ? `0${abs}` : abs}`;
  }
  return String(f);
}

/**
 * Go's `%#v` for the values validation passes as a bad value: strings quoted, numbers and bools
 * plain, `[]string{"a", "b"}`, `map[string]string{"k":"v"}` (sorted keys), null as `<nil>`.
 * Anything else falls back to JSON, which Go would have printed as a struct literal.
 */
export function goSharpV(value: unknown): string {
  if (value instanceof GoLiteral) return value.repr;
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) {
      return `[]string{${value.map((v) => goQuote(v)).join(', ')}}`;
    }
    return `[]interface {}{${value.map((v) => goSharpV(v)).join(', ')}}`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.every(([, v]) => typeof v === 'string')) {
      const sorted = entries.sort(([a], [b]) => compareGo(a, b));
      return `map[string]string{${sorted.map(([k, v]) => `${goQuote(k)}:${goQuote(String(v))}`).join(', ')}}`;
    }
  }
  return JSON.stringify(value) ?? String(value);
}

const encoder = new TextEncoder();

/** Go's `len(s)`: the UTF-8 byte length. */
export function byteLength(s: string): number {
  // Fast path: all-ASCII strings are one byte per unit.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) return encoder.encode(s).length;
  }
  return s.length;
}

/** Go's `a < b` on strings (UTF-8 byte order, which is code-point order), for sorting. */
export function compareGo(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}
