/**
 * The CronJob controller against the in-process apiserver, its schedule driven by the virtual
 * clock: kubernetes.io's "Running Automated Tasks with a CronJob" hello CronJob (`* /1 * * * *`)
 * starting a Job each minute, the Job's name, annotation and ControllerRef, status.active and
 * lastScheduleTime, SawCompletedJob and lastSuccessfulTime, the history limit, Forbid, Replace,
 * suspend, startingDeadlineSeconds.
 */
import { describe, expect, it } from 'vitest';
import type { CronJob, CronJobSpec, Job } from '../../api/types/batch/v1.js';
import type { Event } from '../../api/types/core/v1.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { CronJobController } from './cronjob-controller.js';
import { CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION, metaTime } from './utils.js';

const runs = controllerRuns();
const MINUTE = 60_000;

/** The page's hello CronJob. */
function hello(spec: Partial<CronJobSpec> = {}): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello' },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: {
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'hello',
                  image: 'busybox:1.28',
                  imagePullPolicy: 'IfNotPresent',
                  command: ['/bin/sh', '-c', 'date; echo Hello from the Kubernetes cluster'],
                },
              ],
              restartPolicy: 'OnFailure',
            },
          },
        },
      },
      ...spec,
    },
  };
}

async function start(h: Harness): Promise<CronJobController> {
  return runs.start(h, (factory) => new CronJobController({ factory, client: h.client, clock: h.server.clock }));
}

const jobsOf = async (h: Harness): Promise<Job[]> =>
  (await h.client.list(RESOURCES.jobs, { namespace: 'default' })).items.sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
const cronJobOf = (h: Harness): Promise<CronJob> => h.client.get(RESOURCES.cronjobs, 'default', 'hello');
const reasons = async (h: Harness): Promise<string[]> =>
  ((await h.client.list(RESOURCES.events, { namespace: 'default' })).items as Event[])
    .filter((e) => e.involvedObject.kind === 'CronJob')
    .map((e) => e.reason ?? '');
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

/**
 * Moves the clock to `ms` past the next whole minute, once the syncs under way have queued their
 * requeue (a sync reads the clock when it starts and adds its key after that much time).
 */
async function toNextMinute(h: Harness, ms = 500): Promise<number> {
  await settle();
  const now = h.server.clock.now();
  const next = Math.floor(now / MINUTE) * MINUTE + MINUTE;
  h.server.clock.advance(next - now + ms);
  return next;
}

async function complete(h: Harness, job: Job, type: 'Complete' | 'Failed' = 'Complete'): Promise<void> {
  const at = metaTime(h.server.clock.now());
  const conditions =
    type === 'Complete'
      ? [
          { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: at, lastProbeTime: at },
          { type: 'Complete', status: 'True', lastTransitionTime: at, lastProbeTime: at },
        ]
      : [
          { type: 'FailureTarget', status: 'True', lastTransitionTime: at, lastProbeTime: at },
          { type: 'Failed', status: 'True', lastTransitionTime: at, lastProbeTime: at },
        ];
  await h.client.updateStatus(RESOURCES.jobs, 'default', {
    ...job,
    status: {
      ...(type === 'Complete' ? { succeeded: 1, completionTime: at } : { failed: 1 }),
      startTime: at,
      conditions,
    },
  });
}

