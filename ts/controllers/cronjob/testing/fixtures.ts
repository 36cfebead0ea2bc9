/**
 * What the CronJob controller's tests share (cronjob_controllerv2_test.go's helpers and
 * injection.go's fakes): the test's times and schedules, cronJob(), fakeJobControl,
 * fakeCJControl, record.FakeRecorder, and a controller on them with `now` fixed.
 *
 *   const jc = new FakeJobControl(job);
 *   const jm = fakeController(justAfterTheHour(), jc, new FakeCronJobControl(cj), new FakeRecorder());
 *   const { requeueAfter } = await jm.syncCronJob(structuredClone(cj), [job]);
 */
import { newNotFound, StatusError } from '../../../api/status.js';
import type { CronJob, Job } from '../../../api/types/batch/v1.js';
import type { DeepReadonly } from '../../../api/types/readonly.js';
import type { Client } from '../../../client/client.js';
import type { EventType } from '../../../client/event-recorder.js';
import { SharedInformerFactory } from '../../../client/informers/factory.js';
import type { Clock } from '../../../sim/clock.js';
import { type CronJobControl, CronJobController, type JobControl } from '../cronjob-controller.js';
import type { CronJobEventSink } from '../utils.js';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;

// cronjob_controllerv2_test.go's deadlines and schedules.
export const shortDead = 10;
export const mediumDead = 2 * 60 * 60;
export const longDead = 1000000;
export const noDead = -12345;
export const errorSchedule = 'obvious error schedule';
export const onTheHour = '0 * * * ?';
export const everyHour = '@every 1h';
export const errorTimeZone = 'bad timezone';
export const newYork = 'America/New_York';

const at = (s: string): number => Date.parse(s);
export const justASecondBeforeTheHour = (): number => at('2016-05-19T09:59:59Z');
export const justAfterThePriorHour = (): number => at('2016-05-19T09:01:00Z');
export const justBeforeThePriorHour = (): number => at('2016-05-19T08:59:00Z');
export const justAfterTheHour = (): number => at('2016-05-19T10:01:00Z');
// time.ParseInLocation of a `Z` time: the same instant.
export const justAfterTheHourInZone = (_tz: string): number => at('2016-05-19T10:01:00Z');
export const justBeforeTheHour = (): number => at('2016-05-19T09:59:00Z');
export const justBeforeTheNextHour = (): number => at('2016-05-19T10:59:00Z');
export const weekAfterTheHour = (): number => at('2016-05-26T10:00:00Z');
export const topOfTheHour = (): number => at('2016-05-19T10:00:00Z');

/** An in-memory metav1.Time: Go's tests keep sub-second parts the wire would drop. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** cronJob(): the test's CronJob. */
export function cronJob(): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: 'mycronjob',
      namespace: 'snazzycats',
      uid: '1a2b3c',
      creationTimestamp: iso(justBeforeTheHour()),
    },
    spec: {
      schedule: '* * * * ?',
      concurrencyPolicy: 'Allow',
      jobTemplate: {
        metadata: { labels: { a: 'b' }, annotations: { x: 'y' } },
        spec: {
          parallelism: 1,
          completions: 1,
          template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: '', image: 'foo/bar' }] } },
        },
      },
    },
  };
}

export function namespaceTerminatingError(): StatusError {
  return new StatusError({
    details: {
      causes: [
        {
          reason: 'NamespaceTerminating',
          message: 'namespace default is being terminated',
          field: 'metadata.namespace',
        },
      ],
    },
  });
}

/** injection.go fakeJobControl. */
export class FakeJobControl implements JobControl {
  jobs: Job[] = [];
  deleteJobName: string[] = [];
  constructor(
    public job: Job | undefined,
    public createErr?: unknown,
    public err?: unknown,
  ) {}
  async createJob(namespace: string, job: Job): Promise<Job> {
    if (this.createErr !== undefined) throw this.createErr;
    this.jobs.push(structuredClone(job));
    job.metadata ??= {};
    job.metadata.uid = 'test-uid';
    job.metadata.namespace = namespace;
    return job;
  }
  async getJob(): Promise<Job> {
    if (this.err !== undefined) throw this.err;
    if (this.job === undefined) throw new Error('fakeJobControl: no job');
    return this.job;
  }
  async deleteJob(_namespace: string, name: string): Promise<void> {
    if (this.err !== undefined) throw this.err;
    this.deleteJobName.push(name);
  }
}

/** injection.go fakeCJControl. */
export class FakeCronJobControl implements CronJobControl {
  updates: CronJob[] = [];
  constructor(public cronJob: CronJob) {}
  async getCronJob(namespace: string, name: string): Promise<CronJob> {
    if (name === this.cronJob.metadata?.name && namespace === this.cronJob.metadata?.namespace) return this.cronJob;
    throw newNotFound({ group: 'v1beta1', resource: 'cronjobs' }, name);
  }
  async updateStatus(cj: CronJob): Promise<CronJob> {
    this.updates.push(structuredClone(cj));
    return cj;
  }
}

/** record.FakeRecorder: `<type> <reason> <message>` per Event. */
export class FakeRecorder implements CronJobEventSink {
  events: string[] = [];
  record(_obj: DeepReadonly<CronJob>, type: EventType, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }
}

export const fixedClock = (now: number): Clock => ({ now: () => now, setTimer: () => () => {} });

/** A controller on fakes: its factory is never started (syncCronJob reads no lister). */
export function fakeController(
  now: number,
  jobControl: JobControl,
  cronJobControl: CronJobControl,
  recorder: CronJobEventSink,
): CronJobController {
  const client = {} as Client;
  return new CronJobController({
    factory: new SharedInformerFactory(client),
    client,
    clock: fixedClock(now),
    jobControl,
    cronJobControl,
    recorder,
  });
}
