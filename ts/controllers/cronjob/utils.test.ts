/**
 * utils_test.go at v1.32.4: TestGetJobFromTemplate2, TestNextScheduleTime, TestByJobStartTime,
 * TestMostRecentScheduleTime, TestNextScheduleTimeDuration — and schedules in a time zone across
 * its DST changes, which Go's tests leave to robfig/cron.
 */
import { describe, expect, it } from 'vitest';
import { parseStandard } from '../../api/cron/parser.js';
import type { Schedule } from '../../api/cron/spec.js';
import type { CronJob, Job } from '../../api/types/batch/v1.js';
import { FakeRecorder, HOUR, iso, MINUTE, SECOND, topOfTheHour } from './testing/fixtures.js';
import {
  byJobStartTime,
  CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION,
  formatRFC1123ZUTC,
  formatSchedule,
  getJobFromTemplate2,
  getJobName,
  type MissedSchedules,
  mostRecentScheduleTime,
  NEXT_SCHEDULE_DELTA_MS,
  nextScheduleTime,
  nextScheduleTimeDuration,
} from './utils.js';

const delta = (ms: number): number => topOfTheHour() + ms;

function sched(spec: string): Schedule {
  const s = parseStandard(spec);
  if (s instanceof Error) throw s;
  return s;
}

function cronJobOf(init: {
  creation: number;
  schedule: string;
  last?: number;
  sds?: number;
  timeZone?: string;
}): CronJob {
  const cj: CronJob = {
    metadata: { name: 'mycronjob', namespace: 'default', uid: '1a2b3c', creationTimestamp: iso(init.creation) },
    spec: { schedule: init.schedule, concurrencyPolicy: 'Allow', jobTemplate: {} },
  };
  const spec = cj.spec as NonNullable<CronJob['spec']>;
  if (init.last !== undefined) cj.status = { lastScheduleTime: iso(init.last) };
  if (init.sds !== undefined) spec.startingDeadlineSeconds = init.sds;
  if (init.timeZone !== undefined) spec.timeZone = init.timeZone;
  return cj;
}

describe('TestGetJobFromTemplate2', () => {
  const base = (): CronJob => ({
    metadata: { name: 'mycronjob', namespace: 'snazzycats', uid: '1a2b3c' },
    spec: {
      schedule: '* * * * ?',
      concurrencyPolicy: 'Allow',
      jobTemplate: {
        metadata: { creationTimestamp: iso(topOfTheHour()), labels: { a: 'b' } },
        spec: {
          activeDeadlineSeconds: 1,
          manualSelector: false,
          template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: '', image: 'foo/bar' }] } },
        },
      },
    },
  });
  it.each([
    ['UTC timezone and one annotation', 'UTC', { x: 'y' }, '2016-05-19T10:00:00Z', 2],
    ['nil timezone and one annotation', undefined, { x: 'y' }, '2016-05-19T10:00:00Z', 2],
    ['correct timezone and multiple annotation', 'Europe/Rome', { x: 'y', z: 'x' }, '2016-05-19T12:00:00+02:00', 3],
  ])('%s', (_name, timeZone, annotations, scheduled, count) => {
    const cj = base();
    const spec = cj.spec as NonNullable<CronJob['spec']>;
    spec.jobTemplate.metadata = { ...spec.jobTemplate.metadata, annotations };
    if (timeZone !== undefined) spec.timeZone = timeZone;
    const job = getJobFromTemplate2(cj, topOfTheHour()) as Job;
    expect(job.metadata?.name).toBe(`mycronjob-${Math.floor(topOfTheHour() / 60000)}`);
    expect(job.metadata?.name?.startsWith('mycronjob-')).toBe(true);
    expect(Object.keys(job.metadata?.labels ?? {})).toHaveLength(1);
    expect(Object.keys(job.metadata?.annotations ?? {})).toHaveLength(count);
    expect(job.metadata?.annotations?.[CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION]).toBe(scheduled);
    expect(job.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'mycronjob',
        uid: '1a2b3c',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(job.spec).toEqual(spec.jobTemplate.spec);
    expect(job.spec).not.toBe(spec.jobTemplate.spec);
  });

  it('an unknown zone is LoadLocation’s error', () => {
    const cj = base();
    (cj.spec as NonNullable<CronJob['spec']>).timeZone = 'Mars/Olympus';
    expect(getJobFromTemplate2(cj, topOfTheHour())).toEqual(new Error('unknown time zone Mars/Olympus'));
  });
});

