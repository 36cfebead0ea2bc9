import { afterEach, describe, expect, it } from 'vitest';
import type { Job, JobCondition, PodFailurePolicy } from '../../api/types/batch/v1.js';
import type { ContainerStatus, Event, Pod, PodPhase } from '../../api/types/core/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import type { PodControlInterface } from '../framework/pod-control.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { JOB_COMPLETION_INDEX_ANNOTATION, JOB_INDEX_FAILURE_COUNT_ANNOTATION } from './indexed-job-utils.js';
import {
  ensureJobConditionStatus,
  getFailJobMessage,
  getNewFinishedPods,
  getPodCreationInfoForIndependentIndexes,
  JobController,
  type JobControllerOptions,
  MAX_POD_CREATE_DELETE_PER_SYNC,
  MAX_UNCOUNTED_PODS,
  newCondition,
  pastBackoffLimitOnFailure,
} from './job-controller.js';
import { JOB_TRACKING_FINALIZER } from './tracking-utils.js';

const NS = 'default';
const JOB = 'foobar';
const KEY = `${NS}/${JOB}`;
// A finish time long before the test server's clock (2025-01-01): no back-off left from it.
const FINISHED_AT = '2024-01-01T00:00:00Z';

type Obj = Record<string, unknown>;
type Cond = Pick<JobCondition, 'type' | 'status'> & Partial<Pick<JobCondition, 'reason' | 'message'>>;

/** A controller on its own factory, caches synced, with no workers: tests call syncJob themselves. */
const stopping: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stopping.splice(0)) await stop();
});
async function syncOnly(h: Harness, options: Partial<JobControllerOptions> = {}): Promise<JobController> {
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const jc = new JobController({ factory, client: h.client, clock: h.server.clock, ...options });
  factory.start();
  await jc.run(0);
  stopping.push(async () => {
    await jc.stop();
    await factory.shutdown();
  });
  return jc;
}

interface JobSetup {
  parallelism: number;
  /** Negative: none (a work queue). */
  completions: number;
  backoffLimit?: number;
  completionMode?: 'Indexed' | 'NonIndexed';
  suspend?: boolean;
  podReplacementPolicy?: 'Failed' | 'TerminatingOrFailed';
  podFailurePolicy?: PodFailurePolicy;
  activeDeadlineSeconds?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  template?: Obj;
  managedBy?: string;
}

async function createJob(h: Harness, s: JobSetup, name = JOB): Promise<Job> {
  return h.client.create(RESOURCES.jobs, NS, {
    metadata: { name },
    spec: {
      parallelism: s.parallelism,
      ...(s.completions >= 0 ? { completions: s.completions } : {}),
      ...(s.backoffLimit === undefined ? {} : { backoffLimit: s.backoffLimit }),
      completionMode: s.completionMode ?? 'NonIndexed',
      suspend: s.suspend ?? false,
      ...(s.podReplacementPolicy === undefined ? {} : { podReplacementPolicy: s.podReplacementPolicy }),
      ...(s.podFailurePolicy === undefined ? {} : { podFailurePolicy: s.podFailurePolicy }),
      ...(s.activeDeadlineSeconds === undefined ? {} : { activeDeadlineSeconds: s.activeDeadlineSeconds }),
      ...(s.backoffLimitPerIndex === undefined ? {} : { backoffLimitPerIndex: s.backoffLimitPerIndex }),
      ...(s.maxFailedIndexes === undefined ? {} : { maxFailedIndexes: s.maxFailedIndexes }),
      ...(s.managedBy === undefined ? {} : { managedBy: s.managedBy }),
      template: s.template ?? {
        metadata: { labels: { foo: 'bar' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
      },
    },
  } as Job);
}

const terminatedStatus = (exitCode = 0): ContainerStatus => ({
  name: 'c',
  image: 'foo/bar',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode, finishedAt: FINISHED_AT } },
});

interface PodSetup {
  phase: PodPhase;
  index?: string;
  ready?: boolean;
  terminating?: boolean;
  exitCode?: number;
  conditions?: Array<{ type: string; status: 'True' | 'False' }>;
  annotations?: Record<string, string>;
  finalizer?: boolean;
}

let podSeq = 0;
/** A pod of `job` (its template's labels, its controller reference, the tracking finalizer), in `phase`. */
async function createPod(h: Harness, job: Job, p: PodSetup): Promise<Pod> {
  const annotations = {
    ...(p.annotations ?? {}),
    ...(p.index === undefined ? {} : { [JOB_COMPLETION_INDEX_ANNOTATION]: p.index }),
  };
  const pod = await h.client.create(RESOURCES.pods, NS, {
    metadata: {
      name: `pod-${podSeq++}`,
      labels: { ...(job.spec?.template.metadata?.labels ?? {}) },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(p.finalizer === false ? {} : { finalizers: [JOB_TRACKING_FINALIZER] }),
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: job.metadata?.name ?? '',
          uid: job.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
  } as Pod);
  const terminal = p.phase === 'Succeeded' || p.phase === 'Failed';
  const status: Pod['status'] = {
    phase: p.phase,
    ...(terminal ? { containerStatuses: [terminatedStatus(p.exitCode ?? (p.phase === 'Failed' ? 1 : 0))] } : {}),
    conditions: [...(p.ready ? [{ type: 'Ready', status: 'True' as const }] : []), ...(p.conditions ?? [])],
  };
  let written = await h.client.updateStatus(RESOURCES.pods, NS, { ...pod, status });
  if (p.terminating) {
    await h.client.delete(RESOURCES.pods, NS, pod.metadata?.name ?? '');
    written = await h.client.get(RESOURCES.pods, NS, pod.metadata?.name ?? '');
  }
  return written;
}

const getJob = (h: Harness, name = JOB): Promise<Job> => h.client.get(RESOURCES.jobs, NS, name);
const listPods = async (h: Harness): Promise<Pod[]> => (await h.client.list(RESOURCES.pods, { namespace: NS })).items;
const events = async (h: Harness, jc?: JobController): Promise<Event[]> => {
  await jc?.recorder.flush();
  return (await h.client.list(RESOURCES.events, { namespace: NS })).items as Event[];
};
const reasons = async (h: Harness, jc?: JobController): Promise<string[]> =>
  (await events(h, jc)).map((e) => e.reason ?? '');
const conds = (job: Job): Cond[] =>
  (job.status?.conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status,
    ...(c.reason === undefined ? {} : { reason: c.reason }),
    ...(c.message === undefined ? {} : { message: c.message }),
  }));
const isDeletingPod = (p: Pod) => p.metadata?.deletionTimestamp !== undefined && p.metadata?.deletionTimestamp !== null;

interface SyncCase extends JobSetup {
  name: string;
  pendingPods?: number;
  activePods?: number;
  readyPods?: number;
  succeededPods?: number;
  failedPods?: number;
  terminatingPods?: number;
  podsWithIndexes?: Array<[string, PodPhase]>;
  wasSuspended?: boolean;
  /** The job has a deletionTimestamp (held by a finalizer of the test). */
  deleting?: boolean;
  /** A back-off record in the store: failures since the last success, the last one `agoMs` before now. */
  backoffRecord?: { failures: number; agoMs: number };
  fakeExpectationAtCreation?: number;
  initialStatus?: {
    active?: number;
    succeeded?: number;
    failed?: number;
    conditions?: JobCondition[];
    startAgoS?: number;
  };
  expectedCreations?: number;
  expectedDeletions?: number;
  expectedActive: number;
  expectedReady?: number;
  expectedSucceeded?: number;
  expectedFailed?: number;
  expectedTerminating?: number;
  expectedCompletedIdxs?: string;
  expectedConditions?: Cond[];
  expectedCreatedIndexes?: number[];
}

