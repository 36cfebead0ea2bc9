/**
 * The TTL-after-finished controller (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go
 * at v1.32): deletes a finished Job (Complete or Failed) spec.ttlSecondsAfterFinished after it
 * finished — the lastTransitionTime of that condition — with foreground propagation (its pods go
 * first) and a UID precondition, after reading the Job again uncached in case its TTL or state
 * changed. A Job not yet expired is looked at again when it expires (addAfter on the clock).
 *
 *   const ttl = new TTLAfterFinishedController({ factory, client, clock });
 *   factory.start();
 *   await ttl.run();  …  await ttl.stop();
 */
import { isNotFound } from '../../api/status.js';
import type { Job } from '../../api/types/batch/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { Controller } from '../framework/controller.js';
import { TTL_AFTER_FINISHED_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';
import { isJobFinished, JOB_COMPLETE, JOB_FAILED, timeMs } from '../job/job-util.js';

// pkg/controller/ttlafterfinished/config/v1alpha1/defaults.go: --concurrent-ttl-after-finished-syncs 5.
export const DEFAULT_WORKERS = 5;

type ReadonlyJob = DeepReadonly<Job>;

export interface TTLAfterFinishedControllerOptions {
  /** The shared informers: jobs. */
  factory: SharedInformerFactory;
  /** The controller's own client: the uncached read and the delete. */
  client: Client;
  clock?: Clock;
  /** A failed sync ("error cleaning up Job …, will retry"). */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-ttl-after-finished-syncs (default 5). */
  workers?: number;
  logger?: Logger;
}

/** needsCleanup: a TTL, and finished. */
export function needsCleanup(job: ReadonlyJob): boolean {
  return job.spec?.ttlSecondsAfterFinished !== undefined && isJobFinished(job);
}

/** jobFinishTime (ms): the lastTransitionTime of the True Complete or Failed condition. */
export function jobFinishTime(job: ReadonlyJob): number {
  const ref = `${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''}`;
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === JOB_COMPLETE || c.type === JOB_FAILED) && c.status === 'True') {
      const at = timeMs(c.lastTransitionTime);
      if (at === undefined) throw new Error(`unable to find the time when the Job ${ref} finished`);
      return at;
    }
  }
  throw new Error(`unable to find the status of the finished Job ${ref}`);
}

/** getFinishAndExpireTime (ms). */
export function getFinishAndExpireTime(job: ReadonlyJob): { finishAt: number; expireAt: number } {
  if (!needsCleanup(job)) {
    throw new Error(`job ${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''} should not be cleaned up`);
  }
  const finishAt = jobFinishTime(job);
  return { finishAt, expireAt: finishAt + (job.spec?.ttlSecondsAfterFinished ?? 0) * 1000 };
}

/** timeLeft: until expiry from `since` (ms; ≤ 0 once expired), and when it expires. */
export function timeLeft(
  job: ReadonlyJob,
  since: number,
  logger: Logger = discardLogger,
): { remaining: number; expireAt: number } {
  const { finishAt, expireAt } = getFinishAndExpireTime(job);
  if (finishAt > since) {
    logger.info(
      'Warning: Found Job finished in the future. This is likely due to time skew in the cluster. Job cleanup will be deferred.',
      { job: objectKey(job) },
    );
  }
  return { remaining: expireAt - since, expireAt };
}

export class TTLAfterFinishedController implements Controller {
  readonly name = TTL_AFTER_FINISHED_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly defaultWorkers: number;
  private readonly jobs: Lister<Job>;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;

  constructor(options: TTLAfterFinishedControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? discardLogger;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    const onError = options.onError ?? (() => {});
    this.queue = new WorkQueue<string>({
      clock: this.clock,
      rateLimiter: defaultControllerRateLimiter(this.clock),
    });
    const jobs = options.factory.informerFor(RESOURCES.jobs);
    this.jobs = jobs.lister();
    const handlers = new Registrations();
    const enqueue = (job: ReadonlyJob) => {
      if (!isBeingDeleted(job) && needsCleanup(job)) this.queue.add(objectKey(job));
    };
    handlers.add(jobs, { onAdd: enqueue, onUpdate: (_old, cur) => enqueue(cur) });
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.processJob(key),
      onError: (err, key) =>
        onError(
          new Error(`error cleaning up Job ${key}, will retry: ${err instanceof Error ? err.message : String(err)}`, {
            cause: err,
          }),
          key,
        ),
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    this.logger.info('Starting TTL after finished controller');
    await this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    this.logger.info('Shutting down TTL after finished controller');
  }

  /**
   * processJob: deletes the job `key` if its TTL has expired — checked on the cached copy, then
   * again on a fresh read, since the TTL may have been changed — or re-queues it for its expiry.
   */
  async processJob(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const job = this.jobs.get(namespace, name);
    if (job === undefined) return;
    if (!this.processTTL(job)) return;
    // The cache may be stale: the TTL may have been changed, or the job restarted.
    let fresh: Job;
    try {
      fresh = await this.client.get(RESOURCES.jobs, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!this.processTTL(fresh)) return;
    // Foreground: the pods are deleted before the job; the UID makes sure it is this job.
    await this.client.delete(RESOURCES.jobs, fresh.metadata?.namespace, fresh.metadata?.name ?? '', {
      propagationPolicy: 'Foreground',
      preconditions: { uid: fresh.metadata?.uid ?? '' },
    });
  }

  /** processTTL: true when the job has expired; a job still to expire is queued for then. */
  private processTTL(job: ReadonlyJob): boolean {
    if (isBeingDeleted(job) || !needsCleanup(job)) return false;
    const { remaining } = timeLeft(job, this.clock.now(), this.logger);
    if (remaining <= 0) return true;
    this.queue.addAfter(objectKey(job), remaining);
    return false;
  }
}

function isBeingDeleted(job: ReadonlyJob): boolean {
  const ts = job.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}