describe('TestNextScheduleTime', () => {
  const T1 = topOfTheHour();
  const T2 = delta(HOUR);
  const recorder = new FakeRecorder();
  const next = (cj: CronJob, now: number, spec = '0 * * * ?') => nextScheduleTime(cj, now, sched(spec), recorder);

  it('case 1: no known start times, and none needed yet', () => {
    expect(
      next(cronJobOf({ creation: T1 - 10 * MINUTE, schedule: '0 * * * ?' }), T1 - 7 * MINUTE).time,
    ).toBeUndefined();
  });
  it('case 2: no known start times, and one needed', () => {
    expect(next(cronJobOf({ creation: T1 - 10 * MINUTE, schedule: '0 * * * ?' }), T1 + 2 * SECOND).time).toBe(T1);
  });
  it('case 3: known LastScheduleTime, no start needed', () => {
    const cj = cronJobOf({ creation: T1 - 10 * MINUTE, schedule: '0 * * * ?', last: T1 });
    expect(next(cj, T1 + 2 * MINUTE).time).toBeUndefined();
  });
  it('case 4: known LastScheduleTime, a start needed', () => {
    const cj = cronJobOf({ creation: T1 - 10 * MINUTE, schedule: '0 * * * ?', last: T1 });
    expect(next(cj, T2 + 5 * MINUTE).time).toBe(T2);
  });
  it('case 5: known LastScheduleTime, two starts needed: the most recent', () => {
    const cj = cronJobOf({ creation: T1 - 2 * HOUR, schedule: '0 * * * ?', last: T1 - HOUR });
    expect(next(cj, T2 + 5 * MINUTE).time).toBe(T2);
  });
  it('case 6: now way ahead of the last start time, no deadline: a time, and the TooManyMissedTimes Warning', () => {
    const r = new FakeRecorder();
    const cj = cronJobOf({ creation: T1 - 2 * HOUR, schedule: '0 * * * ?', last: T1 - HOUR });
    expect(nextScheduleTime(cj, T2 + 240 * HOUR, sched('0 * * * ?'), r).time).toBeDefined();
    expect(r.events).toEqual([
      'Warning TooManyMissedTimes too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    ]);
  });
  it('case 7: now way ahead, a short deadline: a time, no Warning', () => {
    const r = new FakeRecorder();
    const cj = cronJobOf({ creation: T1 - 2 * HOUR, schedule: '0 * * * ?', last: T1 - HOUR, sds: 2 * 60 * 60 });
    expect(nextScheduleTime(cj, T2 + 240 * HOUR, sched('0 * * * ?'), r).time).toBeDefined();
    expect(r.events).toEqual([]);
  });
  it('case 8: the rogue schedule’s error comes up', () => {
    const cj = cronJobOf({ creation: T1 + 10 * SECOND, schedule: '59 23 31 2 *' });
    const r = next(cj, delta(HOUR), '59 23 31 2 *');
    expect(r.time).toBeUndefined();
    expect(r.error?.message).toBe('time difference between two schedules is less than 1 second');
  });
});

describe('TestByJobStartTime', () => {
  const now = '2018-01-01T02:03:04Z';
  const later = '2019-01-01T02:03:04Z';
  const job = (name: string, startTime?: string): Job => ({
    metadata: { name },
    status: startTime === undefined ? {} : { startTime },
  });
  const [aNil, bNil, aSet, bSet, aSetLater] = [job('a'), job('b'), job('a', now), job('b', now), job('a', later)];
  it.each([
    ['both have nil start times', [bNil, aNil], [aNil, bNil]],
    ['only the first has a nil start time', [aNil, bSet], [bSet, aNil]],
    ['only the second has a nil start time', [aSet, bNil], [aSet, bNil]],
    ['both have non-nil, equal start time', [bSet, aSet], [aSet, bSet]],
    ['both have non-nil, different start time', [aSetLater, bSet], [bSet, aSetLater]],
  ])('%s', (_name, input, expected) => {
    expect([...input].sort(byJobStartTime)).toEqual(expected);
  });
});

describe('TestMostRecentScheduleTime', () => {
  const cases: Array<{
    name: string;
    cj: CronJob;
    includeSDS?: boolean;
    now: number;
    earliest?: number;
    recent?: number;
    missed?: MissedSchedules;
    wantErr?: boolean;
  }> = [
    {
      name: 'now before next schedule',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '0 * * * *' }),
      now: topOfTheHour() + 30 * SECOND,
      earliest: topOfTheHour(),
    },
    {
      name: 'now just after next schedule',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '0 * * * *' }),
      now: topOfTheHour() + 61 * MINUTE,
      recent: delta(60 * MINUTE),
      earliest: topOfTheHour(),
    },
    {
      name: 'missed 5 schedules',
      cj: cronJobOf({ creation: delta(10 * SECOND), schedule: '0 * * * *' }),
      now: delta(301 * MINUTE),
      recent: delta(300 * MINUTE),
      earliest: delta(10 * SECOND),
      missed: 'few',
    },
    {
      name: 'complex schedule',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '30 6-16/4 * * 1-5', last: delta(30 * MINUTE) }),
      now: delta(24 * HOUR + 31 * MINUTE),
      recent: delta(24 * HOUR + 30 * MINUTE),
      earliest: delta(30 * MINUTE),
      missed: 'few',
    },
    {
      name: 'another complex schedule',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '30 10,11,12 * * 1-5', last: delta(30 * MINUTE) }),
      now: delta(30 * HOUR + 30 * MINUTE),
      earliest: delta(30 * MINUTE),
      missed: 'few',
    },
    {
      name: 'complex schedule with longer diff between executions',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '30 6-16/4 * * 1-5', last: delta(30 * MINUTE) }),
      now: delta(96 * HOUR + 31 * MINUTE),
      recent: delta(96 * HOUR + 30 * MINUTE),
      earliest: delta(30 * MINUTE),
      missed: 'few',
    },
    {
      name: 'complex schedule with shorter diff between executions',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '30 6-16/4 * * 1-5' }),
      now: delta(24 * HOUR + 31 * MINUTE),
      recent: delta(24 * HOUR + 30 * MINUTE),
      earliest: topOfTheHour(),
      missed: 'few',
    },
    {
      name: '@every schedule',
      cj: cronJobOf({ creation: delta(-59 * MINUTE), schedule: '@every 1h', sds: 10, last: delta(MINUTE) }),
      now: delta(7 * 24 * HOUR),
      recent: delta(6 * 24 * HOUR + 23 * HOUR + MINUTE),
      earliest: delta(MINUTE),
      missed: 'many',
    },
    {
      name: 'rogue cronjob',
      cj: cronJobOf({ creation: delta(10 * SECOND), schedule: '59 23 31 2 *' }),
      now: delta(HOUR),
      wantErr: true,
    },
    {
      name: 'earliestTime being CreationTimestamp and LastScheduleTime',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '0 * * * *', last: topOfTheHour() }),
      now: delta(30 * SECOND),
      earliest: topOfTheHour(),
    },
    {
      name: 'earliestTime being LastScheduleTime',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '*/5 * * * *', last: delta(30 * MINUTE) }),
      now: delta(31 * MINUTE),
      earliest: delta(30 * MINUTE),
    },
    {
      name: 'earliestTime being LastScheduleTime (within StartingDeadlineSeconds)',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '*/5 * * * *', sds: 60, last: delta(30 * MINUTE) }),
      now: delta(31 * MINUTE),
      earliest: delta(30 * MINUTE),
    },
    {
      name: 'earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)',
      cj: cronJobOf({ creation: topOfTheHour(), schedule: '*/5 * * * *', sds: 60, last: delta(30 * MINUTE) }),
      includeSDS: true,
      now: delta(32 * MINUTE),
      earliest: delta(31 * MINUTE),
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = mostRecentScheduleTime(c.cj, c.now, sched(c.cj.spec?.schedule ?? ''), c.includeSDS ?? false);
    if (c.wantErr) {
      expect(r.error).toBeDefined();
      return;
    }
    expect(r.error).toBeUndefined();
    expect(iso(r.earliestTime)).toBe(iso(c.earliest ?? 0));
    expect(r.mostRecentTime === undefined ? undefined : iso(r.mostRecentTime)).toBe(
      c.recent === undefined ? undefined : iso(c.recent),
    );
    expect(r.missed).toBe(c.missed ?? 'none');
  });
});