// TestControllerSyncJob's cases, with 1.32's feature defaults: the terminal conditions come
// after SuccessCriteriaMet / FailureTarget, and status.terminating is always counted.
const SUCCESS: Cond[] = [
  {
    type: 'SuccessCriteriaMet',
    status: 'True',
    reason: 'CompletionsReached',
    message: 'Reached expected number of succeeded pods',
  },
  {
    type: 'Complete',
    status: 'True',
    reason: 'CompletionsReached',
    message: 'Reached expected number of succeeded pods',
  },
];
const BACKOFF_FAILED: Cond[] = [
  {
    type: 'FailureTarget',
    status: 'True',
    reason: 'BackoffLimitExceeded',
    message: 'Job has reached the specified backoff limit',
  },
  {
    type: 'Failed',
    status: 'True',
    reason: 'BackoffLimitExceeded',
    message: 'Job has reached the specified backoff limit',
  },
];
const SYNC_CASES: SyncCase[] = [
  {
    name: 'job start',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    expectedCreations: 2,
    expectedActive: 2,
    expectedReady: 0,
  },
  {
    name: 'WQ job start',
    parallelism: 2,
    completions: -1,
    backoffLimit: 6,
    expectedCreations: 2,
    expectedActive: 2,
    expectedReady: 0,
  },
  {
    name: 'pending pods',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    pendingPods: 2,
    expectedActive: 2,
    expectedReady: 0,
  },
  {
    name: 'correct # of pods',
    parallelism: 3,
    completions: 5,
    backoffLimit: 6,
    activePods: 3,
    readyPods: 2,
    expectedActive: 3,
    expectedReady: 2,
  },
  {
    name: 'too few active pods',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 1,
    succeededPods: 1,
    expectedCreations: 1,
    expectedActive: 2,
    expectedSucceeded: 1,
    expectedReady: 0,
  },
  {
    name: 'WQ job: recreate pods when failed',
    parallelism: 1,
    completions: -1,
    backoffLimit: 6,
    activePods: 1,
    failedPods: 1,
    podReplacementPolicy: 'Failed',
    terminatingPods: 1,
    expectedTerminating: 1,
    expectedReady: 0,
    expectedFailed: 1,
    expectedActive: 1,
  },
  {
    name: 'WQ job: recreate pods when terminating or failed',
    parallelism: 1,
    completions: -1,
    backoffLimit: 6,
    activePods: 1,
    failedPods: 1,
    podReplacementPolicy: 'TerminatingOrFailed',
    terminatingPods: 1,
    expectedTerminating: 1,
    expectedReady: 0,
    expectedActive: 1,
    expectedFailed: 2,
  },
  {
    name: 'more terminating pods than parallelism',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    activePods: 2,
    terminatingPods: 4,
    podReplacementPolicy: 'Failed',
    expectedTerminating: 5,
    expectedReady: 0,
    expectedActive: 1,
    expectedDeletions: 1,
  },
  {
    name: 'too few active pods with a dynamic job',
    parallelism: 2,
    completions: -1,
    backoffLimit: 6,
    activePods: 1,
    expectedCreations: 1,
    expectedActive: 2,
    expectedReady: 0,
  },
  {
    name: 'too many active pods',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 3,
    expectedDeletions: 1,
    expectedActive: 2,
    expectedReady: 0,
    expectedTerminating: 1,
  },
  {
    name: 'count ready pods when too many active pods',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 3,
    readyPods: 3,
    expectedDeletions: 1,
    expectedActive: 2,
    expectedReady: 2,
  },
  {
    name: 'failed + succeed pods: reset backoff delay',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 1,
    succeededPods: 1,
    failedPods: 1,
    expectedCreations: 1,
    expectedActive: 2,
    expectedSucceeded: 1,
    expectedFailed: 1,
    expectedReady: 0,
  },
  {
    name: 'new failed pod',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 1,
    failedPods: 1,
    expectedCreations: 1,
    expectedActive: 2,
    expectedFailed: 1,
    expectedReady: 0,
  },
  {
    name: 'no new pod; possible finalizer update of failed pod',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    initialStatus: { active: 1, failed: 1 },
    activePods: 1,
    expectedCreations: 0,
    expectedActive: 1,
    expectedFailed: 1,
    expectedReady: 0,
  },
  {
    name: 'job finish',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    succeededPods: 5,
    expectedSucceeded: 5,
    expectedConditions: SUCCESS,
    expectedActive: 0,
    expectedReady: 0,
  },
  {
    name: 'WQ job finishing',
    parallelism: 2,
    completions: -1,
    backoffLimit: 6,
    activePods: 1,
    succeededPods: 1,
    expectedActive: 1,
    expectedSucceeded: 1,
    expectedReady: 0,
  },
  {
    name: 'WQ job all finished',
    parallelism: 2,
    completions: -1,
    backoffLimit: 6,
    succeededPods: 2,
    expectedSucceeded: 2,
    expectedConditions: SUCCESS,
    expectedActive: 0,
  },
  {
    name: 'WQ job all finished despite one failure',
    parallelism: 2,
    completions: -1,
    backoffLimit: 6,
    succeededPods: 1,
    failedPods: 1,
    expectedSucceeded: 1,
    expectedFailed: 1,
    expectedConditions: SUCCESS,
    expectedActive: 0,
  },
  {
    name: 'more active pods than parallelism',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 10,
    expectedDeletions: 8,
    expectedActive: 2,
    expectedReady: 0,
  },
  {
    name: 'more active pods than remaining completions',
    parallelism: 3,
    completions: 4,
    backoffLimit: 6,
    activePods: 3,
    succeededPods: 2,
    expectedDeletions: 1,
    expectedActive: 2,
    expectedSucceeded: 2,
    expectedReady: 0,
  },
  {
    name: 'status change',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    activePods: 2,
    succeededPods: 2,
    expectedActive: 2,
    expectedSucceeded: 2,
    expectedReady: 0,
  },
  {
    name: 'too many job failures',
    parallelism: 2,
    completions: 5,
    backoffLimit: 0,
    failedPods: 1,
    expectedFailed: 1,
    expectedConditions: BACKOFF_FAILED,
    expectedActive: 0,
    expectedReady: 0,
  },
  {
    name: 'job failures, unsatisfied expectations',
    parallelism: 2,
    completions: 5,
    backoffLimit: 0,
    failedPods: 1,
    fakeExpectationAtCreation: 1,
    expectedFailed: 1,
    expectedActive: 0,
    expectedReady: 0,
  },
  {
    name: 'indexed job start',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    completionMode: 'Indexed',
    expectedCreations: 2,
    expectedActive: 2,
    expectedCreatedIndexes: [0, 1],
    expectedReady: 0,
  },
  {
    name: 'indexed job completed',
    parallelism: 2,
    completions: 3,
    backoffLimit: 6,
    completionMode: 'Indexed',
    podsWithIndexes: [
      ['0', 'Succeeded'],
      ['1', 'Failed'],
      ['1', 'Succeeded'],
      ['2', 'Succeeded'],
    ],
    expectedSucceeded: 3,
    expectedFailed: 1,
    expectedCompletedIdxs: '0-2',
    expectedConditions: SUCCESS,
    expectedActive: 0,
    expectedReady: 0,
  },
  {
    name: 'count terminating pods when indexed job fails and PodReplacementPolicy enabled',
    parallelism: 2,
    completions: 3,
    backoffLimit: 0,
    completionMode: 'Indexed',
    podsWithIndexes: [
      ['0', 'Succeeded'],
      ['1', 'Failed'],
      ['2', 'Running'],
    ],
    expectedSucceeded: 1,
    expectedFailed: 2,
    expectedCompletedIdxs: '0',
    // The running pod is deleted: Failed waits until it is gone.
    expectedConditions: BACKOFF_FAILED.slice(0, 1),
    expectedActive: 0,
    expectedTerminating: 1,
    expectedDeletions: 1,
    expectedReady: 0,
  },
  {
    name: 'indexed job repeated completed index',
    parallelism: 2,
    completions: 3,
    backoffLimit: 6,
    completionMode: 'Indexed',
    podsWithIndexes: [
      ['0', 'Succeeded'],
      ['1', 'Succeeded'],
      ['1', 'Succeeded'],
    ],
    expectedCreations: 1,
    expectedActive: 1,
    expectedSucceeded: 2,
    expectedCompletedIdxs: '0,1',
    expectedCreatedIndexes: [2],
    expectedReady: 0,
  },
  {
    name: 'indexed job some running and completed pods',
    parallelism: 8,
    completions: 20,
    backoffLimit: 6,
    completionMode: 'Indexed',
    podsWithIndexes: [
      ['0', 'Running'],
      ['2', 'Succeeded'],
      ['3', 'Pending'],
      ['4', 'Succeeded'],
      ['5', 'Succeeded'],
      ['7', 'Succeeded'],
      ['8', 'Succeeded'],
      ['9', 'Succeeded'],
    ],
    expectedCreations: 6,
    expectedActive: 8,
    expectedSucceeded: 6,
    expectedCompletedIdxs: '2,4,5,7-9',
    expectedCreatedIndexes: [1, 6, 10, 11, 12, 13],
    expectedReady: 0,
  },
  {
    name: 'indexed job some failed pods',
    parallelism: 3,
    completions: 4,
    backoffLimit: 6,
    completionMode: 'Indexed',
    podsWithIndexes: [
      ['0', 'Failed'],
      ['1', 'Pending'],
      ['2', 'Failed'],
    ],
    expectedCreations: 2,
    expectedActive: 3,
    expectedFailed: 2,
    expectedCreatedIndexes: [0, 2],
    expectedReady: 0,
  },
  {
    name: 'indexed job with indexes outside of range',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    completionMode: 'Indexed',
    podsWithIndexes: [
      ['0', 'Succeeded'],
      ['5', 'Running'],
      ['6', 'Succeeded'],
      ['7', 'Pending'],
      ['8', 'Failed'],
    ],
    expectedCreations: 0,
    expectedSucceeded: 1,
    expectedDeletions: 2,
    expectedCompletedIdxs: '0',
    expectedActive: 0,
    expectedFailed: 0,
    expectedReady: 0,
  },
  {
    name: 'suspending a job with satisfied expectations',
    suspend: true,
    parallelism: 2,
    activePods: 2,
    completions: 4,
    backoffLimit: 6,
    expectedCreations: 0,
    expectedDeletions: 2,
    expectedActive: 0,
    expectedConditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }],
    expectedReady: 0,
    expectedTerminating: 2,
  },
  {
    name: 'suspending a job with unsatisfied expectations',
    suspend: true,
    parallelism: 2,
    activePods: 3,
    fakeExpectationAtCreation: -1,
    completions: 4,
    backoffLimit: 6,
    expectedCreations: 0,
    expectedDeletions: 0,
    expectedActive: 3,
    expectedReady: 0,
    expectedTerminating: 0,
  },
  {
    name: 'resuming a suspended job',
    wasSuspended: true,
    parallelism: 2,
    completions: 4,
    backoffLimit: 6,
    expectedCreations: 2,
    expectedDeletions: 0,
    expectedActive: 2,
    expectedConditions: [{ type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' }],
    expectedReady: 0,
  },
  {
    name: 'FailureTarget=False condition added manually is ignored',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    activePods: 1,
    readyPods: 1,
    initialStatus: {
      active: 1,
      conditions: [{ type: 'FailureTarget', status: 'False', reason: 'ConditionAddedManually', message: 'Testing' }],
    },
    expectedActive: 1,
    expectedReady: 1,
    expectedConditions: [
      { type: 'FailureTarget', status: 'False', reason: 'ConditionAddedManually', message: 'Testing' },
    ],
  },
  {
    name: 'SuccessCriteriaMet=False condition added manually is ignored',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    activePods: 1,
    readyPods: 1,
    initialStatus: {
      active: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'False', reason: 'ConditionAddedManually', message: 'Testing' },
      ],
    },
    expectedActive: 1,
    expectedReady: 1,
    expectedConditions: [
      { type: 'SuccessCriteriaMet', status: 'False', reason: 'ConditionAddedManually', message: 'Testing' },
    ],
  },
  {
    name: 'WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    activePods: 1,
    failedPods: 1,
    terminatingPods: 1,
    expectedTerminating: 1,
    expectedReady: 0,
    expectedActive: 1,
    expectedFailed: 2,
  },
  {
    name: 'more terminating pods than parallelism; PodFailurePolicy used',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    activePods: 2,
    terminatingPods: 4,
    podFailurePolicy: { rules: [] },
    // Go's case has JobPodReplacementPolicy off (terminating not written); on in 1.32.
    expectedTerminating: 5,
    expectedReady: 0,
    expectedActive: 1,
    expectedDeletions: 1,
  },
  {
    name: 'too few active pods and active back-off',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    backoffRecord: { failures: 1, agoMs: 0 },
    initialStatus: {},
    expectedCreations: 0,
    expectedActive: 0,
    expectedReady: 0,
  },
  {
    name: 'too few active pods and no back-offs',
    parallelism: 1,
    completions: 1,
    backoffLimit: 6,
    backoffRecord: { failures: 0, agoMs: 0 },
    expectedCreations: 1,
    expectedActive: 1,
    expectedReady: 0,
  },
  {
    name: 'deleting job',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    deleting: true,
    pendingPods: 1,
    activePods: 1,
    succeededPods: 1,
    expectedActive: 2,
    expectedSucceeded: 1,
    expectedReady: 0,
  },
  {
    name: 'count ready pods when job fails',
    parallelism: 2,
    completions: 3,
    backoffLimit: 0,
    activePods: 2,
    readyPods: 2,
    failedPods: 1,
    expectedFailed: 3,
    // Go's case has the terminal condition undelayed: Failed at once; in 1.32 it waits for the deleted pods.
    expectedConditions: BACKOFF_FAILED.slice(0, 1),
    expectedReady: 0,
    expectedDeletions: 2,
    expectedActive: 0,
  },
  {
    name: 'indexed job with some pods deleted, podReplacementPolicy Failed',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    completionMode: 'Indexed',
    expectedCreations: 1,
    expectedActive: 1,
    expectedCreatedIndexes: [0],
    podReplacementPolicy: 'Failed',
    terminatingPods: 1,
    expectedTerminating: 1,
    expectedReady: 0,
  },
  {
    name: 'indexed job with some pods deleted, podReplacementPolicy TerminatingOrFailed',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    completionMode: 'Indexed',
    expectedCreations: 2,
    expectedActive: 2,
    expectedCreatedIndexes: [0, 1],
    podReplacementPolicy: 'TerminatingOrFailed',
    terminatingPods: 1,
    expectedTerminating: 1,
    expectedReady: 0,
  },
  {
    name: 'indexed job some pods without index',
    parallelism: 2,
    completions: 5,
    backoffLimit: 6,
    completionMode: 'Indexed',
    activePods: 1,
    succeededPods: 1,
    failedPods: 1,
    podsWithIndexes: [
      ['invalid', 'Running'],
      ['invalid', 'Succeeded'],
      ['invalid', 'Failed'],
      ['invalid', 'Pending'],
      ['0', 'Succeeded'],
      ['1', 'Running'],
      ['2', 'Running'],
    ],
    expectedDeletions: 3,
    expectedActive: 2,
    expectedSucceeded: 1,
    expectedFailed: 0,
    expectedCompletedIdxs: '0',
    expectedReady: 0,
  },
  {
    name: 'indexed job repeated indexes',
    parallelism: 5,
    completions: 5,
    backoffLimit: 6,
    completionMode: 'Indexed',
    succeededPods: 1,
    failedPods: 1,
    podsWithIndexes: [
      ['invalid', 'Running'],
      ['0', 'Succeeded'],
      ['1', 'Running'],
      ['2', 'Running'],
      ['2', 'Pending'],
    ],
    expectedCreations: 0,
    expectedDeletions: 2,
    expectedActive: 2,
    expectedSucceeded: 1,
    expectedCompletedIdxs: '0',
    expectedReady: 0,
  },
  {
    name: 'count ready pods when suspending a job with satisfied expectations',
    suspend: true,
    parallelism: 2,
    activePods: 2,
    readyPods: 2,
    completions: 4,
    backoffLimit: 6,
    expectedCreations: 0,
    expectedDeletions: 2,
    expectedActive: 0,
    expectedConditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }],
    expectedReady: 0,
  },
  {
    name: 'count ready pods when suspending a job with unsatisfied expectations',
    suspend: true,
    parallelism: 2,
    activePods: 3,
    readyPods: 3,
    fakeExpectationAtCreation: -1,
    completions: 4,
    backoffLimit: 6,
    expectedCreations: 0,
    expectedDeletions: 0,
    expectedActive: 3,
    expectedReady: 3,
  },
  {
    name: 'suspending a deleted job',
    suspend: true,
    deleting: true,
    parallelism: 2,
    activePods: 2,
    completions: 4,
    backoffLimit: 6,
    expectedCreations: 0,
    expectedDeletions: 0,
    expectedActive: 2,
    expectedReady: 0,
  },
];

