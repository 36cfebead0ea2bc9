/**
 * robfig/cron/v3 v3.0.1's schedules (spec.go, constantdelay.go): a SpecSchedule's Next walks the
 * wall clock of its zone field by field — month, day, hour, minute, second — as Go does, so a
 * schedule in a DST gap runs at the moved wall time and one in an overlap runs once.
 *
 *   const s = parseStandard('TZ=Europe/Berlin 30 2 * * *');
 *   if (!(s instanceof Error)) s.next(Date.parse('2024-03-30T12:00:00Z'));   // 2024-03-31T01:30:00Z
 *
 * Times are ms since the epoch; Next answers GO_ZERO_TIME_MS (Go's zero time.Time) when nothing
 * matches within five years (`59 23 31 2 *`).
 */
import {
  addDate,
  dateIn,
  GO_ZERO_TIME_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
  subSecondMs,
  truncate,
  type WallFields,
  wallFields,
} from './zone.js';

/** cron.Schedule: the next activation time strictly after `t`. */
export interface Schedule {
  next(t: number): number;
}

// spec.go starBit: set on a field given as `*` (or `?`).
export const STAR_BIT = 1n << 63n;

/** The bit of `n` in a field's set. */
function bit(n: number): bigint {
  return 1n << BigInt(n);
}

/** spec.go SpecSchedule: the fields as bit sets, and the zone ('Local' is UTC in kubewasm). */
export class SpecSchedule implements Schedule {
  constructor(
    readonly second: bigint,
    readonly minute: bigint,
    readonly hour: bigint,
    readonly dom: bigint,
    readonly month: bigint,
    readonly dow: bigint,
    readonly location: string,
  ) {}

  /** spec.go Next. */
  next(from: number): number {
    const loc = this.location;
    // Start at the earliest possible time (the upcoming second).
    let t = from + SECOND_MS - subSecondMs(from);
    let added = false;
    const yearLimit = wallFields(loc, t).year + 5;
    let f: WallFields;
    wrap: for (;;) {
      f = wallFields(loc, t);
      if (f.year > yearLimit) return GO_ZERO_TIME_MS;

      while ((bit(f.month) & this.month) === 0n) {
        if (!added) {
          added = true;
          t = dateIn(loc, f.year, f.month, 1);
        }
        t = addDate(loc, t, 0, 1, 0);
        f = wallFields(loc, t);
        if (f.month === 1) continue wrap;
      }

      while (!this.dayMatches(f)) {
        if (!added) {
          added = true;
          t = dateIn(loc, f.year, f.month, f.day);
        }
        t = addDate(loc, t, 0, 0, 1);
        f = wallFields(loc, t);
        // Midnight that DST moved: back to the day's first hour (or on to the next day's).
        if (f.hour !== 0) {
          if (f.hour > 12) t += (24 - f.hour) * HOUR_MS;
          else t -= f.hour * HOUR_MS;
          f = wallFields(loc, t);
        }
        if (f.day === 1) continue wrap;
      }

      while ((bit(f.hour) & this.hour) === 0n) {
        if (!added) {
          added = true;
          t = dateIn(loc, f.year, f.month, f.day, f.hour);
        }
        t += HOUR_MS;
        f = wallFields(loc, t);
        if (f.hour === 0) continue wrap;
      }

      while ((bit(f.minute) & this.minute) === 0n) {
        if (!added) {
          added = true;
          t = truncate(t, MINUTE_MS);
        }
        t += MINUTE_MS;
        f = wallFields(loc, t);
        if (f.minute === 0) continue wrap;
      }

      while ((bit(f.second) & this.second) === 0n) {
        if (!added) {
          added = true;
          t = truncate(t, SECOND_MS);
        }
        t += SECOND_MS;
        f = wallFields(loc, t);
        if (f.second === 0) continue wrap;
      }
      return t;
    }
  }

  /** spec.go dayMatches: both must match when either field is `*`, else either. */
  private dayMatches(f: WallFields): boolean {
    const domMatch = (bit(f.day) & this.dom) > 0n;
    const dowMatch = (bit(f.weekday) & this.dow) > 0n;
    if ((this.dom & STAR_BIT) > 0n || (this.dow & STAR_BIT) > 0n) return domMatch && dowMatch;
    return domMatch || dowMatch;
  }
}

/** constantdelay.go ConstantDelaySchedule (`@every`): a delay of whole seconds. */
export class ConstantDelaySchedule implements Schedule {
  constructor(readonly delayMs: number) {}

  /** constantdelay.go Every: at least a second, rounded down to whole seconds. */
  static every(durationNs: bigint): ConstantDelaySchedule {
    const ns = durationNs < 1_000_000_000n ? 1_000_000_000n : durationNs;
    return new ConstantDelaySchedule(Number(ns / 1_000_000_000n) * SECOND_MS);
  }

  next(t: number): number {
    return t + this.delayMs - subSecondMs(t);
  }
}
