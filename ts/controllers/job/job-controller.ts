/**
 * The Job controller (pkg/controller/job/job_controller.go at v1.32): runs each Job's pods to
 * completion — creating them (Indexed Jobs one per completion index), tracking every pod with the
 * `batch.kubernetes.io/job-tracking` finalizer until its end is counted in the status
 * (status.uncountedTerminatedPods first, then succeeded / failed), backing off after failures,
 * and finishing the Job: Complete (after SuccessCriteriaMet) or Failed (after FailureTarget) with
 * BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy, MaxFailedIndexesExceeded,
 * FailedIndexes, CompletionsReached or SuccessPolicy. Suspended Jobs have their pods deleted; Jobs
 * whose spec.managedBy names another controller are left alone.
 *
 *   const jc = new JobController({ factory, client, clock, onError });
 *   factory.start();
 *   await jc.run();  …  await jc.stop();
 *
 * Feature gates: the defaults of 1.32 (job-util.ts JOB_FEATURE_GATES), not switchable. Pod events
 * are batched for syncJobBatchPeriod (1 s) on the injected clock, as in Kubernetes.
 *
 * Differences: no metrics; times the sync sets (startTime, conditions) are read back at whole
 * seconds (metav1.Time's precision) where Go keeps the in-memory nanoseconds until the write;
 * pods are sorted with a stable sort (Go's sort.Sort is not), so ties keep the cache's order;
 * concurrent deletes and patches are promises awaited together, their first failure (in the order
 * they failed) returned as errorFromChannel returns it.
 */
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import { parseLabelSelector, type Selector } from '../../api/labels/selector.js';
import type { OwnerReference } from '../../api/meta.js';
import { hasStatusCause, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import type { Job, JobCondition, JobStatus } from '../../api/types/batch/v1.js';
import type { Pod, PodTemplateSpec } from '../../api/types/core/v1.js';
import { type DeepReadonly, deepCopy } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { addPodControllerIndexer, filterPodsByOwner } from '../../client/informers/index-funcs.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES } from '../../client/resources.js';
import { ItemExponentialFailureRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import { filterActivePods, isPodReady, sortActivePods } from '../framework/active-pods.js';
import type { Controller } from '../framework/controller.js';
import {
  freshController,
  type GroupVersionKind,
  getControllerOf,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from '../framework/controller-ref-manager.js';
import { ControllerExpectations } from '../framework/expectations.js';
import { JOB_CONTROLLER } from '../framework/names.js';
import { type PodControlInterface, RealPodControl } from '../framework/pod-control.js';
import { SLOW_START_INITIAL_BATCH_SIZE } from '../framework/slow-start.js';
import { Registrations, Workers } from '../framework/workers.js';
import {
  type BackoffRecord,
  BackoffStore,
  DEFAULT_JOB_POD_FAILURE_BACKOFF_MS,
  getRemainingTime,
  getRemainingTimePerIndex,
  MAX_JOB_POD_FAILURE_BACKOFF_MS,
} from './backoff-utils.js';
import {
  addCompletionIndexAnnotation,
  addCompletionIndexEnvVariables,
  addCompletionIndexLabel,
  addIndexFailureCountAnnotation,
  appendDuplicatedIndexPodsForRemoval,
  calculateFailedIndexes,
  calculateSucceededIndexes,
  firstPendingIndexes,
  getCompletionIndex,
  getIndexAbsoluteFailureCount,
  getPodsWithDelayedDeletionPerIndex,
  getValidPodsWithFilter,
  hasBackoffLimitPerIndex,
  hasIndex,
  intervalsString,
  isIndexedJob,
  type OrderedIntervals,
  podGenerateNameWithIndex,
  sortByCompletionIndex,
  totalIndexes,
  UNKNOWN_COMPLETION_INDEX,
  withOrderedIndexes,
} from './indexed-job-utils.js';
import {
  countTerminatingPods,
  findConditionByType,
  isDeleting,
  isJobFinished,
  isPodFailed,
  JOB_COMPLETE,
  JOB_CONTROLLER_NAME,
  JOB_FAILED,
  JOB_FAILURE_TARGET,
  JOB_FEATURE_GATES,
  JOB_REASON_BACKOFF_LIMIT_EXCEEDED,
  JOB_REASON_COMPLETIONS_REACHED,
  JOB_REASON_DEADLINE_EXCEEDED,
  JOB_REASON_FAILED_INDEXES,
  JOB_REASON_MAX_FAILED_INDEXES_EXCEEDED,
  JOB_REASON_POD_FAILURE_POLICY,
  JOB_REASON_SUCCESS_POLICY,
  JOB_SUCCESS_CRITERIA_MET,
  JOB_SUSPENDED,
  jobSuspended,
  onlyReplaceFailedPods,
  type ReadonlyJob,
  type ReadonlyPod,
  timeMs,
} from './job-util.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import {
  DELAY_TERMINAL_CONDITION,
  hasSuccessCriteriaMetCondition,
  isSuccessCriteriaMetCondition,
  matchSuccessPolicy,
} from './success-policy.js';
import {
  appendJobCompletionFinalizerIfNotFound,
  hasJobTrackingFinalizer,
  JOB_TRACKING_FINALIZER,
  removeTrackingFinalizerPatch,
  UIDTrackingExpectations,
} from './tracking-utils.js';

// job_controller.go: the batching of pod events, the API back-off of failed syncs, the status
// representation limit and the per-sync creation / deletion limit.
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
export const DEFAULT_JOB_API_BACKOFF_MS = 1000;
export const MAX_JOB_API_BACKOFF_MS = 60_000;
export const MAX_UNCOUNTED_PODS = 500;
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
// pkg/controller/job/config/v1alpha1/defaults.go: --concurrent-job-syncs 5.
export const DEFAULT_WORKERS = 5;

/** controllerKind: batch/v1 Job. */
export const JOB_KIND: GroupVersionKind = { group: 'batch', version: 'v1', kind: 'Job' };

export interface JobControllerOptions {
  /** The shared informers: jobs and pods. */
  factory: SharedInformerFactory;
  /** The controller's own client: pods, job status, Events. */
  client: Client;
  clock?: Clock;
  /** A failed sync (utilruntime.HandleError). */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-job-syncs (default 5): workers on each of the two queues. */
  workers?: number;
  logger?: Logger;
  /** Pod writes; default RealPodControl with the controller's recorder (tests may record instead). */
  podControl?: PodControlInterface;
}

/** syncJobCtx: what one sync has found and decided so far (exported for tests). */
export interface SyncJobCtx {
  job: Job;
  pods: ReadonlyPod[];
  finishedCondition: JobCondition | undefined;
  activePods: ReadonlyPod[];
  succeeded: number;
  failed: number;
  prevSucceededIndexes: OrderedIntervals;
  succeededIndexes: OrderedIntervals;
  failedIndexes: OrderedIntervals | undefined;
  newBackoffRecord: BackoffRecord;
  expectedRmFinalizers: ReadonlySet<string> | undefined;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  podsWithDelayedDeletionPerIndex: Map<number, ReadonlyPod> | undefined;
  terminating: number;
  ready: number;
}

/** The status with its uncounted pods, as the sync keeps it. */
type TrackedStatus = JobStatus & { uncountedTerminatedPods: { succeeded?: string[]; failed?: string[] } };

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const uidOf = (o: { readonly metadata?: { readonly uid?: string } }): string => o.metadata?.uid ?? '';

/** metav1.NewControllerRef(job, controllerKind). */
function controllerRefOf(job: ReadonlyJob): OwnerReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata?.name ?? '',
    uid: job.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** managedByExternalController: spec.managedBy when it names another controller. */
export function managedByExternalController(job: ReadonlyJob): string | undefined {
  if (!JOB_FEATURE_GATES.JobManagedBy) return undefined;
  const name = job.spec?.managedBy;
  return name !== undefined && name !== JOB_CONTROLLER_NAME ? name : undefined;
}

/** newCondition: both times now; an empty reason or message is left out, as omitempty leaves it. */
export function newCondition(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
): JobCondition {
  const t = rfc3339(now);
  return {
    type,
    status,
    lastProbeTime: t,
    lastTransitionTime: t,
    ...(reason === '' ? {} : { reason }),
    ...(message === '' ? {} : { message }),
  };
}

/**
 * ensureJobConditionStatus: the condition set to `status` (replaced when its status, reason or
 * message differ), added only when not False; true when the list changed.
 */
export function ensureJobConditionStatus(
  list: JobCondition[],
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
): [JobCondition[], boolean] {
  const i = list.findIndex((c) => c.type === type);
  const existing = list[i];
  if (existing !== undefined) {
    if (existing.status !== status || (existing.reason ?? '') !== reason || (existing.message ?? '') !== message) {
      list[i] = newCondition(type, status, reason, message, now);
      return [list, true];
    }
    return [list, false];
  }
  if (status !== 'False') return [[...list, newCondition(type, status, reason, message, now)], true];
  return [list, false];
}

/** newFailedConditionForFailureTarget: Failed with the FailureTarget's reason and message. */
function newFailedConditionForFailureTarget(cond: DeepReadonly<JobCondition>, now: number): JobCondition {
  return newCondition(JOB_FAILED, 'True', cond.reason ?? '', cond.message ?? '', now);
}

/**
 * pastBackoffLimitOnFailure: with restartPolicy OnFailure the container restarts of running and
 * pending pods count as failures.
 */
export function pastBackoffLimitOnFailure(job: ReadonlyJob, pods: readonly ReadonlyPod[]): boolean {
  if (job.spec?.template.spec?.restartPolicy !== 'OnFailure') return false;
  let result = 0;
  for (const po of pods) {
    const phase = po.status?.phase;
    if (phase === 'Running' || phase === 'Pending') {
      for (const s of po.status?.initContainerStatuses ?? []) result += s.restartCount;
      for (const s of po.status?.containerStatuses ?? []) result += s.restartCount;
    }
  }
  const limit = job.spec?.backoffLimit ?? 0;
  if (limit === 0) return result > 0;
  return result >= limit;
}

/** getFailJobMessage: the message of the first failed pod matching a FailJob rule. */
export function getFailJobMessage(job: ReadonlyJob, pods: readonly ReadonlyPod[]): string | undefined {
  const policy = job.spec?.podFailurePolicy;
  if (policy === undefined) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const { message } = matchPodFailurePolicy(policy, p);
    if (message !== undefined) return message;
  }
  return undefined;
}

/** activePodsForRemoval: duplicated / out-of-range indexes first, then the ActivePods order. */
export function activePodsForRemoval(job: ReadonlyJob, pods: readonly ReadonlyPod[], rmAtLeast: number): ReadonlyPod[] {
  let rm: ReadonlyPod[] = [];
  let left: ReadonlyPod[];
  if (isIndexedJob(job)) {
    [rm, left] = appendDuplicatedIndexPodsForRemoval([], [], pods, job.spec?.completions ?? 0);
  } else {
    left = [...pods];
  }
  if (rm.length < rmAtLeast) {
    sortActivePods(left);
    rm = rm.concat(left.slice(0, rmAtLeast - rm.length));
  }
  return rm;
}

/**
 * getNewFinishedPods: the succeeded and failed pods not counted yet — still with the finalizer,
 * not in uncountedTerminatedPods, not expected to lose their finalizer.
 */
export function getNewFinishedPods(
  ctx: Pick<SyncJobCtx, 'job' | 'pods' | 'expectedRmFinalizers' | 'uncounted'>,
): [ReadonlyPod[], ReadonlyPod[]] {
  const succeeded = getValidPodsWithFilter(ctx, ctx.uncounted.succeeded, (p) => p.status?.phase === 'Succeeded');
  const failed = getValidPodsWithFilter(ctx, ctx.uncounted.failed, (p) => isPodFailed(p, ctx.job));
  return [succeeded, failed];
}

/** getPodCreationInfoForIndependentIndexes: the indexes out of back-off now, or else the shortest wait left. */
export function getPodCreationInfoForIndependentIndexes(
  now: number,
  indexesToAdd: readonly number[],
  podsWithDelayedDeletionPerIndex: ReadonlyMap<number, ReadonlyPod> | undefined,
): [number[], number] {
  const ready: number[] = [];
  let minRemaining: number | undefined;
  for (const ix of indexesToAdd) {
    const remaining = getRemainingTimePerIndex(
      now,
      DEFAULT_JOB_POD_FAILURE_BACKOFF_MS,
      MAX_JOB_POD_FAILURE_BACKOFF_MS,
      podsWithDelayedDeletionPerIndex?.get(ix),
      getIndexAbsoluteFailureCount,
    );
    if (remaining === 0) ready.push(ix);
    else if (minRemaining === undefined || remaining < minRemaining) minRemaining = remaining;
  }
  if (ready.length > 0) return [ready, 0];
  return [ready, minRemaining ?? 0];
}

/** cleanUncountedPodsWithoutFinalizers: uncounted pods whose finalizer is gone move to the counters. */
function cleanUncountedPodsWithoutFinalizers(status: TrackedStatus, uidsWithFinalizer: ReadonlySet<string>): boolean {
  let updated = false;
  const uncounted = status.uncountedTerminatedPods;
  const succeeded = (uncounted.succeeded ?? []).filter((u) => uidsWithFinalizer.has(u));
  if (succeeded.length !== (uncounted.succeeded ?? []).length) {
    updated = true;
    status.succeeded = (status.succeeded ?? 0) + (uncounted.succeeded ?? []).length - succeeded.length;
    uncounted.succeeded = succeeded;
  }
  const failed = (uncounted.failed ?? []).filter((u) => uidsWithFinalizer.has(u));
  if (failed.length !== (uncounted.failed ?? []).length) {
    updated = true;
    status.failed = (status.failed ?? 0) + (uncounted.failed ?? []).length - failed.length;
    uncounted.failed = failed;
  }
  return updated;
}

/** The status as Go marshals it: zero counters, an empty completedIndexes and empty UID lists omitted. */
function wireStatus(status: JobStatus): JobStatus {
  const out: JobStatus = { ...status };
  if (out.active === 0) delete out.active;
  if (out.succeeded === 0) delete out.succeeded;
  if (out.failed === 0) delete out.failed;
  if (out.completedIndexes === '') delete out.completedIndexes;
  if (out.conditions !== undefined && out.conditions.length === 0) delete out.conditions;
  if (out.uncountedTerminatedPods !== undefined) {
    const u = { ...out.uncountedTerminatedPods };
    if ((u.succeeded ?? []).length === 0) delete u.succeeded;
    if ((u.failed ?? []).length === 0) delete u.failed;
    out.uncountedTerminatedPods = u;
  }
  return out;
}

function mapsEqual(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => b?.[k] === a?.[k]);
}

