/**
 * The rest of cronjob_controllerv2_test.go at v1.32.4: TestControllerV2UpdateCronJob (the delay a
 * schedule or zone change queues the key after), TestControllerV2GetJobsToBeReconciled,
 * TestControllerV2CleanupFinishedJobs (one sync through the queue's key, the informers' caches
 * filled by hand), TestControllerV2JobAlreadyExistsButNotInActiveStatus and
 * TestControllerV2JobAlreadyExistsButDifferentOwner.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newAlreadyExists, newInternalError } from '../../api/status.js';
import type { CronJob, CronJobSpec, Job } from '../../api/types/batch/v1.js';
import type { Client } from '../../client/client.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey } from '../../client/informers/keys.js';
import type { ThreadSafeStore } from '../../client/informers/thread-safe-store.js';
import { RESOURCES } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { CronJobController } from './cronjob-controller.js';
import {
  cronJob,
  everyHour,
  FakeCronJobControl,
  FakeJobControl,
  FakeRecorder,
  fakeController,
  fixedClock,
  iso,
  justAfterTheHour,
  justAfterThePriorHour,
  justASecondBeforeTheHour,
  justBeforeTheHour,
  justBeforeThePriorHour,
  MINUTE,
  newYork,
  onTheHour,
  SECOND,
} from './testing/fixtures.js';
import { getJobFromTemplate2, jobReference, NEXT_SCHEDULE_DELTA_MS } from './utils.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A controller whose informers' caches are filled by hand (the factory is never started). */
function controllerWith(
  now: number,
  objects: { cronJobs?: CronJob[]; jobs?: Job[] },
  jobControl = new FakeJobControl(undefined),
  cronJobControl = new FakeCronJobControl({}),
): CronJobController {
  const client = {} as Client;
  const factory = new SharedInformerFactory(client);
  const jm = new CronJobController({
    factory,
    client,
    clock: fixedClock(now),
    jobControl,
    cronJobControl,
    recorder: new FakeRecorder(),
  });
  const cjStore = factory.informerFor(RESOURCES.cronjobs).getIndexer() as ThreadSafeStore<CronJob>;
  for (const cj of objects.cronJobs ?? []) cjStore.add(objectKey(cj), cj);
  const jobStore = factory.informerFor(RESOURCES.jobs).getIndexer() as ThreadSafeStore<Job>;
  for (const job of objects.jobs ?? []) jobStore.add(objectKey(job), job);
  return jm;
}

describe('TestControllerV2UpdateCronJob', () => {
  const template = (a: string): CronJobSpec['jobTemplate'] => ({
    metadata: { labels: { a }, annotations: { x: 'y' } },
    spec: cronJob().spec?.jobTemplate.spec as NonNullable<CronJobSpec['jobTemplate']['spec']>,
  });
  const cj = (spec: Partial<CronJobSpec>, last?: number): CronJob => ({
    metadata: { name: 'cj', namespace: 'default' },
    spec: { schedule: '', jobTemplate: template('b'), ...spec },
    ...(last === undefined ? {} : { status: { lastScheduleTime: iso(last) } }),
  });
  it.each([
    ['spec.template changed', cj({}), cj({ jobTemplate: template('foo') }), 0],
    [
      'spec.schedule changed',
      cj({ schedule: '30 * * * *' }, justBeforeTheHour()),
      cj({ schedule: '*/1 * * * *' }, justBeforeTheHour()),
      SECOND + NEXT_SCHEDULE_DELTA_MS,
    ],
    [
      'spec.schedule with @every changed - cadence decrease',
      cj({ schedule: '@every 1m' }, justBeforeTheHour()),
      cj({ schedule: '@every 3m' }, justBeforeTheHour()),
      2 * MINUTE + SECOND + NEXT_SCHEDULE_DELTA_MS,
    ],
    [
      'spec.schedule with @every changed - cadence increase',
      cj({ schedule: '@every 3m' }, justBeforeTheHour()),
      cj({ schedule: '@every 1m' }, justBeforeTheHour()),
      SECOND + NEXT_SCHEDULE_DELTA_MS,
    ],
    [
      'spec.timeZone not changed',
      cj({ timeZone: newYork }),
      cj({ timeZone: newYork, jobTemplate: template('foo') }),
      0,
    ],
    ['spec.timeZone changed', cj({ timeZone: newYork }), cj({ jobTemplate: template('foo') }), 0],
  ])('%s', (_name, oldCJ, newCJ, expectedDelay) => {
    const addAfter = vi.spyOn(WorkQueue.prototype, 'addAfter');
    const jm = controllerWith(justASecondBeforeTheHour(), {});
    // biome-ignore lint/complexity/useLiteralKeys: the private handler, as Go's test calls it
    jm['updateCronJob'](oldCJ, newCJ);
    // fakeQueue records only AddAfter: a plain Add leaves its delay 0.
    const delay = addAfter.mock.calls.at(-1)?.[1] ?? 0;
    expect(Math.trunc(delay / 1000)).toBe(Math.trunc(expectedDelay / 1000));
    if (expectedDelay !== 0) expect(delay).toBe(expectedDelay);
  });
});