const DEADLINE = (type: string): Cond => ({
  type,
  status: 'True',
  reason: 'DeadlineExceeded',
  message: 'Job was active longer than specified deadline',
});
// TestSyncJobPastDeadline and TestSingleJobFailedCondition, with 1.32 defaults (FailureTarget first).
const DEADLINE_CASES: SyncCase[] = [
  {
    name: 'activeDeadlineSeconds less than single pod execution',
    parallelism: 1,
    completions: 1,
    activeDeadlineSeconds: 10,
    initialStatus: { startAgoS: 15 },
    backoffLimit: 6,
    activePods: 1,
    expectedDeletions: 1,
    expectedFailed: 1,
    expectedActive: 0,
    expectedConditions: [DEADLINE('FailureTarget')],
  },
  {
    name: 'activeDeadlineSeconds bigger than single pod execution',
    parallelism: 1,
    completions: 2,
    activeDeadlineSeconds: 10,
    initialStatus: { startAgoS: 15 },
    backoffLimit: 6,
    activePods: 1,
    succeededPods: 1,
    expectedDeletions: 1,
    expectedSucceeded: 1,
    expectedFailed: 1,
    expectedActive: 0,
    expectedConditions: [DEADLINE('FailureTarget')],
  },
  {
    name: 'activeDeadlineSeconds times-out before any pod starts',
    parallelism: 1,
    completions: 1,
    activeDeadlineSeconds: 10,
    initialStatus: { startAgoS: 10 },
    backoffLimit: 6,
    expectedActive: 0,
    expectedConditions: [DEADLINE('FailureTarget'), DEADLINE('Failed')],
  },
  {
    name: 'activeDeadlineSeconds with backofflimit reach',
    parallelism: 1,
    completions: 1,
    activeDeadlineSeconds: 1,
    initialStatus: { startAgoS: 10 },
    backoffLimit: 0,
    failedPods: 1,
    expectedFailed: 1,
    expectedActive: 0,
    expectedConditions: BACKOFF_FAILED,
  },
  {
    name: 'activeDeadlineSeconds is not triggered when Job is suspended',
    suspend: true,
    parallelism: 1,
    completions: 2,
    activeDeadlineSeconds: 10,
    initialStatus: { startAgoS: 15 },
    backoffLimit: 6,
    expectedActive: 0,
    expectedConditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }],
  },
  {
    name: 'single Failed condition (TestSingleJobFailedCondition): a Failed=False condition turns True',
    parallelism: 1,
    completions: 1,
    activeDeadlineSeconds: 10,
    backoffLimit: 6,
    initialStatus: {
      startAgoS: 15,
      conditions: [
        {
          type: 'Failed',
          status: 'False',
          reason: 'DeadlineExceeded',
          message: 'Job was active longer than specified deadline',
        },
      ],
    },
    expectedActive: 0,
    expectedConditions: [DEADLINE('Failed'), DEADLINE('FailureTarget')],
  },
];
// TestJobBackoffOnRestartPolicyNever.
const NEVER_CASES: SyncCase[] = [
  {
    name: 'not enough failures with backoffLimit 0 - single pod',
    parallelism: 1,
    completions: 1,
    backoffLimit: 0,
    activePods: 1,
    expectedActive: 1,
  },
  {
    name: 'not enough failures with backoffLimit 1 - single pod',
    parallelism: 1,
    completions: 1,
    backoffLimit: 1,
    failedPods: 1,
    expectedCreations: 1,
    expectedActive: 1,
    expectedFailed: 1,
  },
  {
    name: 'too many failures with backoffLimit 1 - single pod',
    parallelism: 1,
    completions: 1,
    backoffLimit: 1,
    failedPods: 2,
    expectedActive: 0,
    expectedFailed: 2,
    expectedConditions: BACKOFF_FAILED,
  },
  {
    name: 'not enough failures with backoffLimit 6 - multiple pods',
    parallelism: 2,
    completions: 2,
    backoffLimit: 6,
    activePods: 1,
    failedPods: 6,
    expectedCreations: 1,
    expectedActive: 2,
    expectedFailed: 6,
  },
  {
    name: 'too many failures with backoffLimit 6 - multiple pods',
    parallelism: 2,
    completions: 2,
    backoffLimit: 6,
    failedPods: 7,
    expectedActive: 0,
    expectedFailed: 7,
    expectedConditions: BACKOFF_FAILED,
  },
];

