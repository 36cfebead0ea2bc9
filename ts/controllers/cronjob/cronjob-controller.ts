/**
 * The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go at v1.32, the "v2"
 * controller): at each schedule time of a CronJob — robfig/cron's Next in spec.timeZone or a
 * TZ= prefix (ts/api/cron) — a Job from its template named `<cronjob>-<minutes since epoch>`,
 * with concurrencyPolicy Allow / Forbid / Replace, startingDeadlineSeconds, only the most recent
 * missed time started (a Warning past 100 missed), suspend, status.active / lastScheduleTime /
 * lastSuccessfulTime, and the finished Jobs past successful/failedJobsHistoryLimit deleted.
 *
 *   const cjc = new CronJobController({ factory, client, clock, onError });
 *   factory.start();
 *   await cjc.run(5);  …  await cjc.stop();
 *
 * Level-based, as Kubernetes': the Job and CronJob handlers only enqueue the CronJob's key; a sync
 * reads the listers, writes the status when it changed, and re-queues the key at the next schedule
 * time (plus nextScheduleDelta) on the injected clock — so a virtual clock drives the schedule.
 */

import { parseStandard } from '../../api/cron/parser.js';
import { isKnownTimeZone, unknownTimeZoneError } from '../../api/cron/zone.js';
import { goQuote } from '../../api/go-format.js';
import type { OwnerReference } from '../../api/meta.js';
import { hasStatusCause, isAlreadyExists, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { CronJob, Job } from '../../api/types/batch/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { Controller } from '../framework/controller.js';
import { getControllerOf } from '../framework/controller-ref-manager.js';
import { CRON_JOB_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';
import { finishedCondition, isJobFinished, isJobSucceeded, JOB_COMPLETE, JOB_FAILED, timeMs } from '../job/job-util.js';
import {
  byJobStartTime,
  type CronJobEventSink,
  deleteFromActiveList,
  formatRFC1123ZUTC,
  formatSchedule,
  getJobFromTemplate2,
  getJobName,
  inActiveList,
  inActiveListByName,
  jobReference,
  metaTime,
  nextScheduleTime,
  nextScheduleTimeDuration,
  type ReadonlyCronJob,
} from './utils.js';

// apis/batch/v1alpha1 defaults.go (CronJobControllerConfiguration): --concurrent-cron-job-syncs 5.
export const DEFAULT_WORKERS = 5;
// cronjob_controllerv2.go NewControllerV2: the Events' source component.
export const CRON_JOB_COMPONENT = 'cronjob-controller';

type ReadonlyJob = DeepReadonly<Job>;

/** injection.go jobControlInterface: the Job reads and writes of a sync (live, not cached). */
export interface JobControl {
  getJob(namespace: string, name: string): Promise<Job>;
  createJob(namespace: string, job: Job): Promise<Job>;
  /** A background-propagation delete. */
  deleteJob(namespace: string, name: string): Promise<void>;
}

/** injection.go cjControlInterface. */
export interface CronJobControl {
  updateStatus(cj: CronJob): Promise<CronJob>;
  getCronJob(namespace: string, name: string): Promise<CronJob>;
}

/** injection.go realJobControl. */
export function realJobControl(client: Client): JobControl {
  return {
    getJob: (namespace, name) => client.get(RESOURCES.jobs, namespace, name),
    createJob: (namespace, job) => client.create(RESOURCES.jobs, namespace, job),
    deleteJob: async (namespace, name) => {
      await client.delete(RESOURCES.jobs, namespace, name, { propagationPolicy: 'Background' });
    },
  };
}

/** injection.go realCJControl. */
export function realCronJobControl(client: Client): CronJobControl {
  return {
    updateStatus: (cj) => client.updateStatus(RESOURCES.cronjobs, cj.metadata?.namespace, cj),
    getCronJob: (namespace, name) => client.get(RESOURCES.cronjobs, namespace, name),
  };
}

export interface CronJobControllerOptions {
  /** The shared informers: Jobs and CronJobs. */
  factory: SharedInformerFactory;
  /** The controller's own client (its ServiceAccount): Jobs, status writes, Events. */
  client: Client;
  clock?: Clock;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-cron-job-syncs (default 5). */
  workers?: number;
  logger?: Logger;
  /** The Job writes and live reads (default on `client`; tests pass injection.go's fakes). */
  jobControl?: JobControl;
  /** The CronJob status write and live read (default on `client`). */
  cronJobControl?: CronJobControl;
  /** Where Events go (default an EventRecorder on `client`). */
  recorder?: CronJobEventSink;
}

/** What syncCronJob answers: the requeue delay, whether the status changed, the error. */
export interface SyncCronJobResult {
  requeueAfter: number | undefined;
  updateStatus: boolean;
  error: unknown;
}

export class CronJobController implements Controller {
  readonly name = CRON_JOB_CONTROLLER;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly defaultWorkers: number;
  private readonly eventRecorder: EventRecorder | undefined;
  private readonly recorder: CronJobEventSink;
  private readonly jobControl: JobControl;
  private readonly cronJobControl: CronJobControl;
  private readonly jobs: SharedIndexInformer<Job>;
  private readonly cronJobs: SharedIndexInformer<CronJob>;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;

  constructor(options: CronJobControllerOptions) {
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? discardLogger;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    if (options.recorder === undefined) {
      this.eventRecorder = new EventRecorder({
        client: options.client,
        clock: this.clock,
        component: CRON_JOB_COMPONENT,
      });
    }
    this.recorder = options.recorder ?? (this.eventRecorder as EventRecorder);
    this.jobControl = options.jobControl ?? realJobControl(options.client);
    this.cronJobControl = options.cronJobControl ?? realCronJobControl(options.client);
    this.queue = new WorkQueue<string>({ clock: this.clock, rateLimiter: defaultControllerRateLimiter(this.clock) });

    this.jobs = options.factory.informerFor(RESOURCES.jobs);
    this.cronJobs = options.factory.informerFor(RESOURCES.cronjobs);
    const handlers = new Registrations();
    handlers.add(this.jobs, {
      onAdd: (job) => this.addJob(job),
      onUpdate: (old, cur) => this.updateJob(old, cur),
      onDelete: (job) => this.deleteJob(job),
    });
    handlers.add(this.cronJobs, {
      onAdd: (cj) => this.queue.add(objectKey(cj)),
      onUpdate: (old, cur) => this.updateCronJob(old, cur),
      onDelete: (cj) => this.queue.add(objectKey(cj)),
    });
    const onError = options.onError ?? (() => {});
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: async (key) => {
        // processNextWorkItem: an error is re-added rate-limited; a requeue is added after its delay.
        const requeueAfter = await this.sync(key);
        if (requeueAfter !== undefined) this.queue.addAfter(key, requeueAfter);
      },
      onError: (err, key) =>
        onError(new Error(`error syncing CronJobController ${key}, requeuing: ${message(err)}`), key),
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    this.logger.info('Starting cronjob controller v2');
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    await this.eventRecorder?.flush();
    this.logger.info('Shutting down cronjob controller v2');
  }

  // --- event handlers: they only enqueue keys ---

  /** resolveControllerRef: the cached CronJob `ref` names, if it is one and of the same UID. */
  private resolveControllerRef(
    namespace: string,
    ref: DeepReadonly<OwnerReference>,
  ): DeepReadonly<CronJob> | undefined {
    if (ref.kind !== 'CronJob') return undefined;
    const cj = this.cronJobs.get(namespace, ref.name);
    return cj?.metadata?.uid === ref.uid ? cj : undefined;
  }

  private addJob(job: ReadonlyJob): void {
    // A controller manager restarted can meet a Job already being deleted.
    if (job.metadata?.deletionTimestamp !== undefined && job.metadata.deletionTimestamp !== null) {
      this.deleteJob(job);
      return;
    }
    const ref = getControllerOf(job);
    if (ref === undefined) return;
    const cj = this.resolveControllerRef(job.metadata?.namespace ?? '', ref);
    if (cj !== undefined) this.queue.add(objectKey(cj));
  }

  private updateJob(old: ReadonlyJob, cur: ReadonlyJob): void {
    // A resync's update, not a change.
    if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    if (JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null) && oldRef !== undefined) {
      const cj = this.resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (cj !== undefined) this.queue.add(objectKey(cj));
    }
    if (curRef !== undefined) {
      const cj = this.resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (cj !== undefined) this.queue.add(objectKey(cj));
    }
  }

  private deleteJob(job: ReadonlyJob): void {
    const ref = getControllerOf(job);
    if (ref === undefined) return;
    const cj = this.resolveControllerRef(job.metadata?.namespace ?? '', ref);
    if (cj !== undefined) this.queue.add(objectKey(cj));
  }

  /** updateCronJob: a changed schedule or zone is queued for its next schedule time. */
  private updateCronJob(old: ReadonlyCronJob, cur: ReadonlyCronJob): void {
    const key = objectKey(cur);
    if (old.spec?.schedule !== cur.spec?.schedule || (old.spec?.timeZone ?? null) !== (cur.spec?.timeZone ?? null)) {
      const sched = parseStandard(formatSchedule(cur));
      if (sched instanceof Error) {
        this.recorder.record(
          cur,
          'Warning',
          'UnParseableCronJobSchedule',
          `unparseable schedule for cronjob: ${cur.spec?.schedule ?? ''}`,
        );
        return;
      }
      this.queue.addAfter(key, nextScheduleTimeDuration(cur, this.clock.now(), sched));
      return;
    }
    this.queue.add(key);
  }

  // --- the sync ---

  /** sync: the requeue delay, or undefined; throws what should be retried rate-limited. */
  async sync(key: string): Promise<number | undefined> {
    const { namespace, name } = splitObjectKey(key);
    const cached = this.cronJobs.get(namespace, name);
    // Deleted: nothing to do (its Jobs go with the garbage collector).
    if (cached === undefined) return undefined;
    const jobs = this.getJobsToBeReconciled(cached);
    const cronJobCopy = structuredClone(cached) as CronJob;
    const updateStatusAfterCleanup = await this.cleanupFinishedJobs(cronJobCopy, jobs);
    const { requeueAfter, updateStatus, error } = await this.syncCronJob(cronJobCopy, jobs);
    if (error !== undefined) this.logger.info('Error reconciling cronjob', { cronjob: key, err: message(error) });
    if (updateStatusAfterCleanup || updateStatus) {
      try {
        await this.cronJobControl.updateStatus(cronJobCopy);
      } catch (err) {
        this.logger.info('Unable to update status for cronjob', {
          cronjob: key,
          resourceVersion: cached.metadata?.resourceVersion,
          err: message(err),
        });
        throw err;
      }
    }
    if (requeueAfter !== undefined) return requeueAfter;
    if (error !== undefined) throw error;
    return undefined;
  }

  /** getJobsToBeReconciled: the namespace's Jobs whose controller reference names the CronJob. */
  private getJobsToBeReconciled(cj: ReadonlyCronJob): ReadonlyJob[] {
    return this.jobs
      .lister()
      .byNamespace(cj.metadata?.namespace ?? '')
      .list()
      .filter((job) => getControllerOf(job)?.name === cj.metadata?.name);
  }

  /**
   * syncCronJob: reconciles status.active with the Jobs, then starts the Job of the most recent
   * unmet schedule time when the policies let it. Mutates `cronJob` (a copy) as Go does.
   */
  async syncCronJob(cronJobIn: CronJob, jobs: readonly ReadonlyJob[]): Promise<SyncCronJobResult> {
    let cronJob = cronJobIn;
    const now = this.clock.now();
    let updateStatus = false;
    const done = (requeueAfter: number | undefined, error?: unknown): SyncCronJobResult => ({
      requeueAfter,
      updateStatus,
      error,
    });

    const childrenJobs = new Set<string>();
    for (const j of jobs) {
      const uid = j.metadata?.uid ?? '';
      childrenJobs.add(uid);
      const found = inActiveList(cronJob, uid);
      if (!found && !isJobFinished(j)) {
        // Not in the cached active list: the live CronJob may have it (a status write lagging).
        let cjCopy: CronJob;
        try {
          cjCopy = await this.cronJobControl.getCronJob(
            cronJob.metadata?.namespace ?? '',
            cronJob.metadata?.name ?? '',
          );
        } catch (err) {
          return done(undefined, err);
        }
        if (inActiveList(cjCopy, uid)) {
          cronJob = cjCopy;
          continue;
        }
        this.recorder.record(
          cronJob,
          'Warning',
          'UnexpectedJob',
          `Saw a job that the controller did not create or forgot: ${j.metadata?.name ?? ''}`,
        );
        // Not adopted: we do not own it.
      } else if (isJobFinished(j)) {
        if (found) {
          const condition = finishedCondition(j) ?? '';
          deleteFromActiveList(cronJob, uid);
          this.recorder.record(
            cronJob,
            'Normal',
            'SawCompletedJob',
            `Saw completed job: ${j.metadata?.name ?? ''}, condition: ${condition}`,
          );
          updateStatus = true;
        }
        if (isJobSucceeded(j)) {
          const completion = j.status?.completionTime ?? undefined;
          cronJob.status ??= {};
          if (cronJob.status.lastSuccessfulTime === undefined || cronJob.status.lastSuccessfulTime === null) {
            if (completion !== undefined) cronJob.status.lastSuccessfulTime = completion;
            updateStatus = true;
          }
          const completionMs = timeMs(completion);
          const lastMs = timeMs(cronJob.status.lastSuccessfulTime);
          if (
            completion !== undefined &&
            completionMs !== undefined &&
            (lastMs === undefined || completionMs > lastMs)
          ) {
            cronJob.status.lastSuccessfulTime = completion;
            updateStatus = true;
          }
        }
      }
    }

    // Active Jobs the lister has not seen: gone, or only not in the cache yet.
    for (const j of [...(cronJob.status?.active ?? [])]) {
      if (childrenJobs.has(j.uid ?? '')) continue;
      try {
        await this.jobControl.getJob(j.namespace ?? '', j.name ?? '');
      } catch (err) {
        if (!isNotFound(err)) return done(undefined, err);
        this.recorder.record(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${j.name ?? ''}`);
        deleteFromActiveList(cronJob, j.uid);
        updateStatus = true;
      }
    }

    // Being deleted: the garbage collector removes its Jobs; none are started.
    if (cronJob.metadata?.deletionTimestamp !== undefined && cronJob.metadata.deletionTimestamp !== null) {
      return done(undefined);
    }

    const timeZone = cronJob.spec?.timeZone;
    if (timeZone !== undefined && timeZone !== null && !isKnownTimeZone(timeZone)) {
      this.recorder.record(
        cronJob,
        'Warning',
        'UnknownTimeZone',
        `invalid timeZone: ${goQuote(timeZone)}: ${unknownTimeZoneError(timeZone)}`,
      );
      return done(undefined);
    }

    if (cronJob.spec?.suspend === true) return done(undefined);

    const schedule = cronJob.spec?.schedule ?? '';
    const sched = parseStandard(formatSchedule(cronJob, this.recorder));
    if (sched instanceof Error) {
      // Not retried: the schedule needs fixing by the user.
      this.recorder.record(
        cronJob,
        'Warning',
        'UnparseableSchedule',
        `unparseable schedule: ${goQuote(schedule)} : ${sched.message}`,
      );
      return done(undefined);
    }

    const next = nextScheduleTime(cronJob, now, sched, this.recorder);
    if (next.error !== undefined) {
      // A schedule that parses but cannot run (`59 23 31 2 *`): not retried.
      this.recorder.record(
        cronJob,
        'Warning',
        'InvalidSchedule',
        `invalid schedule: ${schedule} : ${next.error.message}`,
      );
      return done(undefined);
    }
    const scheduledTime = next.time;
    if (scheduledTime === undefined) {
      // No unmet start time: look again at the next one.
      return done(nextScheduleTimeDuration(cronJob, now, sched));
    }

    const sds = cronJob.spec?.startingDeadlineSeconds;
    const tooLate = sds !== undefined && sds !== null && scheduledTime + sds * 1000 < now;
    if (tooLate) {
      this.recorder.record(
        cronJob,
        'Warning',
        'MissSchedule',
        `Missed scheduled time to start a job: ${formatRFC1123ZUTC(scheduledTime)}`,
      );
      return done(nextScheduleTimeDuration(cronJob, now, sched));
    }
    const lastScheduleTime = timeMs(cronJob.status?.lastScheduleTime);
    if (
      inActiveListByName(cronJob, {
        name: getJobName(cronJob, scheduledTime),
        namespace: cronJob.metadata?.namespace,
      }) ||
      lastScheduleTime === scheduledTime
    ) {
      // This scheduled time has been processed already.
      return done(nextScheduleTimeDuration(cronJob, now, sched));
    }
    if (cronJob.spec?.concurrencyPolicy === 'Forbid' && (cronJob.status?.active ?? []).length > 0) {
      // Regardless of which start time this is, it is not started while one is running.
      this.recorder.record(
        cronJob,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return done(nextScheduleTimeDuration(cronJob, now, sched));
    }
    if (cronJob.spec?.concurrencyPolicy === 'Replace') {
      for (const j of [...(cronJob.status?.active ?? [])]) {
        let job: Job;
        try {
          job = await this.jobControl.getJob(j.namespace ?? '', j.name ?? '');
        } catch (err) {
          this.recorder.record(cronJob, 'Warning', 'FailedGet', `Get job: ${message(err)}`);
          return done(undefined, err);
        }
        if (!(await this.deleteJobOf(cronJob, job))) {
          return done(
            undefined,
            new Error(`could not replace job ${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''}`),
          );
        }
        updateStatus = true;
      }
    }

    const jobReq = getJobFromTemplate2(cronJob, scheduledTime);
    if (jobReq instanceof Error) {
      this.logger.error(jobReq, 'Unable to make Job from template', { cronjob: objectKey(cronJob) });
      return done(undefined, jobReq);
    }
    const namespace = cronJob.metadata?.namespace ?? '';
    let jobResp: Job;
    let jobAlreadyExists = false;
    try {
      jobResp = await this.jobControl.createJob(namespace, jobReq);
    } catch (err) {
      // A terminating namespace refuses it: retried until the namespace is gone.
      if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return done(undefined, err);
      if (!isAlreadyExists(err)) {
        this.recorder.record(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${message(err)}`);
        return done(undefined, err);
      }
      jobAlreadyExists = true;
      let existing: Job;
      try {
        existing = await this.jobControl.getJob(namespace, jobReq.metadata?.name ?? '');
      } catch (getErr) {
        return done(undefined, getErr);
      }
      jobResp = existing;
      // Someone else's Job of that name: not ours to track.
      if (getControllerOf(existing)?.uid !== cronJob.metadata?.uid) return done(undefined);
      // Ours, already tracked: nothing to add.
      if (inActiveList(cronJob, existing.metadata?.uid)) return done(undefined);
    }
    if (jobAlreadyExists) {
      this.logger.info('Job already exists', {
        cronjob: objectKey(cronJob),
        job: `${namespace}/${jobReq.metadata?.name}`,
      });
    } else {
      this.recorder.record(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${jobResp.metadata?.name ?? ''}`);
    }

    // The Job is in the active list and lastScheduleTime is set even if the status write then
    // fails: the deterministic name keeps a retry from starting it twice.
    cronJob.status ??= {};
    cronJob.status.active = [...(cronJob.status.active ?? []), jobReference(jobResp)];
    cronJob.status.lastScheduleTime = metaTime(scheduledTime);
    updateStatus = true;
    return done(nextScheduleTimeDuration(cronJob, now, sched));
  }

  /** cleanupFinishedJobs: the oldest finished Jobs past each history limit deleted. */
  private async cleanupFinishedJobs(cj: CronJob, js: readonly ReadonlyJob[]): Promise<boolean> {
    const failedLimit = cj.spec?.failedJobsHistoryLimit;
    const successfulLimit = cj.spec?.successfulJobsHistoryLimit;
    const hasFailedLimit = failedLimit !== undefined && failedLimit !== null;
    const hasSuccessfulLimit = successfulLimit !== undefined && successfulLimit !== null;
    if (!hasFailedLimit && !hasSuccessfulLimit) return false;
    let updateStatus = false;
    const failedJobs: ReadonlyJob[] = [];
    const successfulJobs: ReadonlyJob[] = [];
    for (const job of js) {
      const finished = finishedCondition(job);
      if (finished === JOB_COMPLETE) successfulJobs.push(job);
      else if (finished === JOB_FAILED) failedJobs.push(job);
    }
    if (hasSuccessfulLimit && (await this.removeOldestJobs(cj, successfulJobs, successfulLimit))) updateStatus = true;
    if (hasFailedLimit && (await this.removeOldestJobs(cj, failedJobs, failedLimit))) updateStatus = true;
    return updateStatus;
  }

  /** removeOldestJobs: by start time (unstarted last, then name), the first len - maxJobs deleted. */
  private async removeOldestJobs(cj: CronJob, js: ReadonlyJob[], maxJobs: number): Promise<boolean> {
    let updateStatus = false;
    const numToDelete = js.length - maxJobs;
    if (numToDelete <= 0) return false;
    const sorted = [...js].sort(byJobStartTime);
    for (let i = 0; i < numToDelete; i++) {
      if (await this.deleteJobOf(cj, sorted[i] as ReadonlyJob)) updateStatus = true;
    }
    return updateStatus;
  }

  /** deleteJob: deleted, dropped from status.active, SuccessfulDelete; FailedDelete and false on failure. */
  private async deleteJobOf(cj: CronJob, job: ReadonlyJob): Promise<boolean> {
    try {
      await this.jobControl.deleteJob(job.metadata?.namespace ?? '', job.metadata?.name ?? '');
    } catch (err) {
      this.recorder.record(cj, 'Warning', 'FailedDelete', `Deleted job: ${message(err)}`);
      this.logger.error(err, 'Error deleting job from cronjob', {
        job: `${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''}`,
        cronjob: objectKey(cj),
      });
      return false;
    }
    deleteFromActiveList(cj, job.metadata?.uid);
    this.recorder.record(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name ?? ''}`);
    return true;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