describe('TestControllerV2GetJobsToBeReconciled', () => {
  const fooer: CronJob = { metadata: { namespace: 'foo-ns', name: 'fooer' } };
  const job = (name: string, namespace: string, owner?: string, labels?: Record<string, string>): Job => ({
    metadata: {
      name,
      namespace,
      ...(labels === undefined ? {} : { labels }),
      ...(owner === undefined
        ? {}
        : { ownerReferences: [{ apiVersion: '', kind: '', uid: '', name: owner, controller: true }] }),
    },
  });
  it.each([
    [
      'test getting jobs in namespace without controller reference',
      fooer,
      [job('foo', 'foo-ns'), job('foo1', 'foo-ns'), job('foo2', 'foo-ns')],
      [],
    ],
    [
      'test getting jobs in namespace with a controller reference',
      fooer,
      [job('foo', 'foo-ns'), job('foo1', 'foo-ns', 'fooer'), job('foo2', 'foo-ns')],
      ['foo1'],
    ],
    [
      'test getting jobs in other namespaces',
      fooer,
      [job('foo', 'bar-ns'), job('foo1', 'bar-ns'), job('foo2', 'bar-ns')],
      [],
    ],
    [
      'test getting jobs whose labels do not match job template',
      { ...fooer, spec: { schedule: '', jobTemplate: { metadata: { labels: { key: 'value' } } } } },
      [
        job('foo-fooer-owner-ref', 'foo-ns', 'fooer', { key: 'different-value' }),
        job('foo-other-owner-ref', 'foo-ns', 'another-cronjob', { key: 'different-value' }),
      ],
      ['foo-fooer-owner-ref'],
    ],
  ])('%s', (_name, cj, jobs, expected) => {
    const jm = controllerWith(0, { jobs });
    // biome-ignore lint/complexity/useLiteralKeys: the private method, as Go's test calls it
    expect(jm['getJobsToBeReconciled'](cj).map((j) => j.metadata?.name)).toEqual(expected);
  });
});

describe('TestControllerV2CleanupFinishedJobs', () => {
  const fooer = (limit: number): CronJob => ({
    metadata: { namespace: 'foo-ns', name: 'fooer' },
    spec: {
      schedule: onTheHour,
      successfulJobsHistoryLimit: limit,
      jobTemplate: { metadata: { labels: { key: 'value' } } },
    },
    status: { lastScheduleTime: iso(justAfterThePriorHour()) },
  });
  const finished = (name: string, startTime: number): Job => ({
    metadata: {
      namespace: 'foo-ns',
      name,
      ownerReferences: [{ apiVersion: '', kind: '', uid: '', name: 'fooer', controller: true }],
    },
    status: { startTime: iso(startTime), conditions: [{ type: 'Complete', status: 'True' }] },
  });
  it.each([
    [
      'jobs are still deleted when a cronjob can’t create jobs due to jobs quota being reached (avoiding a deadlock)',
      justAfterTheHour(),
      fooer(1),
      [
        finished('finished-job-started-hour-ago', justBeforeThePriorHour()),
        finished('finished-job-started-minute-ago', justBeforeTheHour()),
      ],
      newInternalError('quota for # of jobs reached'),
      ['finished-job-started-hour-ago'],
    ],
    [
      'jobs are not deleted if history limit not reached',
      justBeforeTheHour(),
      fooer(2),
      [finished('finished-job-started-hour-ago', justBeforeThePriorHour())],
      undefined,
      [],
    ],
  ])('%s', async (_name, now, cj, jobs, createErr, expectedDeleted) => {
    const jc = new FakeJobControl(undefined, createErr);
    const jm = controllerWith(now, { cronJobs: [cj], jobs }, jc);
    // processNextWorkItem: the sync's error (the create's) is the rate-limited retry's business.
    await jm.sync(objectKey(cj)).catch(() => undefined);
    expect([...jc.deleteJobName].sort()).toEqual([...expectedDeleted].sort());
  });
});

