import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGoDuration, parseStandard } from './parser.js';
import { ConstantDelaySchedule, type Schedule, type SpecSchedule } from './spec.js';
import { addDate, dateIn, GO_ZERO_TIME_MS, wallFields, zoneOffsetMs } from './zone.js';

function sched(spec: string): Schedule {
  const s = parseStandard(spec);
  if (s instanceof Error) throw s;
  return s;
}

const iso = (ms: number): string => new Date(ms).toISOString();

// robfig/cron/v3 v3.0.1 spec_test.go TestNext, in ParseStandard's five fields (seconds 0); times
// without a zone are time.Local, UTC here.
describe('SpecSchedule.next (spec_test.go TestNext)', () => {
  it.each([
    ['2012-07-09T14:45:00Z', '0/15 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T14:59:00Z', '0/15 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T14:59:59Z', '0/15 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T15:45:00Z', '20-35/15 * * * *', '2012-07-09T16:20:00Z'],
    ['2012-07-09T23:46:00Z', '*/15 * * * *', '2012-07-10T00:00:00Z'],
    ['2012-07-09T23:45:00Z', '20-35/15 * * * *', '2012-07-10T00:20:00Z'],
    ['2012-07-09T23:35:51Z', '20-35/15 1/2 * * *', '2012-07-10T01:20:00Z'],
    ['2012-07-09T23:35:51Z', '20-35/15 10-12 * * *', '2012-07-10T10:20:00Z'],
    ['2012-07-09T23:35:51Z', '20-35/15 1/2 */2 * *', '2012-07-11T01:20:00Z'],
    ['2012-07-09T23:35:51Z', '20-35/15 * 9-20 * *', '2012-07-10T00:20:00Z'],
    ['2012-07-09T23:35:51Z', '20-35/15 * 9-20 Jul *', '2012-07-10T00:20:00Z'],
    ['2012-07-09T23:35:00Z', '0 0 9 Apr-Oct ?', '2012-08-09T00:00:00Z'],
    ['2012-07-09T23:35:00Z', '0 0 */5 Apr,Aug,Oct Mon', '2012-08-01T00:00:00Z'],
    ['2012-07-09T23:35:00Z', '0 0 */5 Oct Mon', '2012-10-01T00:00:00Z'],
    ['2012-07-09T23:35:00Z', '0 0 * Feb Mon', '2013-02-04T00:00:00Z'],
    ['2012-07-09T23:35:00Z', '0 0 * Feb Mon/2', '2013-02-01T00:00:00Z'],
    ['2012-12-31T23:59:45Z', '* * * * *', '2013-01-01T00:00:00Z'],
    ['2012-07-09T23:35:00Z', '0 0 29 Feb ?', '2016-02-29T00:00:00Z'],
    // 2am EST (-5) -> 3am EDT (-4)
    ['2012-03-11T00:00:00-05:00', 'TZ=America/New_York 30 2 11 Mar ?', '2013-03-11T02:30:00-04:00'],
    ['2012-03-11T00:00:00-05:00', 'TZ=America/New_York 0 * * * ?', '2012-03-11T01:00:00-05:00'],
    ['2012-03-11T01:00:00-05:00', 'TZ=America/New_York 0 * * * ?', '2012-03-11T03:00:00-04:00'],
    ['2012-03-11T03:00:00-04:00', 'TZ=America/New_York 0 * * * ?', '2012-03-11T04:00:00-04:00'],
    ['2012-03-11T01:00:00-05:00', 'CRON_TZ=America/New_York 0 * * * ?', '2012-03-11T03:00:00-04:00'],
    ['2012-03-11T00:00:00-05:00', 'TZ=America/New_York 0 1 * * ?', '2012-03-11T01:00:00-05:00'],
    ['2012-03-11T01:00:00-05:00', 'TZ=America/New_York 0 1 * * ?', '2012-03-12T01:00:00-04:00'],
    // the 2am nightly job is skipped on the spring-forward day
    ['2012-03-11T00:00:00-05:00', 'TZ=America/New_York 0 2 * * ?', '2012-03-12T02:00:00-04:00'],
    // 2am EDT (-4) -> 1am EST (-5)
    ['2012-11-04T00:00:00-04:00', 'TZ=America/New_York 30 2 04 Nov ?', '2012-11-04T02:30:00-05:00'],
    ['2012-11-04T01:45:00-04:00', 'TZ=America/New_York 30 1 04 Nov ?', '2012-11-04T01:30:00-05:00'],
    ['2012-11-04T00:00:00-04:00', 'TZ=America/New_York 0 * * * ?', '2012-11-04T01:00:00-04:00'],
    ['2012-11-04T01:00:00-04:00', 'TZ=America/New_York 0 * * * ?', '2012-11-04T01:00:00-05:00'],
    ['2012-11-04T01:00:00-05:00', 'TZ=America/New_York 0 * * * ?', '2012-11-04T02:00:00-05:00'],
    // the 1am nightly job runs twice
    ['2012-11-04T00:00:00-04:00', 'TZ=America/New_York 0 1 * * ?', '2012-11-04T01:00:00-04:00'],
    ['2012-11-04T01:00:00-04:00', 'TZ=America/New_York 0 1 * * ?', '2012-11-04T01:00:00-05:00'],
    ['2012-11-04T01:00:00-05:00', 'TZ=America/New_York 0 1 * * ?', '2012-11-05T01:00:00-05:00'],
    ['2012-11-04T00:00:00-04:00', 'TZ=America/New_York 0 2 * * ?', '2012-11-04T02:00:00-05:00'],
    ['2012-11-04T02:00:00-05:00', 'TZ=America/New_York 0 2 * * ?', '2012-11-05T02:00:00-05:00'],
    ['2012-11-04T00:00:00-04:00', 'TZ=America/New_York 0 3 * * ?', '2012-11-04T03:00:00-05:00'],
    ['2012-11-04T03:00:00-05:00', 'TZ=America/New_York 0 3 * * ?', '2012-11-05T03:00:00-05:00'],
    ['2012-11-04T00:00:00-04:00', 'TZ=America/New_York 0 3 3 * ?', '2012-12-03T03:00:00-05:00'],
    // DST making midnight no valid time (robfig/cron#157)
    ['2018-10-17T05:00:00-04:00', 'TZ=America/Sao_Paulo 0 9 10 * ?', '2018-11-10T06:00:00-05:00'],
    ['2018-02-14T05:00:00-05:00', 'TZ=America/Sao_Paulo 0 9 22 * ?', '2018-02-22T07:00:00-05:00'],
  ])('from %s, %j: %s', (from, spec, expected) => {
    expect(iso(sched(spec).next(Date.parse(from)))).toBe(iso(Date.parse(expected)));
  });

  it.each(['0 0 30 Feb ?', '0 0 31 Apr ?', '59 23 31 2 *'])('%j is unsatisfiable: the zero time', (spec) => {
    expect(sched(spec).next(Date.parse('2012-07-09T23:35:00Z'))).toBe(GO_ZERO_TIME_MS);
  });

  // spec_test.go TestNextWithTz: a time in another zone, the schedule in Local (UTC).
  it('an instant given in +05:30 is scheduled in UTC', () => {
    expect(iso(sched('14 14 * * *').next(Date.parse('2016-01-03T13:09:03+05:30')))).toBe('2016-01-03T14:14:00.000Z');
  });
});