describe('TestNextScheduleTimeDuration', () => {
  it.each([
    [
      'complex schedule skipping weekend',
      cronJobOf({ creation: topOfTheHour(), schedule: '30 6-16/4 * * 1-5', last: delta(30 * MINUTE) }),
      delta(24 * HOUR + 31 * MINUTE),
      3 * HOUR + 59 * MINUTE + NEXT_SCHEDULE_DELTA_MS,
    ],
    [
      'another complex schedule skipping weekend',
      cronJobOf({ creation: topOfTheHour(), schedule: '30 10,11,12 * * 1-5', last: delta(30 * MINUTE) }),
      delta(30 * HOUR + 30 * MINUTE),
      66 * HOUR + NEXT_SCHEDULE_DELTA_MS,
    ],
    [
      'once a week cronjob, missed two runs',
      cronJobOf({ creation: topOfTheHour(), schedule: '0 12 * * 4', last: delta(2 * HOUR) }),
      delta(19 * 24 * HOUR + HOUR + 30 * MINUTE),
      48 * HOUR + 30 * MINUTE + NEXT_SCHEDULE_DELTA_MS,
    ],
    [
      'no previous run of a cronjob',
      cronJobOf({ creation: topOfTheHour(), schedule: '0 12 * * 5' }),
      delta(6 * HOUR),
      20 * HOUR + NEXT_SCHEDULE_DELTA_MS,
    ],
  ])('%s', (_name, cj, now, expected) => {
    const got = nextScheduleTimeDuration(cj, now, sched(cj.spec?.schedule ?? ''));
    expect(got).toBeGreaterThanOrEqual(0);
    expect(got).toBe(expected);
  });
});