/** Sets up a case's job and pods, syncs once, and answers what the sync left. */
async function runSyncCase(tc: SyncCase) {
  const h = await harness('in-process');
  let job = await createJob(h, { ...tc, suspend: tc.suspend ?? tc.wasSuspended ?? false });
  const pods: PodSetup[] = [
    ...Array.from({ length: tc.pendingPods ?? 0 }, () => ({ phase: 'Pending' as const })),
    ...Array.from({ length: tc.activePods ?? 0 }, (_, i) => ({
      phase: 'Running' as const,
      ready: i < (tc.readyPods ?? 0),
    })),
    ...Array.from({ length: tc.succeededPods ?? 0 }, () => ({ phase: 'Succeeded' as const })),
    ...Array.from({ length: tc.failedPods ?? 0 }, () => ({ phase: 'Failed' as const })),
    ...Array.from({ length: tc.terminatingPods ?? 0 }, () => ({ phase: 'Running' as const, terminating: true })),
    ...(tc.podsWithIndexes ?? []).map(([index, phase]) => ({ phase, index })),
  ];
  for (const p of pods) await createPod(h, job, p);
  const now = new Date(h.server.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  if (tc.initialStatus !== undefined) {
    const start = new Date(h.server.clock.now() - (tc.initialStatus.startAgoS ?? 0) * 1000)
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
    job = await h.client.updateStatus(RESOURCES.jobs, NS, {
      ...job,
      status: {
        startTime: start,
        ...(tc.initialStatus.active ? { active: tc.initialStatus.active } : {}),
        ...(tc.initialStatus.succeeded ? { succeeded: tc.initialStatus.succeeded } : {}),
        ...(tc.initialStatus.failed ? { failed: tc.initialStatus.failed } : {}),
        conditions: tc.initialStatus.conditions ?? [],
      },
    });
  }
  if (tc.wasSuspended) {
    // Suspended before: the condition is there; now resumed.
    job = await h.client.updateStatus(RESOURCES.jobs, NS, {
      ...job,
      status: {
        conditions: [
          {
            type: 'Suspended',
            status: 'True',
            reason: 'JobSuspended',
            message: 'Job suspended',
            lastTransitionTime: now,
          },
        ],
      },
    });
    job = await h.client.update(RESOURCES.jobs, NS, {
      ...job,
      spec: { ...(job.spec as Job['spec'] & object), suspend: false },
    });
  }
  if (tc.deleting) {
    job = await h.client.update(RESOURCES.jobs, NS, {
      ...job,
      metadata: { ...job.metadata, finalizers: ['example.com/hold'] },
    });
    await h.client.delete(RESOURCES.jobs, NS, JOB);
  }
  const before = await listPods(h);
  const deletingBefore = new Set(before.filter(isDeletingPod).map((p) => p.metadata?.name));
  const jc = await syncOnly(h);
  if (tc.backoffRecord !== undefined) {
    jc.podBackoffStore.updateBackoffRecord({
      key: KEY,
      failuresAfterLastSuccess: tc.backoffRecord.failures,
      lastFailureTime: h.server.clock.now() - tc.backoffRecord.agoMs,
    });
  }
  if ((tc.fakeExpectationAtCreation ?? 0) < 0)
    jc.expectations.expectDeletions(KEY, -(tc.fakeExpectationAtCreation ?? 0));
  else if ((tc.fakeExpectationAtCreation ?? 0) > 0)
    jc.expectations.expectCreations(KEY, tc.fakeExpectationAtCreation ?? 0);
  await jc.syncJob(KEY);
  const after = await listPods(h);
  const beforeNames = new Set(before.map((p) => p.metadata?.name));
  const created = after.filter((p) => !beforeNames.has(p.metadata?.name));
  const afterByName = new Map(after.map((p) => [p.metadata?.name, p]));
  const deleted = before.filter((p) => {
    if (deletingBefore.has(p.metadata?.name)) return false;
    const now = afterByName.get(p.metadata?.name);
    return now === undefined || isDeletingPod(now);
  });
  return { h, jc, job: await getJob(h), created, deleted };
}

describe('JobController.syncJob (TestControllerSyncJob, TestSyncJobPastDeadline, TestJobBackoffOnRestartPolicyNever)', () => {
  for (const tc of [...SYNC_CASES, ...DEADLINE_CASES, ...NEVER_CASES]) {
    it(tc.name, async () => {
      const { job, created, deleted } = await runSyncCase(tc);
      expect(created.length).toBe(tc.expectedCreations ?? 0);
      expect(deleted.length).toBe(tc.expectedDeletions ?? 0);
      const s = job.status ?? {};
      expect(s.active ?? 0).toBe(tc.expectedActive);
      if (tc.expectedReady !== undefined) expect(s.ready).toBe(tc.expectedReady);
      expect(s.succeeded ?? 0).toBe(tc.expectedSucceeded ?? 0);
      expect(s.failed ?? 0).toBe(tc.expectedFailed ?? 0);
      // Deleted pods are terminating now (PodReplacementPolicy on).
      expect(s.terminating).toBe(tc.expectedTerminating ?? (tc.terminatingPods ?? 0) + (tc.expectedDeletions ?? 0));
      expect(s.completedIndexes ?? '').toBe(tc.expectedCompletedIdxs ?? '');
      expect(conds(job)).toEqual(tc.expectedConditions ?? []);
      expect(s.uncountedTerminatedPods).toEqual({});
      if (tc.expectedCreatedIndexes !== undefined) {
        const indexes = created
          .map((p) => Number(p.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION]))
          .sort((a, b) => a - b);
        expect(indexes).toEqual(tc.expectedCreatedIndexes);
        for (const p of created) {
          const ix = p.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION];
          // The index as annotation and label, the hostname <job>-<index>, generateName <job>-<index>-.
          expect(p.metadata?.labels?.[JOB_COMPLETION_INDEX_ANNOTATION]).toBe(ix);
          expect(p.spec?.hostname).toBe(`${JOB}-${ix}`);
          expect(p.spec?.subdomain).toBeUndefined();
          expect(p.metadata?.generateName).toBe(`${JOB}-${ix}-`);
          expect(p.spec?.containers[0]?.env?.[0]).toMatchObject({
            name: 'JOB_COMPLETION_INDEX',
            valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX_ANNOTATION}']` } },
          });
        }
      }
      for (const p of created) {
        expect(p.metadata?.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
        expect(p.metadata?.ownerReferences?.[0]).toMatchObject({
          kind: 'Job',
          name: JOB,
          controller: true,
          blockOwnerDeletion: true,
        });
      }
      if (tc.suspend && tc.initialStatus === undefined) expect(s.startTime).toBeUndefined();
      else expect(s.startTime).toBeDefined();
    });
  }

  it('a finished job is not synced again (TestSyncJobComplete)', async () => {
    const h = await harness('in-process');
    const job = await createJob(h, { parallelism: 1, completions: 1 });
    const at = new Date(h.server.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    await h.client.updateStatus(RESOURCES.jobs, NS, {
      ...job,
      status: { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: at }] },
    });
    const jc = await syncOnly(h);
    await jc.syncJob(KEY);
    expect(conds(await getJob(h))).toEqual([{ type: 'Complete', status: 'True' }]);
    expect(await listPods(h)).toHaveLength(0);
  });

  it('finalizer removal expectations: set only for patches sent, cleared as updates arrive (TestFinalizersRemovedExpectations)', async () => {
    const h = await harness('in-process');
    const job = await createJob(h, { parallelism: 2, completions: 2, backoffLimit: 6 });
    const pods: Pod[] = [];
    for (const phase of ['Succeeded', 'Succeeded', 'Failed', 'Failed'] as const)
      pods.push(await createPod(h, job, { phase }));
    let failPatches = true;
    // FakePodControl: records nothing, applies nothing, fails while told to.
    const podControl: PodControlInterface = {
      createPods: async () => {},
      createPodsWithGenerateName: async () => {},
      deletePod: async () => {},
      patchPod: async () => {
        if (failPatches) throw new Error('fake pod controller error');
      },
    };
    const jc = await syncOnly(h, { podControl });
    await expect(jc.syncJob(KEY)).rejects.toThrow('fake pod controller error');
    expect(jc.finalizerExpectations.getExpectedUIDs(KEY)?.size ?? 0).toBe(0);
    failPatches = false;
    await jc.syncJob(KEY);
    const uids = pods.map((p) => p.metadata?.uid ?? '');
    expect([...(jc.finalizerExpectations.getExpectedUIDs(KEY) ?? [])].sort()).toEqual([...uids].sort());
    const noFinalizers = { metadata: { finalizers: null } };
    const name = (i: number) => pods[i]?.metadata?.name ?? '';
    await h.client.patch(RESOURCES.pods, NS, name(0), 'merge', noFinalizers);
    await h.client.patch(RESOURCES.pods, NS, name(1), 'merge', noFinalizers);
    await h.client.delete(RESOURCES.pods, NS, name(1));
    // Being deleted with its finalizer: still expected.
    await h.client.delete(RESOURCES.pods, NS, name(2));
    await h.client.patch(RESOURCES.pods, NS, name(3), 'merge', noFinalizers);
    await h.client.delete(RESOURCES.pods, NS, name(3), { gracePeriodSeconds: 0 });
    await waitFor(async () => {
      const left = [...(jc.finalizerExpectations.getExpectedUIDs(KEY) ?? [])];
      return left.length === 1 && left[0] === uids[2];
    });
  });

  it('a key without a namespace is an error', async () => {
    const h = await harness('in-process');
    const jc = await syncOnly(h);
    await expect(jc.syncJob('foobar')).rejects.toThrow('invalid job key "foobar": either namespace or name is missing');
  });

  it('a deleted job: its expectations and back-off record go (TestSyncJobDeleted)', async () => {
    const h = await harness('in-process');
    const jc = await syncOnly(h);
    jc.expectations.expectCreations(KEY, 2);
    jc.podBackoffStore.updateBackoffRecord({ key: KEY, failuresAfterLastSuccess: 1, lastFailureTime: 0 });
    await jc.syncJob(KEY);
    expect(jc.expectations.getExpectations(KEY)).toBeUndefined();
    expect(jc.podBackoffStore.get(KEY)).toBeUndefined();
    expect(await listPods(h)).toHaveLength(0);
  });

  it('the pods of a finished job lose their finalizers; a Completed Event', async () => {
    const { h, jc, job } = await runSyncCase(SYNC_CASES.find((c) => c.name === 'job finish') as SyncCase);
    expect(job.status?.completionTime).toBe(job.status?.conditions?.[1]?.lastTransitionTime);
    expect((await listPods(h)).every((p) => !(p.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER))).toBe(
      true,
    );
    await waitFor(async () => (await reasons(h, jc)).includes('Completed'));
  });
});