describe('descriptors and @every (parser.go parseDescriptor, constantdelay.go)', () => {
  it('answers the fixed schedules', () => {
    const from = Date.parse('2024-05-15T10:20:30Z');
    expect(iso(sched('@hourly').next(from))).toBe('2024-05-15T11:00:00.000Z');
    expect(iso(sched('@daily').next(from))).toBe('2024-05-16T00:00:00.000Z');
    expect(iso(sched('@weekly').next(from))).toBe('2024-05-19T00:00:00.000Z');
    expect(iso(sched('@monthly').next(from))).toBe('2024-06-01T00:00:00.000Z');
    expect(iso(sched('@yearly').next(from))).toBe('2025-01-01T00:00:00.000Z');
    expect(iso(sched('TZ=Asia/Tokyo @daily').next(from))).toBe('2024-05-15T15:00:00.000Z');
  });

  it('@every rounds down to whole seconds, at least one, and drops the sub-second part of t', () => {
    const every = sched('@every 1m30.5s');
    expect(every).toBeInstanceOf(ConstantDelaySchedule);
    expect(every.next(Date.parse('2024-05-15T10:20:30.250Z'))).toBe(Date.parse('2024-05-15T10:22:00Z'));
    expect((sched('@every 10ms') as ConstantDelaySchedule).delayMs).toBe(1000);
    expect(parseGoDuration('1h2m3.5s')).toBe(3723_500_000_000n);
    expect(parseGoDuration('-1.5h')).toBe(-5400_000_000_000n);
    expect(parseGoDuration('9999999999h')).toBeInstanceOf(Error);
  });

  it('parses fields into robfig bit sets, with the star bit for *', () => {
    const s = sched('5 * * * *') as SpecSchedule;
    expect(s.minute).toBe(1n << 5n);
    expect(s.second).toBe(1n);
    expect(s.hour & (1n << 63n)).toBe(1n << 63n);
    expect((sched('*/1 * * * *') as SpecSchedule).minute & (1n << 63n)).toBe(1n << 63n);
    expect((sched('*/2 * * * *') as SpecSchedule).minute & (1n << 63n)).toBe(0n);
    expect(parseStandard('TZ=Mars/Olympus * * * * *')).toEqual(
      new Error('provided bad location Mars/Olympus: unknown time zone Mars/Olympus'),
    );
  });
});