// spec.timeZone goes through formatSchedule as a TZ= prefix: the schedule follows the zone's wall
// clock, across its DST changes as robfig/cron (and so Kubernetes) computes them.
describe('schedules in spec.timeZone', () => {
  const tzSched = (cj: CronJob): Schedule => sched(formatSchedule(cj));

  it('formatSchedule: TZ= prefix for a known zone; the schedule alone for an unknown one, or one naming TZ itself', () => {
    const r = new FakeRecorder();
    expect(formatSchedule(cronJobOf({ creation: 0, schedule: '0 9 * * *', timeZone: 'Asia/Tokyo' }))).toBe(
      'TZ=Asia/Tokyo 0 9 * * *',
    );
    expect(formatSchedule(cronJobOf({ creation: 0, schedule: '0 9 * * *', timeZone: 'bad timezone' }))).toBe(
      '0 9 * * *',
    );
    expect(formatSchedule(cronJobOf({ creation: 0, schedule: 'CRON_TZ=UTC 0 9 * * *' }), r)).toBe(
      'CRON_TZ=UTC 0 9 * * *',
    );
    expect(r.events).toEqual([
      'Warning UnsupportedSchedule CRON_TZ or TZ used in schedule "CRON_TZ=UTC 0 9 * * *" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
    ]);
  });

  it('09:00 in Tokyo is 00:00 UTC', () => {
    const cj = cronJobOf({
      creation: Date.parse('2024-05-15T12:00:00Z'),
      schedule: '0 9 * * *',
      timeZone: 'Asia/Tokyo',
    });
    const now = Date.parse('2024-05-16T00:00:30Z');
    expect(iso(mostRecentScheduleTime(cj, now, tzSched(cj), true).mostRecentTime ?? 0)).toBe(
      '2024-05-16T00:00:00.000Z',
    );
    const job = getJobFromTemplate2(cj, Date.parse('2024-05-16T00:00:00Z')) as Job;
    expect(job.metadata?.annotations?.[CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION]).toBe('2024-05-16T09:00:00+09:00');
  });

  it('02:30 on the spring-forward day in New York does not run (as robfig/cron under Go: checked in ts/api/cron)', () => {
    const cj = cronJobOf({
      creation: Date.parse('2024-03-09T12:00:00Z'),
      schedule: '30 2 * * *',
      timeZone: 'America/New_York',
    });
    const s = tzSched(cj);
    const first = s.next(Date.parse('2024-03-09T12:00:00Z'));
    expect(iso(first)).toBe('2024-03-11T06:30:00.000Z');
    expect(iso(s.next(first))).toBe('2024-03-12T06:30:00.000Z');
    // The requeue from the creation: to that start time, plus nextScheduleDelta.
    const now = Date.parse('2024-03-10T06:00:00Z');
    expect(nextScheduleTimeDuration(cj, now, s)).toBe(24 * HOUR + 30 * MINUTE + NEXT_SCHEDULE_DELTA_MS);
  });

  it('an hourly schedule in Berlin runs once in the hour the fall-back repeats, and 24 times across the day', () => {
    const cj = cronJobOf({
      creation: Date.parse('2024-10-26T22:00:00Z'),
      schedule: '0 * * * *',
      timeZone: 'Europe/Berlin',
    });
    const s = tzSched(cj);
    let t = Date.parse('2024-10-26T22:00:00Z'); // 00:00 CEST
    const runs: string[] = [];
    for (let i = 0; i < 24; i++) {
      t = s.next(t);
      runs.push(iso(t));
    }
    // 02:00 CEST (00:00Z), 02:00 CET (01:00Z), 03:00 CET (02:00Z): Go's Next adds an hour at a time.
    expect(runs.slice(0, 4)).toEqual([
      '2024-10-26T23:00:00.000Z',
      '2024-10-27T00:00:00.000Z',
      '2024-10-27T01:00:00.000Z',
      '2024-10-27T02:00:00.000Z',
    ]);
    expect(runs[23]).toBe('2024-10-27T22:00:00.000Z');
  });

  it('getJobName and MissSchedule’s RFC1123Z', () => {
    const cj = cronJobOf({ creation: 0, schedule: '* * * * *' });
    expect(getJobName(cj, topOfTheHour())).toBe('mycronjob-24394200');
    expect(formatRFC1123ZUTC(topOfTheHour())).toBe('Thu, 19 May 2016 10:00:00 +0000');
  });
});