describe('JobController running', () => {
  const runs = controllerRuns();
  const start = (h: Harness) =>
    runs.start(h, (factory) => new JobController({ factory, client: h.client, clock: h.server.clock }));
  const podsOf = async (h: Harness) => (await listPods(h)).filter((p) => !isDeletingPod(p));
  const setPhase = async (h: Harness, pod: Pod, phase: PodPhase, extra: Partial<NonNullable<Pod['status']>> = {}) => {
    const fresh = await h.client.get(RESOURCES.pods, NS, pod.metadata?.name ?? '');
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    await h.client.updateStatus(RESOURCES.pods, NS, {
      ...fresh,
      status: {
        phase,
        ...(terminal ? { containerStatuses: [terminatedStatus(phase === 'Failed' ? 1 : 0)] } : {}),
        ...extra,
      },
    });
  };
  /** The pod events are batched for 1 s on the virtual clock. */
  const tick = (h: Harness, ms = 1000) => h.server.clock.advance(ms);

  it('runs a job to completion: pods created, counted, finalizers removed, Complete', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 2, completions: 3 });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 2);
    for (const p of await podsOf(h)) await setPhase(h, p, 'Succeeded');
    await waitFor(async () => {
      tick(h);
      return (await getJob(h)).status?.succeeded === 2;
    });
    await waitFor(async () => (await listPods(h)).filter((p) => p.status?.phase !== 'Succeeded').length === 1);
    const last = (await listPods(h)).find((p) => p.status?.phase !== 'Succeeded') as Pod;
    await setPhase(h, last, 'Succeeded');
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'Complete');
    });
    const job = await getJob(h);
    expect(conds(job)).toEqual(SUCCESS);
    expect(job.status).toMatchObject({ succeeded: 3, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect(job.status?.active).toBeUndefined();
    expect(job.status?.completionTime).toBeDefined();
    await waitFor(async () => (await listPods(h)).every((p) => (p.metadata?.finalizers ?? []).length === 0));
    await waitFor(
      async () =>
        (await reasons(h)).filter((r) => r === 'SuccessfulCreate').length === 3 &&
        (await reasons(h)).includes('Completed'),
    );
  });

  it('backs off 10 s, then 20 s, before replacing failed pods (TestJobBackoff)', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 1, completions: 1, backoffLimit: 6 });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 1);
    const fail = async (): Promise<number> => {
      const [pod] = (await listPods(h)).filter((p) => p.status?.phase !== 'Failed');
      // Finished now, on the clock (whole seconds, as metav1.Time keeps it).
      const at = h.server.clock.now() - (h.server.clock.now() % 1000);
      await setPhase(h, pod as Pod, 'Failed', {
        containerStatuses: [
          {
            ...terminatedStatus(1),
            state: { terminated: { exitCode: 1, finishedAt: new Date(at).toISOString().replace('.000Z', 'Z') } },
          },
        ],
      });
      return at;
    };
    const active = async () =>
      (await listPods(h)).filter((p) => p.status?.phase !== 'Failed' && !isDeletingPod(p)).length;
    /** The replacement comes `backoffMs` after the failure, not before. */
    const replacedAfter = async (failedAt: number, failures: number, backoffMs: number) => {
      await waitFor(async () => {
        tick(h, 100);
        return (await getJob(h)).status?.failed === failures;
      });
      const elapsed = h.server.clock.now() - failedAt;
      if (elapsed < backoffMs - 1000) {
        tick(h, backoffMs - 1000 - elapsed);
        await new Promise((r) => setTimeout(r, 50));
        expect(await active()).toBe(0);
      }
      await waitFor(async () => {
        tick(h, 100);
        return (await active()) === 1;
      });
      expect(h.server.clock.now() - failedAt).toBeGreaterThanOrEqual(backoffMs);
    };
    await replacedAfter(await fail(), 1, 10_000);
    await replacedAfter(await fail(), 2, 20_000);
  });

  it('fails the job past activeDeadlineSeconds (TestSyncJobPastDeadline): pods deleted, DeadlineExceeded', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 1, completions: 1, activeDeadlineSeconds: 10 });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 1);
    expect((await getJob(h)).status?.startTime).toBeDefined();
    tick(h, 10_000);
    await waitFor(async () => conds(await getJob(h)).some((c) => c.type === 'FailureTarget'));
    // The pod is deleted (its finalizer removed as it is counted); Failed once it is gone.
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'Failed');
    });
    const job = await getJob(h);
    expect(conds(job)).toEqual([
      {
        type: 'FailureTarget',
        status: 'True',
        reason: 'DeadlineExceeded',
        message: 'Job was active longer than specified deadline',
      },
      {
        type: 'Failed',
        status: 'True',
        reason: 'DeadlineExceeded',
        message: 'Job was active longer than specified deadline',
      },
    ]);
    expect(job.status?.completionTime).toBeUndefined();
    await waitFor(async () => (await reasons(h)).includes('DeadlineExceeded'));
  });

  it('a suspended job creates nothing; resumed, it starts (startTime reset) with a Resumed Event', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 2, completions: 2, suspend: true, activeDeadlineSeconds: 100 });
    await start(h);
    await waitFor(async () => conds(await getJob(h)).some((c) => c.type === 'Suspended'));
    expect(await podsOf(h)).toHaveLength(0);
    expect((await getJob(h)).status?.startTime).toBeUndefined();
    const job = await getJob(h);
    tick(h, 5000);
    await h.client.update(RESOURCES.jobs, NS, {
      ...job,
      spec: { ...(job.spec as Job['spec'] & object), suspend: false },
    });
    await waitFor(async () => (await podsOf(h)).length === 2);
    await waitFor(async () => conds(await getJob(h)).some((c) => c.type === 'Suspended' && c.status === 'False'));
    const resumed = await getJob(h);
    expect(Date.parse(resumed.status?.startTime ?? '')).toBe(h.server.clock.now() - (h.server.clock.now() % 1000));
    await waitFor(async () => (await reasons(h)).includes('Resumed') && (await reasons(h)).includes('Suspended'));
    // Suspended again: its pods are deleted.
    await h.client.update(RESOURCES.jobs, NS, {
      ...resumed,
      spec: { ...(resumed.spec as Job['spec'] & object), suspend: true },
    });
    await waitFor(async () => (await podsOf(h)).length === 0);
  });

  it('a FailJob pod failure policy rule fails the job (PodFailurePolicy)', async () => {
    const h = await harness('in-process');
    await createJob(h, {
      parallelism: 2,
      completions: 2,
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
    });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 2);
    const [first] = await podsOf(h);
    const fresh = await h.client.get(RESOURCES.pods, NS, first?.metadata?.name ?? '');
    await h.client.updateStatus(RESOURCES.pods, NS, {
      ...fresh,
      status: { phase: 'Failed', containerStatuses: [terminatedStatus(42)] },
    });
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'FailureTarget');
    });
    const msg = `Container c for pod ${NS}/${first?.metadata?.name} failed with exit code 42 matching FailJob rule at index 0`;
    expect(conds(await getJob(h))[0]).toEqual({
      type: 'FailureTarget',
      status: 'True',
      reason: 'PodFailurePolicy',
      message: msg,
    });
    // The other pod is being deleted; once gone, Failed.
    for (const p of await listPods(h))
      await h.client.patch(RESOURCES.pods, NS, p.metadata?.name ?? '', 'merge', { metadata: { finalizers: null } });
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'Failed');
    });
    expect(conds(await getJob(h))[1]).toEqual({
      type: 'Failed',
      status: 'True',
      reason: 'PodFailurePolicy',
      message: msg,
    });
  });

  it('an Ignore rule on DisruptionTarget does not count the failure', async () => {
    const h = await harness('in-process');
    await createJob(h, {
      parallelism: 1,
      completions: 1,
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
    });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 1);
    const [pod] = await podsOf(h);
    await setPhase(h, pod as Pod, 'Failed', { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    // Replaced (no back-off: not counted), the job not failed.
    await waitFor(async () => {
      tick(h);
      return (await listPods(h)).filter((p) => p.status?.phase !== 'Failed').length === 1;
    });
    const job = await getJob(h);
    expect(job.status?.failed ?? 0).toBe(0);
    expect(conds(job)).toEqual([]);
  });

  it('an Indexed job with backoffLimitPerIndex fails an index and then the job (FailedIndexes)', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 2, completions: 2, completionMode: 'Indexed', backoffLimitPerIndex: 0 });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 2);
    const pods = await podsOf(h);
    const byIndex = (ix: string) =>
      pods.find((p) => p.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION] === ix) as Pod;
    expect(byIndex('0').metadata?.annotations?.[JOB_INDEX_FAILURE_COUNT_ANNOTATION]).toBe('0');
    await setPhase(h, byIndex('0'), 'Failed');
    await setPhase(h, byIndex('1'), 'Succeeded');
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'Failed');
    });
    const job = await getJob(h);
    expect(job.status).toMatchObject({ failedIndexes: '0', completedIndexes: '1', succeeded: 1, failed: 1 });
    expect(conds(job)).toEqual([
      { type: 'FailureTarget', status: 'True', reason: 'FailedIndexes', message: 'Job has failed indexes' },
      { type: 'Failed', status: 'True', reason: 'FailedIndexes', message: 'Job has failed indexes' },
    ]);
  });

  it('a success policy completes an Indexed job early (SuccessPolicy), the other pods deleted', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.jobs, NS, {
      metadata: { name: JOB },
      spec: {
        parallelism: 3,
        completions: 3,
        completionMode: 'Indexed',
        successPolicy: { rules: [{ succeededIndexes: '0' }] },
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] } },
      },
    } as Job);
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 3);
    const zero = (await podsOf(h)).find(
      (p) => p.metadata?.annotations?.[JOB_COMPLETION_INDEX_ANNOTATION] === '0',
    ) as Pod;
    await setPhase(h, zero, 'Succeeded');
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'SuccessCriteriaMet');
    });
    expect(conds(await getJob(h))[0]).toEqual({
      type: 'SuccessCriteriaMet',
      status: 'True',
      reason: 'SuccessPolicy',
      message: 'Matched rules at index 0',
    });
    for (const p of await listPods(h))
      await h.client.patch(RESOURCES.pods, NS, p.metadata?.name ?? '', 'merge', { metadata: { finalizers: null } });
    await waitFor(async () => {
      tick(h);
      return conds(await getJob(h)).some((c) => c.type === 'Complete');
    });
    expect((await getJob(h)).status?.completedIndexes).toBe('0');
  });

  it('leaves a job managed by another controller alone (TestSyncJobWhenManagedBy)', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 1, completions: 1, managedBy: 'example.com/other' });
    await createJob(h, { parallelism: 1, completions: 1, managedBy: 'kubernetes.io/job-controller' }, 'builtin');
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 1);
    tick(h, 5000);
    await new Promise((r) => setTimeout(r, 50));
    expect((await podsOf(h)).map((p) => p.metadata?.ownerReferences?.[0]?.name)).toEqual(['builtin']);
    expect((await getJob(h)).status ?? {}).toEqual({});
  });

  it('a pod the apiserver refuses: a FailedCreate Event, retried with back-off, not in a hot loop', async () => {
    const h = await harness('in-process');
    // Job validation does not check the template's finalizers; pod validation refuses this one.
    await createJob(h, {
      parallelism: 3,
      completions: 3,
      template: {
        metadata: { labels: { foo: 'bar' }, finalizers: ['nodomain'] },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
      },
    });
    await start(h);
    await waitFor(async () => (await reasons(h)).includes('FailedCreate'));
    await new Promise((r) => setTimeout(r, 100));
    // Slow start: one create per sync; the next sync waits for the API back-off (1 s, 2 s, …).
    // Each message names another generated pod: one Event per failure.
    const failed = async () =>
      (await events(h)).filter((e) => e.reason === 'FailedCreate').reduce((n, e) => n + (e.count ?? 1), 0);
    expect(await failed()).toBe(1);
    tick(h, 1000);
    await waitFor(async () => (await failed()) === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(await failed()).toBe(2);
    tick(h, 1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await failed()).toBe(2);
    tick(h, 1000);
    await waitFor(async () => (await failed()) === 3);
    expect(await listPods(h)).toHaveLength(0);
  });

  it('does not adopt pods another controller owns; adopts matching orphans with the finalizer', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.jobs, NS, {
      metadata: { name: JOB },
      spec: {
        parallelism: 1,
        completions: 1,
        manualSelector: true,
        selector: { matchLabels: { app: 'shared' } },
        template: {
          metadata: { labels: { app: 'shared' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] },
        },
      },
    } as Job);
    const other = await h.client.create(RESOURCES.configmaps, NS, { metadata: { name: 'other' } });
    await h.client.create(RESOURCES.pods, NS, {
      metadata: {
        name: 'owned-by-other',
        labels: { app: 'shared' },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: other.metadata?.uid ?? '', controller: true },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    } as Pod);
    await h.client.create(RESOURCES.pods, NS, {
      metadata: { name: 'orphan', labels: { app: 'shared' } },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    } as Pod);
    await start(h);
    await waitFor(async () => (await getJob(h)).status?.active === 1);
    const owned = await h.client.get(RESOURCES.pods, NS, 'owned-by-other');
    expect(owned.metadata?.ownerReferences?.map((r) => r.kind)).toEqual(['ConfigMap']);
    expect(owned.metadata?.finalizers).toBeUndefined();
    const orphan = await h.client.get(RESOURCES.pods, NS, 'orphan');
    expect(orphan.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Job', name: JOB, controller: true });
    expect(orphan.metadata?.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    // The orphan counts as the one active pod: nothing created.
    expect(await listPods(h)).toHaveLength(2);
  });

  it('a job marked finished: its pods lose their finalizers through the selector (TestFinalizerCleanup)', async () => {
    const h = await harness('in-process');
    await createJob(h, { parallelism: 1, completions: 1, backoffLimit: 1 });
    await start(h);
    await waitFor(async () => (await podsOf(h)).length === 1);
    const [pod] = await podsOf(h);
    expect(pod?.metadata?.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    const job = await getJob(h);
    await h.client.updateStatus(RESOURCES.jobs, NS, {
      ...job,
      status: { ...job.status, conditions: [{ type: 'Complete', status: 'True' }] },
    });
    await waitFor(
      async () =>
        ((await h.client.get(RESOURCES.pods, NS, pod?.metadata?.name ?? '')).metadata?.finalizers ?? []).length === 0,
    );
  });

  it('removes the tracking finalizer from an orphan pod (TestSyncOrphanPod)', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.pods, NS, {
      metadata: { name: 'orphan', finalizers: [JOB_TRACKING_FINALIZER] },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    } as Pod);
    await start(h);
    await waitFor(
      async () => ((await h.client.get(RESOURCES.pods, NS, 'orphan')).metadata?.finalizers ?? []).length === 0,
    );
  });
});

