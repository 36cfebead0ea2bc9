/**
 * cron.ParseStandard from github.com/robfig/cron/v3 v3.0.1 (parser.go), which CronJob validation
 * runs on `spec.schedule`: five fields or a descriptor (`@hourly`, `@every 1h30m`), an optional
 * `TZ=`/`CRON_TZ=` prefix. Returns Go's error text, or undefined when the schedule parses.
 */
import { goQuote } from '../../go-format.js';

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

// parser.go/spec.go bounds.
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

/** parseDescriptor's fixed schedules. */
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** strconv.Atoi's error for text that is not a (64-bit) integer. */
function atoi(expr: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(expr)) return `strconv.Atoi: parsing "${expr}": invalid syntax`;
  const n = Number.parseInt(expr, 10);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing "${expr}": value out of range`;
  return n;
}

function mustParseInt(expr: string): number | Error {
  const n = atoi(expr);
  if (typeof n === 'string') return new Error(`failed to parse int from ${expr}: ${n}`);
  if (n < 0) return new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): number | Error {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

function getRange(expr: string, r: Bounds): Error | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const single = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
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
    if (single) end = r.max;
  } else if (rangeAndStep.length > 2) {
    return new Error(`too many slashes: ${expr}`);
  }
  if (start < r.min) return new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) return new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) return new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) return new Error(`step of range should be a positive number: ${expr}`);
  return undefined;
}

/** Go's time.ParseDuration units. */
const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration's error for `orig`, or undefined when it parses. */
function goDurationError(orig: string): string | undefined {
  const bad = `time: invalid duration ${goQuote(orig)}`;
  let s = orig;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return undefined;
  if (s === '') return bad;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) return bad;
    const num = /^([0-9]*)(?:\.([0-9]*))?/.exec(s);
    const pre = num?.[1] ?? '';
    const post = num?.[2];
    if (pre === '' && (post === undefined || post === '')) return bad;
    s = s.slice(num?.[0].length ?? 0);
    const unit = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    if (unit === '') return `time: missing unit in duration ${goQuote(orig)}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${goQuote(unit)} in duration ${goQuote(orig)}`;
    s = s.slice(unit.length);
  }
  return undefined;
}

/** cron.ParseStandard: undefined when valid, else robfig/cron's error text. */
export function parseStandardCron(spec: string): string | undefined {
  if (spec.length === 0) return 'empty spec string';
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    if (i === -1)
      return `provided bad location ${rest.slice(rest.indexOf('=') + 1)}: unknown time zone ${rest.slice(rest.indexOf('=') + 1)}`;
    const loc = rest.slice(rest.indexOf('=') + 1, i);
    if (!isKnownTimeZone(loc)) return `provided bad location ${loc}: unknown time zone ${loc}`;
    rest = rest.slice(i).trim();
  }
  if (rest.startsWith('@')) {
    if (DESCRIPTORS.has(rest)) return undefined;
    if (rest.startsWith('@every ')) {
      const err = goDurationError(rest.slice('@every '.length));
      return err === undefined ? undefined : `failed to parse duration ${rest}: ${err}`;
    }
    return `unrecognized descriptor: ${rest}`;
  }
  const fields = rest.split(/\s+/).filter((f) => f.length > 0);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const bounds = [MINUTES, HOURS, DOM, MONTHS, DOW];
  for (let i = 0; i < 5; i++) {
    for (const expr of (fields[i] as string).split(',').filter((e) => e.length > 0)) {
      const err = getRange(expr, bounds[i] as Bounds);
      if (err !== undefined) return err.message;
    }
  }
  return undefined;
}

/** Whether the IANA zone exists (time.LoadLocation); UTC and the zones the runtime knows. */
export function isKnownTimeZone(name: string): boolean {
  if (name === 'UTC' || name === '' || name === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
