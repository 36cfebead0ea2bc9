/**
 * cron.ParseStandard from github.com/robfig/cron/v3 v3.0.1 (parser.go): five fields (minute,
 * hour, day of month, month, day of week) or a descriptor (`@hourly`, `@every 1h30m`), an
 * optional `TZ=`/`CRON_TZ=` prefix. The one parser kubewasm has: CronJob validation reports its
 * errors, the CronJob controller runs the Schedule it answers.
 *
 *   const sched = parseStandard('*\/15 9-17 * * mon-fri');
 *   if (sched instanceof Error) return sched.message;   // Go's error text
 *   sched.next(now);
 *
 * Go's error texts, word for word.
 */
import { goQuote } from '../go-format.js';
import { ConstantDelaySchedule, type Schedule, SpecSchedule, STAR_BIT } from './spec.js';
import { isKnownTimeZone, unknownTimeZoneError } from './zone.js';

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

// spec.go bounds.
const SECONDS: Bounds = { min: 0, max: 59 };
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** strconv.Atoi's error for text that is not a (64-bit) integer. */
function atoi(expr: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(expr)) return `strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`;
  const n = Number.parseInt(expr, 10);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing ${goQuote(expr)}: value out of range`;
  return n;
}

/** parser.go mustParseInt. */
function mustParseInt(expr: string): number | Error {
  const n = atoi(expr);
  if (typeof n === 'string') return new Error(`failed to parse int from ${expr}: ${n}`);
  if (n < 0) return new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

/** parser.go parseIntOrName. */
function parseIntOrName(expr: string, names: Bounds['names']): number | Error {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

/** parser.go getBits: [min, max] modulo step. */
function getBits(min: number, max: number, step: number): bigint {
  let bits = 0n;
  for (let i = min; i <= max; i += step) bits |= 1n << BigInt(i);
  return bits;
}

/** parser.go all: every bit of the bounds, and the star bit. */
function all(r: Bounds): bigint {
  return getBits(r.min, r.max, 1) | STAR_BIT;
}

/** parser.go getRange: `number | number "-" number [ "/" number ]`, `*` and `?`. */
function getRange(expr: string, r: Bounds): bigint | Error {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let extra = 0n;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    extra = STAR_BIT;
  } else {
    const s = parseIntOrName(lowAndHigh[0] ?? '', r.names);
    if (s instanceof Error) return s;
    start = s;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1] ?? '', r.names);
      if (e instanceof Error) return e;
      end = e;
    } else return new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const s = mustParseInt(rangeAndStep[1] ?? '');
    if (s instanceof Error) return s;
    step = s;
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max;
    if (step > 1) extra = 0n;
  } else if (rangeAndStep.length > 2) {
    return new Error(`too many slashes: ${expr}`);
  }
  if (start < r.min) return new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) return new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) return new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) return new Error(`step of range should be a positive number: ${expr}`);
  return getBits(start, end, step) | extra;
}

/** parser.go getField: the union of the comma-separated ranges. */
function getField(field: string, r: Bounds): bigint | Error {
  let bits = 0n;
  for (const expr of field.split(',').filter((e) => e.length > 0)) {
    const b = getRange(expr, r);
    if (b instanceof Error) return b;
    bits |= b;
  }
  return bits;
}

// time/format.go unitMap: nanoseconds per unit.
const DURATION_UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
// time/format.go ParseDuration: a duration is an int64 of nanoseconds.
const MAX_INT64 = (1n << 63n) - 1n;

/** time.ParseDuration: nanoseconds, or Go's error text. */
export function parseGoDuration(orig: string): bigint | Error {
  const bad = new Error(`time: invalid duration ${goQuote(orig)}`);
  let s = orig;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return bad;
  let d = 0n;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) return bad;
    const num = /^([0-9]*)(?:\.([0-9]*))?/.exec(s);
    const pre = num?.[1] ?? '';
    const post = num?.[2];
    if (pre === '' && (post === undefined || post === '')) return bad;
    s = s.slice(num?.[0].length ?? 0);
    let v = BigInt(pre === '' ? '0' : pre);
    // leadingInt: an integer past 1<<63 is not a duration.
    if (v > 1n << 63n) return bad;
    const unitText = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    if (unitText === '') return new Error(`time: missing unit in duration ${goQuote(orig)}`);
    const unit = DURATION_UNITS[unitText];
    if (unit === undefined) return new Error(`time: unknown unit ${goQuote(unitText)} in duration ${goQuote(orig)}`);
    s = s.slice(unitText.length);
    if (v > (1n << 63n) / unit) return bad;
    v *= unit;
    if (post !== undefined && post !== '') {
      // leadingFraction then float64(f) * (float64(unit) / scale), truncated.
      const digits = post.slice(0, 18);
      const f = Number(digits);
      const scale = 10 ** digits.length;
      if (f > 0) v += BigInt(Math.trunc(f * (Number(unit) / scale)));
      if (v > 1n << 63n) return bad;
    }
    d += v;
    if (d > 1n << 63n) return bad;
  }
  if (neg) return -d;
  if (d > MAX_INT64) return bad;
  return d;
}

/** parser.go parseDescriptor. */
function parseDescriptor(descriptor: string, loc: string): Schedule | Error {
  const at = (minute: bigint, hour: bigint, dom: bigint, month: bigint, dow: bigint): Schedule =>
    new SpecSchedule(1n << BigInt(SECONDS.min), minute, hour, dom, month, dow, loc);
  const first = (r: Bounds): bigint => 1n << BigInt(r.min);
  switch (descriptor) {
    case '@yearly':
    case '@annually':
      return at(first(MINUTES), first(HOURS), first(DOM), first(MONTHS), all(DOW));
    case '@monthly':
      return at(first(MINUTES), first(HOURS), first(DOM), all(MONTHS), all(DOW));
    case '@weekly':
      return at(first(MINUTES), first(HOURS), all(DOM), all(MONTHS), first(DOW));
    case '@daily':
    case '@midnight':
      return at(first(MINUTES), first(HOURS), all(DOM), all(MONTHS), all(DOW));
    case '@hourly':
      return at(first(MINUTES), all(HOURS), all(DOM), all(MONTHS), all(DOW));
  }
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const d = parseGoDuration(descriptor.slice(every.length));
    if (d instanceof Error) return new Error(`failed to parse duration ${descriptor}: ${d.message}`);
    return ConstantDelaySchedule.every(d);
  }
  return new Error(`unrecognized descriptor: ${descriptor}`);
}

/**
 * cron.ParseStandard: the Schedule, or robfig/cron's error. Without a TZ= prefix the zone is
 * time.Local (UTC in kubewasm, as in kube-controller-manager's container).
 */
export function parseStandard(standardSpec: string): Schedule | Error {
  if (standardSpec.length === 0) return new Error('empty spec string');
  let spec = standardSpec;
  let loc = 'Local';
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const eq = spec.indexOf('=');
    const i = spec.indexOf(' ');
    // Go slices spec[eq+1:i] and panics without a space; the zone is then the rest.
    const name = i === -1 ? spec.slice(eq + 1) : spec.slice(eq + 1, i);
    if (i === -1 || !isKnownTimeZone(name)) {
      return new Error(`provided bad location ${name}: ${unknownTimeZoneError(name)}`);
    }
    loc = name;
    spec = spec.slice(i).trim();
  }
  if (spec.startsWith('@')) return parseDescriptor(spec, loc);
  const fields = spec.split(/\s+/).filter((f) => f.length > 0);
  // normalizeFields for Minute | Hour | Dom | Month | Dow: exactly five; seconds are 0.
  if (fields.length !== 5) return new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const bits: bigint[] = [];
  const bounds = [MINUTES, HOURS, DOM, MONTHS, DOW];
  for (let i = 0; i < 5; i++) {
    const b = getField(fields[i] as string, bounds[i] as Bounds);
    if (b instanceof Error) return b;
    bits.push(b);
  }
  const [minute = 0n, hour = 0n, dom = 0n, month = 0n, dow = 0n] = bits;
  return new SpecSchedule(1n << BigInt(SECONDS.min), minute, hour, dom, month, dow, loc);
}