function refsEqual(a: DeepReadonly<OwnerReference> | undefined, b: DeepReadonly<OwnerReference> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    a.controller === b.controller &&
    a.blockOwnerDeletion === b.blockOwnerDeletion
  );
}

/** orphanPodKey: one pod by name, or the pods of a selector, in a namespace (a string, for the queue). */
type OrphanPodKey = string;
const orphanByName = (namespace: string, name: string): OrphanPodKey => JSON.stringify(['name', namespace, name]);
const orphanBySelector = (namespace: string, selector: string): OrphanPodKey =>
  JSON.stringify(['selector', namespace, selector]);

export class JobController implements Controller {
  readonly name = JOB_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly defaultWorkers: number;
  readonly recorder: EventRecorder;
  private readonly podControl: PodControlInterface;
  private readonly jobs: Lister<Job>;
  private readonly pods: Lister<Pod>;
  private readonly podIndexer: { byIndex(indexName: string, value: string): DeepReadonly<Pod>[] };
  private readonly queue: WorkQueue<string>;
  private readonly orphanQueue: WorkQueue<OrphanPodKey>;
  private readonly workers: Workers<string>;
  private readonly orphanWorkers: Workers<OrphanPodKey>;
  /** A TTL cache of the pod creates and deletes each job expects to see. */
  readonly expectations: ControllerExpectations;
  /** The pod UIDs whose tracking finalizer the controller expects to see removed. */
  readonly finalizerExpectations = new UIDTrackingExpectations();
  /** The pod failure back-off records. */
  readonly podBackoffStore = new BackoffStore();
  /**
   * updateStatusHandler: the PUT of the status subresource with the status as Go marshals it,
   * answering the job written (tests inject another, as job_controller_test.go does).
   */
  updateStatusHandler: (job: Job) => Promise<Job> = (job) =>
    this.client.updateStatus(RESOURCES.jobs, job.metadata?.namespace, job);