describe('TestControllerV2JobAlreadyExists…', () => {
  function setup(withOwner: boolean) {
    const cj = cronJob();
    const spec = cj.spec as CronJobSpec;
    spec.concurrencyPolicy = 'Forbid';
    spec.schedule = everyHour;
    cj.status = { lastScheduleTime: iso(justBeforeThePriorHour()), active: [] };
    const job = getJobFromTemplate2(cj, justAfterThePriorHour()) as Job;
    const meta = job.metadata as NonNullable<Job['metadata']>;
    meta.uid = '1234';
    meta.namespace = cj.metadata?.namespace as string;
    if (!withOwner) meta.ownerReferences = [];
    const jc = new FakeJobControl(job, newAlreadyExists({ group: 'batch', resource: 'job' }, ''));
    const cjc = new FakeCronJobControl({});
    const jm = controllerWith(justBeforeTheHour(), { cronJobs: [structuredClone(cj)] }, jc, cjc);
    return { cj, job, jm, cjc };
  }

  it('ButNotInActiveStatus: an existing Job of ours is added back to status.active', async () => {
    const { cj, job, jm, cjc } = setup(true);
    await jm.sync(objectKey(cj));
    expect(cjc.updates).toHaveLength(1);
    expect(cjc.updates[0]?.status?.active).toEqual([jobReference(job)]);
  });

  it('ButDifferentOwner: an existing Job not ours is ignored', async () => {
    const { cj, jm, cjc } = setup(false);
    await jm.sync(objectKey(cj));
    expect(cjc.updates).toHaveLength(0);
  });
});

// The Events' text, as cronjob_controllerv2.go's Eventf formats them.
describe('Event messages', () => {
  async function eventsOf(spec: Partial<CronJobSpec>, now: number): Promise<string[]> {
    const cj = cronJob();
    Object.assign(cj.spec as CronJobSpec, spec);
    const recorder = new FakeRecorder();
    const jm = fakeController(now, new FakeJobControl(undefined), new FakeCronJobControl(cj), recorder);
    await jm.syncCronJob(structuredClone(cj), []);
    return recorder.events;
  }
  it('UnknownTimeZone, UnparseableSchedule, SuccessfulCreate, UnsupportedSchedule', async () => {
    expect(await eventsOf({ timeZone: 'bad timezone', schedule: onTheHour }, justAfterTheHour())).toEqual([
      'Warning UnknownTimeZone invalid timeZone: "bad timezone": unknown time zone bad timezone',
    ]);
    expect(await eventsOf({ schedule: 'obvious error schedule' }, justAfterTheHour())).toEqual([
      'Warning UnparseableSchedule unparseable schedule: "obvious error schedule" : expected exactly 5 fields, found 3: [obvious error schedule]',
    ]);
    expect(await eventsOf({ schedule: onTheHour }, justAfterTheHour())).toEqual([
      `Normal SuccessfulCreate Created job mycronjob-${Math.floor(Date.parse('2016-05-19T10:00:00Z') / 60000)}`,
    ]);
    expect(await eventsOf({ schedule: `TZ=${newYork} 0 * * * *` }, justBeforeTheHour())).toEqual([
      `Warning UnsupportedSchedule CRON_TZ or TZ used in schedule "TZ=${newYork} 0 * * * *" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    ]);
  });
});