describe('zone arithmetic (Go time.Date, AddDate)', () => {
  // Go 1.26 time.Date's answers (its offset is the one at the wall time read as UTC, corrected once).
  it('time.Date in a gap or an overlap picks the offset Go picks', () => {
    expect(iso(dateIn('America/New_York', 2012, 3, 11, 2, 30))).toBe('2012-03-11T06:30:00.000Z');
    expect(iso(dateIn('Europe/Berlin', 2024, 3, 31, 2, 30))).toBe('2024-03-31T01:30:00.000Z');
    expect(iso(dateIn('Europe/Berlin', 2024, 10, 27, 2, 30))).toBe('2024-10-27T01:30:00.000Z');
    expect(iso(dateIn('America/New_York', 2012, 11, 4, 1, 30))).toBe('2012-11-04T05:30:00.000Z');
    expect(zoneOffsetMs('Asia/Kolkata', 0)).toBe(5.5 * 3600_000);
    expect(wallFields('Europe/Berlin', Date.parse('2024-03-31T01:30:00Z')).hour).toBe(3);
    expect(iso(addDate('UTC', Date.parse('2024-01-31T00:00:00Z'), 0, 1, 0))).toBe('2024-03-02T00:00:00.000Z');
  });
});

// testdata/next-go-v3.0.1.txt: `spec|from|n|ms` — the n-th Next (from 0) of robfig/cron v3.0.1's
// ParseStandard(spec) under Go 1.26 from `from`, around DST changes in a dozen zones.
describe('Next as Go computes it (testdata/next-go-v3.0.1.txt)', () => {
  const lines = readFileSync(new URL('./testdata/next-go-v3.0.1.txt', import.meta.url), 'utf8')
    .trim()
    .split('\n');
  const cases = new Map<string, number[]>();
  for (const line of lines) {
    const [spec = '', from = '', , ms = ''] = line.split('|');
    const key = `${spec}|${from}`;
    cases.set(key, [...(cases.get(key) ?? []), Number(ms)]);
  }
  it.each([...cases.entries()])('%s', (key, expected) => {
    const [spec = '', from = ''] = key.split('|');
    const s = sched(spec);
    const got: number[] = [];
    let t = Date.parse(from);
    for (let i = 0; i < expected.length; i++) {
      t = s.next(t);
      got.push(t);
    }
    expect(got.map(iso)).toEqual(expected.map(iso));
  });
});