describe('CronJobController', () => {
  it('starts the hello Job each minute, tracks it in status, and sees it complete', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.cronjobs, 'default', hello());
    await start(h);
    await settle();
    expect(await jobsOf(h)).toEqual([]);

    const first = await toNextMinute(h);
    await waitFor(async () => (await jobsOf(h)).length === 1);
    const [job] = await jobsOf(h);
    const cj = await cronJobOf(h);
    expect(job?.metadata?.name).toBe(`hello-${first / MINUTE}`);
    expect(job?.metadata?.annotations?.[CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION]).toBe(metaTime(first));
    expect(job?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        name: 'hello',
        uid: cj.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(job?.spec?.template.spec?.containers[0]?.image).toBe('busybox:1.28');
    await waitFor(async () => (await cronJobOf(h)).status?.active?.length === 1);
    const status = (await cronJobOf(h)).status;
    expect(status?.lastScheduleTime).toBe(metaTime(first));
    expect(status?.active?.[0]).toMatchObject({
      kind: 'Job',
      apiVersion: 'batch/v1',
      name: job?.metadata?.name,
      namespace: 'default',
      uid: job?.metadata?.uid,
    });

    await complete(h, job as Job);
    await waitFor(async () => ((await cronJobOf(h)).status?.active ?? []).length === 0);
    expect((await cronJobOf(h)).status?.lastSuccessfulTime).toBeDefined();

    const second = await toNextMinute(h);
    await waitFor(async () => (await jobsOf(h)).length === 2);
    expect((await jobsOf(h)).map((j) => j.metadata?.name)).toEqual([
      `hello-${first / MINUTE}`,
      `hello-${second / MINUTE}`,
    ]);
    await waitFor(async () => (await reasons(h)).filter((r) => r === 'SuccessfulCreate').length === 2);
    expect(await reasons(h)).toContain('SawCompletedJob');
  });

  it('keeps successfulJobsHistoryLimit finished Jobs, deleting the oldest', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.cronjobs, 'default', hello({ successfulJobsHistoryLimit: 1 }));
    await start(h);
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const at = await toNextMinute(h);
      names.push(`hello-${at / MINUTE}`);
      await waitFor(async () => (await jobsOf(h)).some((j) => j.metadata?.name === names[i]));
      const job = (await jobsOf(h)).find((j) => j.metadata?.name === names[i]) as Job;
      await complete(h, job);
      await waitFor(async () => ((await cronJobOf(h)).status?.active ?? []).length === 0);
    }
    // The cleanup runs at the start of a sync: the next one deletes all but the newest.
    await toNextMinute(h);
    await waitFor(async () => (await reasons(h)).filter((r) => r === 'SuccessfulDelete').length === 2);
    const left = (await jobsOf(h))
      .filter((j) => j.metadata?.deletionTimestamp === undefined)
      .map((j) => j.metadata?.name);
    expect(left).not.toContain(names[0]);
    expect(left).not.toContain(names[1]);
    expect(left).toContain(names[2]);
  });

  it('Forbid skips a start while one runs; Replace deletes the running one', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.cronjobs, 'default', hello({ concurrencyPolicy: 'Forbid' }));
    await start(h);
    await toNextMinute(h);
    await waitFor(async () => (await jobsOf(h)).length === 1);
    await waitFor(async () => (await cronJobOf(h)).status?.active?.length === 1);
    await toNextMinute(h);
    await waitFor(async () => (await reasons(h)).includes('JobAlreadyActive'));
    expect(await jobsOf(h)).toHaveLength(1);

    const cj = await cronJobOf(h);
    await h.client.update(RESOURCES.cronjobs, 'default', {
      ...cj,
      spec: { ...(cj.spec as CronJobSpec), concurrencyPolicy: 'Replace' },
    });
    const third = await toNextMinute(h);
    await waitFor(async () => (await reasons(h)).includes('SuccessfulDelete'));
    await waitFor(async () => (await cronJobOf(h)).status?.active?.[0]?.name === `hello-${third / MINUTE}`);
    expect((await cronJobOf(h)).status?.active).toHaveLength(1);
  });

  it('suspend starts nothing; a start further back than startingDeadlineSeconds is not made up for', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.cronjobs, 'default', hello({ suspend: true }));
    await start(h);
    await toNextMinute(h);
    await settle();
    h.server.clock.advance(5 * MINUTE);
    await settle();
    expect(await jobsOf(h)).toEqual([]);

    await runs.stop();
    const cj = await cronJobOf(h);
    await h.client.update(RESOURCES.cronjobs, 'default', {
      ...cj,
      spec: { ...(cj.spec as CronJobSpec), suspend: false, startingDeadlineSeconds: 10, schedule: '0 * * * *' },
    });
    // The controller comes back 30 s after the hour: the deadline (10 s) moves the earliest time
    // it looks from past the hour, so it is not started — and the next hour's is.
    const now = h.server.clock.now();
    const hour = Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000;
    h.server.clock.advance(hour - now + 30_000);
    await start(h);
    await settle();
    expect(await jobsOf(h)).toEqual([]);
    await settle();
    // To a second past the next hour: within the deadline.
    h.server.clock.advance(3_600_000 - 29_000);
    await waitFor(async () => (await jobsOf(h)).length === 1);
    expect((await jobsOf(h))[0]?.metadata?.name).toBe(`hello-${(hour + 3_600_000) / MINUTE}`);
  });
});
