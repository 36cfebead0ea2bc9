/**
 * Wall-clock arithmetic in a time zone, as Go's time package does it for robfig/cron's Next: a
 * zone's offset at an instant (from Intl, which carries the IANA database in Node and browsers),
 * the civil fields of an instant in a zone (t.Year(), t.Hour(), t.Weekday() …), time.Date in a
 * zone (the normalization of out-of-range fields, and Go's choice of offset in a DST gap or
 * overlap) and t.AddDate.
 *
 *   const t = dateIn('Europe/Berlin', 2024, 3, 31, 2, 30, 0);   // in the spring-forward gap
 *   wallFields('Europe/Berlin', t).hour;   // 3 — Go's time.Date gives 03:30 CEST too
 *
 * Instants are milliseconds since the epoch. 'UTC', '' and 'Local' are UTC: kube-controller-manager
 * runs in a container whose local zone is UTC, and kubewasm models that.
 */

/** Go's zero time.Time (January 1, year 1, 00:00:00 UTC) in ms since the epoch. */
export const GO_ZERO_TIME_MS = -62135596800000;

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;

/** The civil fields of an instant in a zone; month 1-12, weekday 0 (Sunday) - 6. */
export interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
}

/** Whether `zone` names UTC as time.LoadLocation reads it ("" and "UTC"; "Local" is UTC here). */
function isUTC(zone: string): boolean {
  return zone === '' || zone === 'UTC' || zone === 'Local';
}

/** Whether the IANA zone exists (time.LoadLocation); UTC and the zones the runtime knows. */
export function isKnownTimeZone(name: string): boolean {
  if (isUTC(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** time.LoadLocation's error text for an unknown zone. */
export function unknownTimeZoneError(name: string): string {
  return `unknown time zone ${name}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/** The instant of a proleptic-Gregorian civil time read as UTC; out-of-range fields normalize. */
export function civilToUTC(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millisecond);
  return d.getTime();
}

/** The zone's offset from UTC at the instant `ms`, in ms (east positive). */
export function zoneOffsetMs(zone: string, ms: number): number {
  if (isUTC(zone)) return 0;
  const parts = formatter(zone).formatToParts(ms);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '0';
  let year = Number.parseInt(get('year'), 10);
  if (get('era') === 'BC' || get('era') === 'B') year = 1 - year;
  const wall = civilToUTC(
    year,
    Number.parseInt(get('month'), 10),
    Number.parseInt(get('day'), 10),
    Number.parseInt(get('hour'), 10),
    Number.parseInt(get('minute'), 10),
    Number.parseInt(get('second'), 10),
  );
  return wall - (ms - mod(ms, SECOND_MS));
}

/** t.In(zone)'s Year(), Month(), Day(), Hour(), Minute(), Second(), Weekday(). */
export function wallFields(zone: string, ms: number): WallFields {
  const d = new Date(ms + zoneOffsetMs(zone, ms));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
  };
}

/**
 * time.Date(year, month, day, hour, min, sec, 0, zone): fields normalized, then the offset Go's
 * Date picks — the one in effect at the wall time read as UTC, unless the instant that gives
 * falls outside that zone period, then the one at that instant — so in a DST gap or overlap the
 * instant is the one Go answers (Europe/Berlin's 02:30 on a spring-forward day is 03:30 CEST,
 * America/New_York's is 01:30 EST), whichever side that is.
 */
export function dateIn(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const wall = civilToUTC(year, month, day, hour, minute, second, millisecond);
  const guess = zoneOffsetMs(zone, wall);
  // lookup(wall - guess) is the same offset when that instant is in the guessed period.
  return wall - zoneOffsetMs(zone, wall - guess);
}

/** t.AddDate(years, months, days) in `zone`: the civil fields moved, then time.Date. */
export function addDate(zone: string, ms: number, years: number, months: number, days: number): number {
  const f = wallFields(zone, ms);
  return dateIn(zone, f.year + years, f.month + months, f.day + days, f.hour, f.minute, f.second, f.millisecond);
}

/** t.Truncate(d) for d a whole number of seconds: on the absolute time, not the wall clock. */
export function truncate(ms: number, d: number): number {
  return ms - mod(ms - GO_ZERO_TIME_MS, d);
}

/** t.Nanosecond() in ms: the sub-second part, in [0, 1000). */
export function subSecondMs(ms: number): number {
  return mod(ms, SECOND_MS);
}