  constructor(options: JobControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? discardLogger;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    const onError = options.onError ?? (() => {});
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: JOB_CONTROLLER });
    this.podControl = options.podControl ?? new RealPodControl(this.client, this.recorder);
    this.expectations = new ControllerExpectations({ clock: this.clock });
    this.queue = new WorkQueue<string>({
      clock: this.clock,
      rateLimiter: new ItemExponentialFailureRateLimiter(DEFAULT_JOB_API_BACKOFF_MS, MAX_JOB_API_BACKOFF_MS),
    });
    this.orphanQueue = new WorkQueue<OrphanPodKey>({
      clock: this.clock,
      rateLimiter: new ItemExponentialFailureRateLimiter(DEFAULT_JOB_API_BACKOFF_MS, MAX_JOB_API_BACKOFF_MS),
    });
    const handlers = new Registrations();
    const jobInformer = options.factory.informerFor(RESOURCES.jobs);
    const podInformer = options.factory.informerFor(RESOURCES.pods);
    this.jobs = jobInformer.lister();
    this.pods = podInformer.lister();
    // A job's pods by controller (1.33+'s PodControllerIndex), not a scan of the namespace.
    addPodControllerIndexer(podInformer);
    this.podIndexer = podInformer.getIndexer();
    handlers.add(jobInformer, {
      onAdd: (job) => this.enqueueSyncJobImmediately(job),
      onUpdate: (old, cur) => this.updateJob(old, cur),
      onDelete: (job) => {
        this.enqueueSyncJobImmediately(job);
        this.enqueueLabelSelector(job);
      },
    });
    handlers.add(podInformer, {
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, cur) => this.updatePod(old, cur),
      onDelete: (pod) => this.deletePod(pod, true),
    });
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.syncJob(key),
      onError: (err, key) => onError(new Error(`syncing job: ${errorText(err)}`, { cause: err }), key),
    });
    this.orphanWorkers = new Workers({
      queue: this.orphanQueue,
      handlers,
      sync: (key) => this.syncOrphanPod(key),
      onError: (err, key) => onError(new Error(`Error syncing orphan pod: ${errorText(err)}`, { cause: err }), key),
    });
  }

  /** Run: waits for the job and pod caches, then `workers` workers on each queue. */
  async run(workers = this.defaultWorkers): Promise<void> {
    this.logger.info('Starting job controller');
    await Promise.all([this.workers.run(workers), this.orphanWorkers.run(workers)]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.workers.stop(), this.orphanWorkers.stop()]);
    await this.recorder.flush();
    this.logger.info('Shutting down job controller');
  }

  // --- event handlers ---

  /** getPodJobs: the jobs of the pod's namespace whose selector matches its labels. */
  private getPodJobs(pod: ReadonlyPod): DeepReadonly<Job>[] {
    const labels = pod.metadata?.labels ?? {};
    if (Object.keys(labels).length === 0) return [];
    const jobs = this.jobs
      .byNamespace(pod.metadata?.namespace ?? '')
      .list()
      .filter((job) => {
        try {
          return labelSelectorAsSelector(job.spec?.selector as Parameters<typeof labelSelectorAsSelector>[0]).matches(
            labels,
          );
        } catch {
          // An invalid selector matches no pod.
          return false;
        }
      });
    if (jobs.length > 1) {
      this.logger.error(
        new Error(`user error! more than one job is selecting pods with labels: ${JSON.stringify(labels)}`),
        'getPodJobs',
      );
    }
    return jobs;
  }

  /** resolveControllerRef: the cached Job a controller reference names, if it is the same one (UID). */
  private resolveControllerRef(namespace: string, ref: DeepReadonly<OwnerReference>): DeepReadonly<Job> | undefined {
    if (ref.kind !== JOB_KIND.kind) return undefined;
    const job = this.jobs.get(namespace, ref.name);
    if (job === undefined || job.metadata?.uid !== ref.uid) return undefined;
    return job;
  }

  private addPod(pod: ReadonlyPod): void {
    if (isDeleting(pod)) {
      // A pod already being deleted (seen after a restart) is no creation observation.
      this.deletePod(pod, false);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      const job = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
      if (job === undefined) return;
      this.expectations.creationObserved(objectKey(job));
      this.enqueueSyncJobBatched(job);
      return;
    }
    // An orphan: its finalizer goes; matching jobs may adopt it.
    if (hasJobTrackingFinalizer(pod)) this.enqueueOrphanPod(pod);
    for (const job of this.getPodJobs(pod)) this.enqueueSyncJobBatched(job);
  }

  private updatePod(oldPod: ReadonlyPod, curPod: ReadonlyPod): void {
    // Periodic resyncs send updates of every pod; two versions always differ in resourceVersion.
    if (curPod.metadata?.resourceVersion === oldPod.metadata?.resourceVersion) return;
    if (isDeleting(curPod)) {
      // A graceful deletion: replacements are created now, not once the kubelet is done.
      this.deletePod(curPod, false);
      return;
    }
    // Not checking oldPod: during ownership transfers finalizers may come and go between events.
    const finalizerRemoved = !hasJobTrackingFinalizer(curPod);
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = !refsEqual(curRef, oldRef);
    const uid = uidOf(curPod);
    if (refChanged && oldRef !== undefined) {
      const job = this.resolveControllerRef(oldPod.metadata?.namespace ?? '', oldRef);
      if (job !== undefined) {
        if (finalizerRemoved) this.finalizerExpectations.finalizerRemovalObserved(objectKey(job), uid);
        this.enqueueSyncJobBatched(job);
      }
    }
    if (curRef !== undefined) {
      const job = this.resolveControllerRef(curPod.metadata?.namespace ?? '', curRef);
      if (job === undefined) return;
      if (finalizerRemoved) this.finalizerExpectations.finalizerRemovalObserved(objectKey(job), uid);
      this.enqueueSyncJobBatched(job);
      return;
    }
    if (hasJobTrackingFinalizer(curPod)) this.enqueueOrphanPod(curPod);
    const labelChanged = !mapsEqual(curPod.metadata?.labels, oldPod.metadata?.labels);
    if (labelChanged || refChanged) {
      for (const job of this.getPodJobs(curPod)) this.enqueueSyncJobBatched(job);
    }
  }

  /** deletePod: `final` for the delete event itself, false for a deletionTimestamp update. */
  private deletePod(pod: ReadonlyPod, final: boolean): void {
    const ref = getControllerOf(pod);
    const hasFinalizer = hasJobTrackingFinalizer(pod);
    if (ref === undefined) {
      // Maybe the garbage collector removed the reference: the finalizer must still go.
      if (hasFinalizer) this.enqueueOrphanPod(pod);
      return;
    }
    const job = this.resolveControllerRef(pod.metadata?.namespace ?? '', ref);
    if (job === undefined || isJobFinished(job)) {
      // syncJob will not remove this finalizer.
      if (hasFinalizer) this.enqueueOrphanPod(pod);
      return;
    }
    const key = objectKey(job);
    this.expectations.deletionObserved(key);
    if (final || !hasFinalizer) this.finalizerExpectations.finalizerRemovalObserved(key, uidOf(pod));
    this.enqueueSyncJobBatched(job);
  }

  private updateJob(oldJob: DeepReadonly<Job>, curJob: DeepReadonly<Job>): void {
    const key = objectKey(curJob);
    // A finished job should have no finalizers left on its pods: a backup cleanup.
    if (isJobFinished(curJob)) {
      this.enqueueLabelSelector(curJob);
      return;
    }
    if (curJob.metadata?.generation === oldJob.metadata?.generation) {
      // Status updates, mostly caused by pod events: batched.
      this.enqueueSyncJobBatched(curJob);
    } else {
      this.enqueueSyncJobImmediately(curJob);
    }
    // A new activeDeadlineSeconds: a sync when it passes.
    const start = timeMs(curJob.status?.startTime);
    const curADS = curJob.spec?.activeDeadlineSeconds;
    if (start === undefined || curADS === undefined) return;
    const oldADS = oldJob.spec?.activeDeadlineSeconds;
    if (oldADS === undefined || oldADS !== curADS) {
      const passed = this.clock.now() - start;
      this.queue.addAfter(key, curADS * 1000 - passed);
    }
  }

  /** enqueueLabelSelector: the pods of the job's selector, to have their finalizers removed. */
  private enqueueLabelSelector(job: DeepReadonly<Job>): void {
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(job.spec?.selector as Parameters<typeof labelSelectorAsSelector>[0]);
    } catch (err) {
      this.logger.error(
        err,
        `job ${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''} has invalid label selector`,
      );
      return;
    }
    this.orphanQueue.add(orphanBySelector(job.metadata?.namespace ?? '', selector.toString()));
  }

  /** enqueueSyncJobImmediately: job events (create, delete, spec change). */
  private enqueueSyncJobImmediately(job: DeepReadonly<Job>): void {
    this.queue.addAfter(objectKey(job), 0);
  }

  /** enqueueSyncJobBatched: pod events and job status updates, after syncJobBatchPeriod. */
  private enqueueSyncJobBatched(job: DeepReadonly<Job>): void {
    this.queue.addAfter(objectKey(job), SYNC_JOB_BATCH_PERIOD_MS);
  }

  /** enqueueSyncJobWithDelay: a pod failure back-off, never shorter than the batch period. */
  private enqueueSyncJobWithDelay(job: ReadonlyJob, delayMs: number): void {
    this.queue.addAfter(objectKey(job), Math.max(delayMs, SYNC_JOB_BATCH_PERIOD_MS));
  }

  private enqueueOrphanPod(pod: ReadonlyPod): void {
    this.orphanQueue.add(orphanByName(pod.metadata?.namespace ?? '', pod.metadata?.name ?? ''));
  }

  // --- orphan pods ---

  /** syncOrphanPod: the tracking finalizer off an orphan pod (by name, or every pod of a selector). */
  async syncOrphanPod(key: OrphanPodKey): Promise<void> {
    const [kind, namespace, value] = JSON.parse(key) as [string, string, string];
    if (kind === 'name') {
      const pod = this.pods.get(namespace, value);
      if (pod === undefined) return;
      await this.handleSingleOrphanPod(pod);
      return;
    }
    if (kind !== 'selector') throw new Error(`unknown key type: ${kind}`);
    let selector: Selector;
    try {
      selector = parseLabelSelector(value);
    } catch (err) {
      throw new Error(`invalid label selector: ${errorText(err)}`, { cause: err });
    }
    for (const pod of this.pods.byNamespace(namespace).list(selector)) {
      try {
        await this.handleSingleOrphanPod(pod);
      } catch (err) {
        this.logger.error(err, 'syncing orphan pod failed', { pod: objectKey(pod) });
      }
    }
  }

  private async handleSingleOrphanPod(pod: ReadonlyPod): Promise<void> {
    const ns = pod.metadata?.namespace ?? '';
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      if (ref.kind !== JOB_KIND.kind || ref.apiVersion !== 'batch/v1') return;
      const job = this.resolveControllerRef(ns, ref);
      if (job !== undefined && managedByExternalController(job) !== undefined) return;
      // A running job removes its pods' finalizers itself.
      if (job !== undefined && !isJobFinished(job)) return;
    }
    const patch = removeTrackingFinalizerPatch(pod);
    if (patch === undefined) return;
    try {
      await this.podControl.patchPod(ns, pod.metadata?.name ?? '', patch);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  // --- sync ---

  /**
   * getPodsForJob: the namespace's pods this job owns once orphans its selector matches are
   * adopted (with the tracking finalizer) and owned pods that stopped matching released.
   */
  private async getPodsForJob(job: Job): Promise<ReadonlyPod[]> {
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(job.spec?.selector);
    } catch (err) {
      throw new Error(`couldn't convert Job selector: ${errorText(err)}`, { cause: err });
    }
    // Its own pods and the namespace's orphans: the pods claimPods would act on.
    const all = filterPodsByOwner(this.podIndexer, job.metadata, JOB_KIND.kind, true);
    const canAdopt = recheckDeletionTimestamp(freshController(this.client, RESOURCES.jobs, job, 'Job'));
    const cm = new PodControllerRefManager(this.podControl, job, selector, JOB_KIND, canAdopt, JOB_TRACKING_FINALIZER);
    const pods: ReadonlyPod[] = await cm.claimPods(all);
    // The adopted pods got the finalizer with the adoption patch; the cached copies do not show it yet.
    return pods.map((p) => {
      const adopted = !(p.metadata?.ownerReferences ?? []).some((r) => r.uid === job.metadata?.uid);
      if (!adopted || hasJobTrackingFinalizer(p)) return p;
      const copy = deepCopy(p) as Pod;
      copy.metadata = { ...copy.metadata, finalizers: [...(copy.metadata?.finalizers ?? []), JOB_TRACKING_FINALIZER] };
      return copy;
    });
  }

  /** syncJob: reconciles the job `key` (namespace/name) with its pods; the workers call it. */
  async syncJob(key: string): Promise<void> {
    const { namespace: ns, name } = splitObjectKey(key);
    if (ns === '' || name === '') throw new Error(`invalid job key "${key}": either namespace or name is missing`);
    const sharedJob = this.jobs.get(ns, name);
    if (sharedJob === undefined) {
      this.expectations.deleteExpectations(key);
      this.finalizerExpectations.deleteExpectations(key);
      this.podBackoffStore.removeBackoffRecord(key);
      return;
    }
    // Another controller's job (spec.managedBy).
    if (managedByExternalController(sharedJob) !== undefined) return;
    // The cache is shared: work on a copy.
    const job = deepCopy(sharedJob) as Job;
    if (isJobFinished(job)) {
      this.podBackoffStore.removeBackoffRecord(key);
      return;
    }
    const mode = job.spec?.completionMode;
    if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
      this.recorder.record(
        job,
        'Warning',
        'UnknownCompletionMode',
        'Skipped Job sync because completion mode is unknown',
      );
      return;
    }
    const spec = job.spec ?? { template: {} };
    job.spec = spec;
    job.status ??= {};
    job.status.uncountedTerminatedPods ??= {};
    const status = job.status as TrackedStatus;

    // Read before the pods: a watch event that lands in between then only makes the next sync redo work.
    const satisfiedExpectations = this.expectations.satisfiedExpectations(key);
    const pods = await this.getPodsForJob(job);
    const activePods = filterActivePods(pods);
    const now = this.clock.now();
    const ctx: SyncJobCtx = {
      job,
      pods,
      finishedCondition: undefined,
      activePods,
      succeeded: 0,
      failed: 0,
      prevSucceededIndexes: [],
      succeededIndexes: [],
      failedIndexes: undefined,
      newBackoffRecord: { key, failuresAfterLastSuccess: 0, lastFailureTime: undefined },
      expectedRmFinalizers: this.finalizerExpectations.getExpectedUIDs(key),
      uncounted: {
        succeeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
        failed: new Set(status.uncountedTerminatedPods.failed ?? []),
      },
      podsWithDelayedDeletionPerIndex: undefined,
      // trackTerminatingPods: true with JobPodReplacementPolicy (or JobManagedBy) on.
      terminating: countTerminatingPods(pods),
      ready: activePods.filter(isPodReady).length,
    };
    let active = activePods.length;
    const [newSucceededPods, newFailedPods] = getNewFinishedPods(ctx);
    ctx.succeeded = (status.succeeded ?? 0) + newSucceededPods.length + ctx.uncounted.succeeded.size;
    ctx.failed = (status.failed ?? 0) + this.nonIgnoredFailedPodsCount(job, newFailedPods) + ctx.uncounted.failed.size;

    // A job that never started (or was suspended before starting) starts now.
    if (status.startTime === undefined && !jobSuspended(job)) status.startTime = rfc3339(now);

    ctx.newBackoffRecord = this.podBackoffStore.newBackoffRecord(key, newSucceededPods, newFailedPods);
    let manageJobErr: unknown;
    const exceedsBackoffLimit = ctx.failed > (spec.backoffLimit ?? 0);

    const successCriteriaMet = hasSuccessCriteriaMetCondition(job);
    ctx.finishedCondition =
      successCriteriaMet === undefined ? undefined : (deepCopy(successCriteriaMet) as JobCondition);
    if (ctx.finishedCondition === undefined) {
      const failureTarget = findConditionByType(status.conditions, JOB_FAILURE_TARGET);
      if (failureTarget !== undefined && failureTarget.status === 'True') {
        ctx.finishedCondition = newFailedConditionForFailureTarget(failureTarget, now);
      } else {
        const failJobMessage = getFailJobMessage(job, pods);
        if (failJobMessage !== undefined) {
          // Not Failed yet: the FailureTarget first, Failed once the pods are gone.
          ctx.finishedCondition = newCondition(
            JOB_FAILURE_TARGET,
            'True',
            JOB_REASON_POD_FAILURE_POLICY,
            failJobMessage,
            now,
          );
        }
      }
    }
    if (ctx.finishedCondition === undefined) {
      if (exceedsBackoffLimit || pastBackoffLimitOnFailure(job, pods)) {
        // OnFailure: the pods' restarts count too.
        ctx.finishedCondition = this.newFailureCondition(
          JOB_REASON_BACKOFF_LIMIT_EXCEEDED,
          'Job has reached the specified backoff limit',
        );
      } else if (this.pastActiveDeadline(job)) {
        ctx.finishedCondition = this.newFailureCondition(
          JOB_REASON_DEADLINE_EXCEEDED,
          'Job was active longer than specified deadline',
        );
      } else if (spec.activeDeadlineSeconds !== undefined && !jobSuspended(job)) {
        const started = timeMs(status.startTime) ?? now;
        this.queue.addAfter(key, spec.activeDeadlineSeconds * 1000 - (now - started));
      }
    }

    if (isIndexedJob(job)) {
      [ctx.prevSucceededIndexes, ctx.succeededIndexes] = calculateSucceededIndexes(job, pods);
      ctx.succeeded = totalIndexes(ctx.succeededIndexes);
      if (hasBackoffLimitPerIndex(job)) {
        ctx.failedIndexes = calculateFailedIndexes(job, pods);
        if (ctx.finishedCondition === undefined) {
          const failedCount = totalIndexes(ctx.failedIndexes);
          if (spec.maxFailedIndexes !== undefined && failedCount > spec.maxFailedIndexes) {
            ctx.finishedCondition = this.newFailureCondition(
              JOB_REASON_MAX_FAILED_INDEXES_EXCEEDED,
              'Job has exceeded the specified maximal number of failed indexes',
            );
          } else if (failedCount > 0 && failedCount + totalIndexes(ctx.succeededIndexes) >= (spec.completions ?? 0)) {
            ctx.finishedCondition = this.newFailureCondition(JOB_REASON_FAILED_INDEXES, 'Job has failed indexes');
          }
        }
        ctx.podsWithDelayedDeletionPerIndex = getPodsWithDelayedDeletionPerIndex(ctx);
      }
      if (ctx.finishedCondition === undefined) {
        const { message, met } = matchSuccessPolicy(spec.successPolicy, spec.completions ?? 0, ctx.succeededIndexes);
        if (met)
          ctx.finishedCondition = newCondition(
            JOB_SUCCESS_CRITERIA_MET,
            'True',
            JOB_REASON_SUCCESS_POLICY,
            message,
            now,
          );
      }
    }

    let suspendCondChanged = false;
    if (ctx.finishedCondition !== undefined) {
      // The job is finishing: its active pods go.
      const { deletedReady, deleted, error } = await this.deleteActivePods(job, ctx.activePods);
      // Not finished until every pod is gone and the expectations hold.
      if (deleted !== active || !satisfiedExpectations) ctx.finishedCondition = undefined;
      active -= deleted;
      ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      manageJobErr = error;
    } else {
      let manageJobCalled = false;
      if (satisfiedExpectations && !isDeleting(job)) {
        [active, manageJobErr] = await this.manageJob(job, ctx);
        manageJobCalled = true;
      }
      const complete =
        spec.completions === undefined
          ? ctx.succeeded > 0 && active === 0
          : ctx.succeeded >= spec.completions && active === 0;
      if (complete) {
        ctx.finishedCondition = this.newSuccessCondition();
      } else if (manageJobCalled) {
        // Suspended set only after manageJob has deleted the pods.
        const at = this.clock.now();
        if (spec.suspend === true) {
          let updated: boolean;
          [status.conditions, updated] = ensureJobConditionStatus(
            status.conditions ?? [],
            JOB_SUSPENDED,
            'True',
            'JobSuspended',
            'Job suspended',
            at,
          );
          if (updated) {
            suspendCondChanged = true;
            this.recorder.record(job, 'Normal', 'Suspended', 'Job suspended');
          }
        } else {
          let updated: boolean;
          [status.conditions, updated] = ensureJobConditionStatus(
            status.conditions ?? [],
            JOB_SUSPENDED,
            'False',
            'JobResumed',
            'Job resumed',
            at,
          );
          if (updated) {
            suspendCondChanged = true;
            this.recorder.record(job, 'Normal', 'Resumed', 'Job resumed');
            // The deadline counts from the resume.
            status.startTime = rfc3339(at);
          }
        }
      }
    }

    const terminating = JOB_FEATURE_GATES.JobPodReplacementPolicy ? ctx.terminating : undefined;
    let needsStatusUpdate = suspendCondChanged || active !== (status.active ?? 0) || ctx.ready !== status.ready;
    needsStatusUpdate = needsStatusUpdate || status.terminating !== terminating;
    status.active = active;
    status.ready = ctx.ready;
    if (terminating === undefined) delete status.terminating;
    else status.terminating = terminating;
    try {
      await this.trackJobStatusAndRemoveFinalizers(ctx, needsStatusUpdate);
    } catch (err) {
      throw new Error(`tracking status: ${errorText(err)}`, { cause: err });
    }
    if (manageJobErr !== undefined) throw manageJobErr;
  }

  /** newFailureCondition: FailureTarget first (delayTerminalCondition), Failed once pods are gone. */
  private newFailureCondition(reason: string, message: string): JobCondition {
    const type = DELAY_TERMINAL_CONDITION ? JOB_FAILURE_TARGET : JOB_FAILED;
    return newCondition(type, 'True', reason, message, this.clock.now());
  }

  /** newSuccessCondition: SuccessCriteriaMet first (delayTerminalCondition), CompletionsReached. */
  private newSuccessCondition(): JobCondition {
    const type = DELAY_TERMINAL_CONDITION ? JOB_SUCCESS_CRITERIA_MET : JOB_COMPLETE;
    const [reason, message] = JOB_FEATURE_GATES.JobSuccessPolicy
      ? [JOB_REASON_COMPLETIONS_REACHED, 'Reached expected number of succeeded pods']
      : ['', ''];
    return newCondition(type, 'True', reason, message, this.clock.now());
  }

  /** pastActiveDeadline: running for activeDeadlineSeconds since startTime, and not suspended. */
  private pastActiveDeadline(job: Job): boolean {
    const ads = job.spec?.activeDeadlineSeconds;
    const start = timeMs(job.status?.startTime);
    if (ads === undefined || start === undefined || jobSuspended(job)) return false;
    return this.clock.now() - start >= ads * 1000;
  }

  /** nonIgnoredFailedPodsCount: the failures an Ignore rule does not drop. */
  private nonIgnoredFailedPodsCount(job: Job, failedPods: readonly ReadonlyPod[]): number {
    const policy = job.spec?.podFailurePolicy;
    if (policy === undefined) return failedPods.length;
    return failedPods.filter((p) => matchPodFailurePolicy(policy, p).countFailed).length;
  }

  /** deleteActivePods: deletes the pods at once; a pod already gone counts as deleted. */
  private async deleteActivePods(
    job: Job,
    pods: readonly ReadonlyPod[],
  ): Promise<{ deletedReady: number; deleted: number; error: unknown }> {
    let deleted = pods.length;
    let deletedReady = 0;
    const errors: unknown[] = [];
    await Promise.all(
      pods.map(async (pod) => {
        try {
          await this.podControl.deletePod(job.metadata?.namespace ?? '', pod.metadata?.name ?? '', job);
        } catch (err) {
          if (!isNotFound(err)) {
            deleted--;
            errors.push(err);
          }
        }
        if (isPodReady(pod)) deletedReady++;
      }),
    );
    return { deletedReady, deleted, error: errors[0] };
  }

  /** deleteJobPods: the tracking finalizer removed, then the pod deleted; a failure is observed at once. */
  private async deleteJobPods(
    job: Job,
    jobKey: string,
    pods: readonly ReadonlyPod[],
  ): Promise<{ deletedReady: number; deleted: number; error: unknown }> {
    let deleted = pods.length;
    let deletedReady = 0;
    const errors: unknown[] = [];
    const failDelete = (err: unknown) => {
      this.expectations.deletionObserved(jobKey);
      if (!isNotFound(err)) {
        deleted--;
        errors.push(err);
      }
    };
    await Promise.all(
      pods.map(async (pod) => {
        const patch = removeTrackingFinalizerPatch(pod);
        if (patch !== undefined) {
          try {
            await this.podControl.patchPod(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', patch);
          } catch (err) {
            failDelete(new Error(`removing completion finalizer: ${errorText(err)}`, { cause: err }));
            return;
          }
        }
        try {
          await this.podControl.deletePod(job.metadata?.namespace ?? '', pod.metadata?.name ?? '', job);
        } catch (err) {
          failDelete(err);
        }
        if (isPodReady(pod)) deletedReady++;
      }),
    );
    return { deletedReady, deleted, error: errors[0] };
  }

  /**
   * manageJob: the number of active pods after creating or deleting pods toward
   * min(parallelism, completions − succeeded) — none while suspended — and the first error.
   */
  private async manageJob(job: Job, ctx: SyncJobCtx): Promise<[number, unknown]> {
    let active = ctx.activePods.length;
    const spec = job.spec ?? { template: {} };
    const parallelism = spec.parallelism ?? 0;
    const jobKey = objectKey(job);

    if (jobSuspended(job)) {
      const podsToDelete = activePodsForRemoval(job, ctx.activePods, active);
      this.expectations.expectDeletions(jobKey, podsToDelete.length);
      const { deletedReady, deleted, error } = await this.deleteJobPods(job, jobKey, podsToDelete);
      active -= deleted;
      ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      return [active, error];
    }

    let wantActive: number;
    if (spec.completions === undefined) {
      // A work queue: once one pod succeeded no new ones, the others run to their end.
      wantActive = ctx.succeeded > 0 ? active : parallelism;
    } else {
      wantActive = Math.max(0, Math.min(spec.completions - ctx.succeeded, parallelism));
    }
    const rmAtLeast = Math.max(0, active - wantActive);
    let podsToDelete = activePodsForRemoval(job, ctx.activePods, rmAtLeast);
    if (podsToDelete.length > MAX_POD_CREATE_DELETE_PER_SYNC)
      podsToDelete = podsToDelete.slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
    if (podsToDelete.length > 0) {
      this.expectations.expectDeletions(jobKey, podsToDelete.length);
      const { deletedReady, deleted, error } = await this.deleteJobPods(job, jobKey, podsToDelete);
      active -= deleted;
      ctx.terminating += deleted;
      ctx.ready -= deletedReady;
      return [active, error];
    }

    // podReplacementPolicy Failed: terminating pods still hold their place.
    const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
    let diff = wantActive - terminating - active;
    if (diff <= 0) return [active, undefined];

    let remaining = 0;
    if (!hasBackoffLimitPerIndex(job)) remaining = getRemainingTime(ctx.newBackoffRecord, this.clock.now());
    if (remaining > 0) {
      this.enqueueSyncJobWithDelay(job, remaining);
      return [0, undefined];
    }
    diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
    let indexesToAdd: number[] = [];
    if (isIndexedJob(job)) {
      indexesToAdd = firstPendingIndexes(ctx, diff, spec.completions ?? 0);
      if (hasBackoffLimitPerIndex(job)) {
        [indexesToAdd, remaining] = getPodCreationInfoForIndependentIndexes(
          this.clock.now(),
          indexesToAdd,
          ctx.podsWithDelayedDeletionPerIndex,
        );
        if (remaining > 0) {
          this.enqueueSyncJobWithDelay(job, remaining);
          return [0, undefined];
        }
      }
      diff = indexesToAdd.length;
    }

    this.expectations.expectCreations(jobKey, diff);
    const errors: unknown[] = [];
    active += diff;
    const podTemplate = deepCopy(spec.template) as PodTemplateSpec;
    if (isIndexedJob(job)) addCompletionIndexEnvVariables(podTemplate);
    podTemplate.metadata = {
      ...podTemplate.metadata,
      finalizers: appendJobCompletionFinalizerIfNotFound(podTemplate.metadata?.finalizers),
    };
    const ns = job.metadata?.namespace ?? '';
    const jobName = job.metadata?.name ?? '';
    // Batches of 1, 2, 4, …: a create that fails (quota, admission) stops it after few requests.
    for (
      let batchSize = Math.min(diff, SLOW_START_INITIAL_BATCH_SIZE);
      diff > 0;
      batchSize = Math.min(2 * batchSize, diff)
    ) {
      const errorCount = errors.length;
      const batch: Promise<void>[] = [];
      for (let i = 0; i < batchSize; i++) {
        const completionIndex = indexesToAdd.shift() ?? UNKNOWN_COMPLETION_INDEX;
        batch.push(
          (async () => {
            let template = podTemplate;
            let generateName = '';
            if (completionIndex !== UNKNOWN_COMPLETION_INDEX) {
              template = deepCopy(podTemplate) as PodTemplateSpec;
              addCompletionIndexAnnotation(template, completionIndex);
              if (JOB_FEATURE_GATES.PodIndexLabel) addCompletionIndexLabel(template, completionIndex);
              // The hostname only: the subdomain stays the template's (a headless Service's name).
              if (template.spec !== undefined) template.spec.hostname = `${jobName}-${completionIndex}`;
              generateName = podGenerateNameWithIndex(jobName, completionIndex);
              if (hasBackoffLimitPerIndex(job)) {
                addIndexFailureCountAnnotation(
                  template,
                  job,
                  ctx.podsWithDelayedDeletionPerIndex?.get(completionIndex),
                );
              }
            }
            try {
              await this.podControl.createPodsWithGenerateName(ns, template, job, controllerRefOf(job), generateName);
            } catch (err) {
              // The namespace is going away: the pod's absence will be noticed by the next sync.
              if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
              this.logger.error(err, 'creating pod', { job: jobKey });
              // The pod will never be observed.
              this.expectations.creationObserved(jobKey);
              active--;
              errors.push(err);
            }
          })(),
        );
      }
      await Promise.all(batch);
      // Any failure skips the rest: they are neither created nor expected.
      const skipped = diff - batchSize;
      if (errorCount < errors.length && skipped > 0) {
        active -= skipped;
        for (let i = 0; i < skipped; i++) this.expectations.creationObserved(jobKey);
        break;
      }
      diff -= batchSize;
    }
    return [active, errors[0]];
  }

  /**
   * trackJobStatusAndRemoveFinalizers: the finished pods recorded in uncountedTerminatedPods (or,
   * for Indexed Jobs, completedIndexes), written; then their finalizers removed, and once removed
   * moved to the counters; and, when nothing is left uncounted or terminating, the job finished.
   */
  async trackJobStatusAndRemoveFinalizers(ctx: SyncJobCtx, needsFlushIn: boolean): Promise<void> {
    let needsFlush = needsFlushIn;
    const isIndexed = isIndexedJob(ctx.job);
    const completions = ctx.job.spec?.completions ?? 0;
    const podsToRemoveFinalizer: ReadonlyPod[] = [];
    const status = ctx.job.status as TrackedStatus;
    const uncountedStatus = status.uncountedTerminatedPods;
    uncountedStatus.succeeded ??= [];
    uncountedStatus.failed ??= [];
    const newSucceededIndexes: number[] = [];
    if (isIndexed) ctx.pods = sortByCompletionIndex(ctx.pods);
    const uidsWithFinalizer = new Set<string>();
    for (const p of ctx.pods) {
      if (hasJobTrackingFinalizer(p) && !ctx.expectedRmFinalizers?.has(uidOf(p))) uidsWithFinalizer.add(uidOf(p));
    }
    // Pods whose finalizer went in a previous sync (the status write failed then) are counted now.
    if (cleanUncountedPodsWithoutFinalizers(status, uidsWithFinalizer)) needsFlush = true;
    let reachedMaxUncountedPods = false;
    for (const pod of ctx.pods) {
      const uid = uidOf(pod);
      // Counted already, or its removal is in flight.
      if (!hasJobTrackingFinalizer(pod) || ctx.expectedRmFinalizers?.has(uid)) continue;
      const considerPodFailed = isPodFailed(pod, ctx.job);
      if (!this.canRemoveFinalizer(ctx, pod, considerPodFailed)) continue;
      podsToRemoveFinalizer.push(pod);
      if (pod.status?.phase === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
        if (isIndexed) {
          // Indexed Jobs count completed indexes, not pods.
          const ix = getCompletionIndex(pod.metadata?.annotations);
          if (ix !== UNKNOWN_COMPLETION_INDEX && ix < completions && !hasIndex(ctx.prevSucceededIndexes, ix)) {
            newSucceededIndexes.push(ix);
            needsFlush = true;
          }
        } else if (!ctx.uncounted.succeeded.has(uid)) {
          needsFlush = true;
          uncountedStatus.succeeded.push(uid);
        }
      } else if (
        considerPodFailed ||
        (ctx.finishedCondition !== undefined && !isSuccessCriteriaMetCondition(ctx.finishedCondition))
      ) {
        // When the job fails, its remaining pods count as failed.
        const ix = getCompletionIndex(pod.metadata?.annotations);
        if (!ctx.uncounted.failed.has(uid) && (!isIndexed || (ix !== UNKNOWN_COMPLETION_INDEX && ix < completions))) {
          const policy = ctx.job.spec?.podFailurePolicy;
          if (policy === undefined || matchPodFailurePolicy(policy, pod).countFailed) {
            needsFlush = true;
            uncountedStatus.failed.push(uid);
          }
        }
      }
      if (
        newSucceededIndexes.length + uncountedStatus.succeeded.length + uncountedStatus.failed.length >=
        MAX_UNCOUNTED_PODS
      ) {
        // The status would grow too big: flush and go on in the next sync.
        reachedMaxUncountedPods = true;
        break;
      }
    }
    if (isIndexed) {
      ctx.succeededIndexes = withOrderedIndexes(ctx.succeededIndexes, newSucceededIndexes);
      const succeededIndexesStr = intervalsString(ctx.succeededIndexes);
      if (succeededIndexesStr !== (status.completedIndexes ?? '')) needsFlush = true;
      status.succeeded = totalIndexes(ctx.succeededIndexes);
      status.completedIndexes = succeededIndexesStr;
      const failedIndexesStr = ctx.failedIndexes === undefined ? undefined : intervalsString(ctx.failedIndexes);
      if (status.failedIndexes !== failedIndexesStr) {
        if (failedIndexesStr === undefined) delete status.failedIndexes;
        else status.failedIndexes = failedIndexesStr;
        needsFlush = true;
      }
    }
    if (ctx.finishedCondition !== undefined && ctx.finishedCondition.type === JOB_FAILURE_TARGET) {
      // The FailureTarget is written first; Failed waits for the pods to be gone.
      status.conditions = [...(status.conditions ?? []), ctx.finishedCondition];
      needsFlush = true;
      ctx.finishedCondition = newFailedConditionForFailureTarget(ctx.finishedCondition, this.clock.now());
    }
    if (isSuccessCriteriaMetCondition(ctx.finishedCondition)) {
      const met = ctx.finishedCondition as JobCondition;
      if (hasSuccessCriteriaMetCondition(ctx.job) === undefined) {
        status.conditions = [...(status.conditions ?? []), met];
        needsFlush = true;
      }
      // Complete with SuccessCriteriaMet's reason and message.
      ctx.finishedCondition = newCondition(JOB_COMPLETE, 'True', met.reason ?? '', met.message ?? '', this.clock.now());
    }
    needsFlush = await this.flushUncountedAndRemoveFinalizers(
      ctx,
      podsToRemoveFinalizer,
      uidsWithFinalizer,
      needsFlush,
    );
    const jobFinished = !reachedMaxUncountedPods && this.enactJobFinished(ctx);
    if (jobFinished) needsFlush = true;
    if (needsFlush) {
      try {
        ctx.job = await this.updateJobStatus(ctx.job);
      } catch (err) {
        throw new Error(`removing uncounted pods from status: ${errorText(err)}`, { cause: err });
      }
      if (jobFinished && ctx.finishedCondition !== undefined) this.recordJobFinished(ctx.job, ctx.finishedCondition);
    }
  }

  /**
   * canRemoveFinalizer: for a deleted or finishing job, a succeeded pod, or a failed one — except,
   * with backoffLimitPerIndex, the failed pod kept until its index is replaced.
   */
  private canRemoveFinalizer(ctx: SyncJobCtx, pod: ReadonlyPod, considerPodFailed: boolean): boolean {
    if (isDeleting(ctx.job) || ctx.finishedCondition !== undefined || pod.status?.phase === 'Succeeded') return true;
    if (!considerPodFailed) return false;
    if (hasBackoffLimitPerIndex(ctx.job)) {
      const index = getCompletionIndex(pod.metadata?.annotations);
      if (index !== UNKNOWN_COMPLETION_INDEX) {
        const p = ctx.podsWithDelayedDeletionPerIndex?.get(index);
        if (p !== undefined && uidOf(p) === uidOf(pod)) return false;
      }
    }
    return true;
  }

  /**
   * flushUncountedAndRemoveFinalizers: the status written (when it changed) before any finalizer
   * is removed — so no finished pod goes uncounted — then the finalizers removed; answers whether
   * the status needs writing again.
   */
  private async flushUncountedAndRemoveFinalizers(
    ctx: SyncJobCtx,
    podsToRemoveFinalizer: readonly ReadonlyPod[],
    uidsWithFinalizer: Set<string>,
    needsFlushIn: boolean,
  ): Promise<boolean> {
    let needsFlush = needsFlushIn;
    if (needsFlush) {
      try {
        ctx.job = await this.updateJobStatus(ctx.job);
      } catch (err) {
        throw new Error(`adding uncounted pods to status: ${errorText(err)}`, { cause: err });
      }
      this.podBackoffStore.updateBackoffRecord(ctx.newBackoffRecord);
      needsFlush = false;
    }
    const jobKey = objectKey(ctx.job);
    let rmErr: unknown;
    if (podsToRemoveFinalizer.length > 0) {
      const [succeeded, err] = await this.removeTrackingFinalizerFromPods(jobKey, podsToRemoveFinalizer);
      rmErr = err;
      podsToRemoveFinalizer.forEach((p, i) => {
        if (succeeded[i]) uidsWithFinalizer.delete(uidOf(p));
      });
    }
    // Failed removals are retried; the ones done are counted.
    if (cleanUncountedPodsWithoutFinalizers(ctx.job.status as TrackedStatus, uidsWithFinalizer)) needsFlush = true;
    if (rmErr !== undefined && needsFlush) {
      try {
        ctx.job = await this.updateJobStatus(ctx.job);
      } catch (err) {
        throw new Error(`removing uncounted pods from status: ${errorText(err)}`, { cause: err });
      }
    }
    if (rmErr !== undefined) throw rmErr;
    return needsFlush;
  }

  /** removeTrackingFinalizerFromPods: all at once, each expected until its update is seen. */
  private async removeTrackingFinalizerFromPods(
    jobKey: string,
    pods: readonly ReadonlyPod[],
  ): Promise<[boolean[], unknown]> {
    const succeeded = pods.map(() => false);
    this.finalizerExpectations.expectFinalizersRemoved(jobKey, pods.map(uidOf));
    const errors: unknown[] = [];
    await Promise.all(
      pods.map(async (pod, i) => {
        const patch = removeTrackingFinalizerPatch(pod);
        if (patch === undefined) return;
        try {
          await this.podControl.patchPod(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', patch);
        } catch (err) {
          // No update will come: not expected any longer.
          this.finalizerExpectations.finalizerRemovalObserved(jobKey, uidOf(pod));
          if (!isNotFound(err)) {
            errors.push(err);
            this.logger.error(err, 'removing tracking finalizer');
            return;
          }
        }
        succeeded[i] = true;
      }),
    );
    return [succeeded, errors[0]];
  }

  /**
   * enactJobFinished: the finished condition set, once no pod is uncounted or terminating;
   * completionTime for Complete.
   */
  private enactJobFinished(ctx: SyncJobCtx): boolean {
    const cond = ctx.finishedCondition;
    if (cond === undefined) return false;
    const status = ctx.job.status ?? {};
    const uncounted = status.uncountedTerminatedPods;
    if (uncounted !== undefined && (uncounted.succeeded ?? []).length + (uncounted.failed ?? []).length > 0)
      return false;
    if (DELAY_TERMINAL_CONDITION && ctx.terminating > 0) return false;
    [status.conditions] = ensureJobConditionStatus(
      status.conditions ?? [],
      cond.type,
      cond.status as 'True',
      cond.reason ?? '',
      cond.message ?? '',
      this.clock.now(),
    );
    if (cond.type === JOB_COMPLETE) status.completionTime = cond.lastTransitionTime ?? rfc3339(this.clock.now());
    ctx.job.status = status;
    return true;
  }

  /** recordJobFinished: the Completed (and TooManySucceededPods) or failure-reason Event. */
  private recordJobFinished(job: Job, cond: JobCondition): void {
    if (cond.type === JOB_COMPLETE) {
      const completions = job.spec?.completions;
      if (completions !== undefined && (job.status?.succeeded ?? 0) > completions) {
        this.recorder.record(
          job,
          'Warning',
          'TooManySucceededPods',
          'Too many succeeded pods running after completion count reached',
        );
      }
      this.recorder.record(job, 'Normal', 'Completed', 'Job completed');
    } else {
      this.recorder.record(job, 'Warning', cond.reason ?? '', cond.message ?? '');
    }
  }

  /** updateJobStatus: the status written through updateStatusHandler; the job written comes back. */
  private async updateJobStatus(job: Job): Promise<Job> {
    const out = await this.updateStatusHandler({ ...job, status: wireStatus(job.status ?? {}) });
    // Keep the sync's view complete: the uncounted lists present.
    out.status ??= {};
    out.status.uncountedTerminatedPods ??= {};
    return out;
  }
}