describe("the sync's pure parts", () => {
  it('constants (job_controller.go)', () => {
    expect(MAX_UNCOUNTED_PODS).toBe(500);
    expect(MAX_POD_CREATE_DELETE_PER_SYNC).toBe(500);
  });

  describe('ensureJobConditionStatus (TestEnsureJobConditions)', () => {
    const t = Date.parse('2025-01-01T00:00:00Z');
    const strip = (list: JobCondition[]) => list.map(({ type, status, reason }) => ({ type, status, reason }));
    const cases: Array<[string, JobCondition[], 'True' | 'False', string, Cond[], boolean]> = [
      ['append true condition', [], 'True', 'foo', [{ type: 'Suspended', status: 'True', reason: 'foo' }], true],
      ['append false condition', [], 'False', 'foo', [], false],
      [
        'update true condition reason',
        [newCondition('Suspended', 'True', 'foo', '', t)],
        'True',
        'bar',
        [{ type: 'Suspended', status: 'True', reason: 'bar' }],
        true,
      ],
      [
        'update true condition status',
        [newCondition('Suspended', 'True', 'foo', '', t)],
        'False',
        'foo',
        [{ type: 'Suspended', status: 'False', reason: 'foo' }],
        true,
      ],
      [
        'update false condition status',
        [newCondition('Suspended', 'False', 'foo', '', t)],
        'True',
        'foo',
        [{ type: 'Suspended', status: 'True', reason: 'foo' }],
        true,
      ],
      [
        'condition already exists',
        [newCondition('Suspended', 'True', 'foo', '', t)],
        'True',
        'foo',
        [{ type: 'Suspended', status: 'True', reason: 'foo' }],
        false,
      ],
    ];
    for (const [name, have, status, reason, want, updated] of cases) {
      it(name, () => {
        const [list, isUpdated] = ensureJobConditionStatus(have, 'Suspended', status, reason, '', t + 5000);
        expect(isUpdated).toBe(updated);
        expect(strip(list)).toEqual(want);
      });
    }
    it('a changed condition gets new times; an unchanged one keeps them', () => {
      const [changed] = ensureJobConditionStatus(
        [newCondition('Suspended', 'True', 'foo', '', t)],
        'Suspended',
        'False',
        'foo',
        '',
        t + 5000,
      );
      expect(changed[0]?.lastTransitionTime).toBe('2025-01-01T00:00:05Z');
      const [same] = ensureJobConditionStatus(
        [newCondition('Suspended', 'True', 'foo', '', t)],
        'Suspended',
        'True',
        'foo',
        '',
        t + 5000,
      );
      expect(same[0]?.lastTransitionTime).toBe('2025-01-01T00:00:00Z');
    });
  });

  describe('pastBackoffLimitOnFailure (TestJobBackoffForOnFailure)', () => {
    const job = (backoffLimit: number, restartPolicy: 'OnFailure' | 'Never' = 'OnFailure'): Job => ({
      metadata: { name: JOB, namespace: NS },
      spec: { backoffLimit, template: { spec: { restartPolicy, containers: [{ name: 'c' }] } } },
    });
    const pods = (phase: PodPhase, restarts: number[]): Pod[] =>
      restarts.map((restartCount) => ({
        status: { phase, containerStatuses: [{ name: 'c', image: '', imageID: '', ready: false, restartCount }] },
      }));
    const cases: Array<[string, number, PodPhase, number[], boolean]> = [
      ['backoffLimit 0 should have 1 pod active', 0, 'Running', [0], false],
      ['backoffLimit 1 with restartCount 0 should have 1 pod active', 1, 'Running', [0], false],
      ['backoffLimit 1 with restartCount 1 and podRunning should have 0 pod active', 1, 'Running', [1], true],
      ['backoffLimit 1 with restartCount 1 and podPending should have 0 pod active', 1, 'Pending', [1], true],
      ['too many job failures with podRunning - single pod', 2, 'Running', [2], true],
      ['too many job failures with podPending - multiple pods', 2, 'Pending', [1, 1], true],
      ['not enough failures', 3, 'Running', [1, 1], false],
      ['finished job: the restarts of terminated pods do not count', 6, 'Succeeded', [1, 1, 2, 0], false],
      ['backoffLimit 0: any restart', 0, 'Running', [1], true],
    ];
    for (const [name, limit, phase, restarts, want] of cases) {
      it(name, () => expect(pastBackoffLimitOnFailure(job(limit), pods(phase, restarts))).toBe(want));
    }
    it('restartPolicy Never: restarts never count', () =>
      expect(pastBackoffLimitOnFailure(job(0, 'Never'), pods('Running', [3]))).toBe(false));
  });

  describe('getPodCreationInfoForIndependentIndexes (TestGetPodCreationInfoForIndependentIndexes)', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const failed = (count: string, deletedAt: number): Pod => ({
      metadata: {
        deletionTimestamp: new Date(deletedAt).toISOString(),
        annotations: { [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: count },
      },
      status: { phase: 'Failed' },
    });
    it('simple index creation', () =>
      expect(getPodCreationInfoForIndependentIndexes(now, [1, 3], undefined)).toEqual([[1, 3], 0]));
    it('subset of indexes can be recreated now', () =>
      expect(getPodCreationInfoForIndependentIndexes(now, [1, 3], new Map([[1, failed('0', now)]]))).toEqual([[3], 0]));
    it('subset of indexes can be recreated now as the pods failed long time ago', () =>
      expect(
        getPodCreationInfoForIndependentIndexes(
          now,
          [1, 3],
          new Map([
            [1, failed('0', now)],
            [3, failed('0', now - 10_000)],
          ]),
        ),
      ).toEqual([[3], 0]));
    it('no indexes can be recreated now, need to wait default pod failure backoff', () =>
      expect(
        getPodCreationInfoForIndependentIndexes(
          now,
          [1, 2, 3],
          new Map([
            [1, failed('1', now)],
            [2, failed('0', now)],
            [3, failed('2', now)],
          ]),
        ),
      ).toEqual([[], 10_000]));
    it('no indexes can be recreated now, need to wait but 1s already passed', () =>
      expect(
        getPodCreationInfoForIndependentIndexes(
          now,
          [1, 2, 3],
          new Map([
            [1, failed('1', now - 1000)],
            [2, failed('0', now - 1000)],
            [3, failed('2', now - 1000)],
          ]),
        ),
      ).toEqual([[], 9000]));
  });

  describe('getNewFinishedPods (TestGetNewFinshedPods)', () => {
    const pod = (uid: string, phase: PodPhase, tracked: boolean, deleting = false): Pod => ({
      metadata: {
        uid,
        ...(tracked ? { finalizers: [JOB_TRACKING_FINALIZER] } : {}),
        ...(deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
      },
      status: { phase },
    });
    const cases: Array<{
      name: string;
      status: { succeeded: number; failed: number; uncounted?: { succeeded?: string[]; failed?: string[] } };
      expectedRmFinalizers?: string[];
      pods: Pod[];
      wantSucceeded: number;
      wantFailed: number;
    }> = [
      {
        name: 'some counted',
        status: { succeeded: 2, failed: 1 },
        pods: [
          pod('a', 'Succeeded', false),
          pod('b', 'Succeeded', true),
          pod('c', 'Succeeded', true),
          pod('d', 'Failed', false),
          pod('e', 'Failed', true),
          pod('f', 'Running', false),
        ],
        wantSucceeded: 4,
        wantFailed: 2,
      },
      {
        name: 'some uncounted',
        status: { succeeded: 1, failed: 1, uncounted: { succeeded: ['a', 'c'], failed: ['e', 'f'] } },
        pods: [
          pod('a', 'Succeeded', false),
          pod('b', 'Succeeded', false),
          pod('c', 'Succeeded', true),
          pod('d', 'Succeeded', true),
          pod('e', 'Failed', false),
          pod('f', 'Failed', true),
          pod('g', 'Failed', true),
        ],
        wantSucceeded: 4,
        wantFailed: 4,
      },
      {
        name: 'with expected removed finalizers',
        status: { succeeded: 2, failed: 2, uncounted: { succeeded: ['a'], failed: ['d'] } },
        expectedRmFinalizers: ['b', 'f'],
        pods: [
          pod('a', 'Succeeded', false),
          pod('b', 'Succeeded', true),
          pod('c', 'Succeeded', true),
          pod('d', 'Failed', false),
          pod('e', 'Failed', true),
          pod('f', 'Failed', true),
          pod('g', 'Failed', true),
        ],
        wantSucceeded: 4,
        wantFailed: 5,
      },
      {
        name: 'deleted pods',
        status: { succeeded: 1, failed: 1 },
        pods: [
          pod('a', 'Succeeded', true, true),
          pod('b', 'Failed', true, true),
          pod('c', 'Running', true, true),
          pod('d', 'Pending', true, true),
          pod('e', 'Running', false, true),
          pod('f', 'Pending', false, true),
        ],
        wantSucceeded: 2,
        wantFailed: 4,
      },
    ];
    for (const tc of cases) {
      it(tc.name, () => {
        const job: Job = { metadata: { name: JOB, namespace: NS }, spec: { template: {} } };
        const uncounted = {
          succeeded: new Set(tc.status.uncounted?.succeeded ?? []),
          failed: new Set(tc.status.uncounted?.failed ?? []),
        };
        const [succeeded, failed] = getNewFinishedPods({
          job,
          pods: tc.pods,
          expectedRmFinalizers: tc.expectedRmFinalizers === undefined ? undefined : new Set(tc.expectedRmFinalizers),
          uncounted,
        });
        expect(tc.status.succeeded + succeeded.length + uncounted.succeeded.size).toBe(tc.wantSucceeded);
        expect(tc.status.failed + failed.length + uncounted.failed.size).toBe(tc.wantFailed);
      });
    }
  });

  it('getFailJobMessage: the first failed pod matching a FailJob rule', () => {
    const job: Job = {
      metadata: { name: JOB, namespace: NS },
      spec: {
        template: {},
        podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] },
      },
    };
    const pod = (name: string, phase: PodPhase, exitCode: number): Pod => ({
      metadata: { name, namespace: NS },
      status: { phase, containerStatuses: [{ ...terminatedStatus(exitCode), name: 'main' }] },
    });
    expect(getFailJobMessage(job, [pod('a', 'Failed', 1), pod('b', 'Running', 3), pod('c', 'Failed', 3)])).toBe(
      'Container main for pod default/c failed with exit code 3 matching FailJob rule at index 0',
    );
    expect(getFailJobMessage({ ...job, spec: { template: {} } }, [pod('c', 'Failed', 3)])).toBeUndefined();
  });
});
