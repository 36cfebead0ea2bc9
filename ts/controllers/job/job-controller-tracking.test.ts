/**
 * TestTrackJobStatusAndRemoveFinalizers (job_controller_test.go): the status writes and finalizer
 * removals of trackJobStatusAndRemoveFinalizers for a given sync context, with the status handler
 * and the pod control recording (and failing when told to), as the Go test injects them. The
 * feature gates are 1.32's, so the cases with JobPodReplacementPolicy / JobManagedBy disabled
 * are not ported.
 */
import { describe, expect, it } from 'vitest';
import type { Job, JobCondition, JobStatus } from '../../api/types/batch/v1.js';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { harness } from '../../client/testing/harness.js';
import { filterActivePods } from '../framework/active-pods.js';
import type { PodControlInterface } from '../framework/pod-control.js';
import {
  calculateFailedIndexes,
  getPodsWithDelayedDeletionPerIndex,
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  parseIndexesFromString,
} from './indexed-job-utils.js';
import { JobController, newCondition, type SyncJobCtx } from './job-controller.js';
import { countTerminatingPods } from './job-util.js';
import { JOB_TRACKING_FINALIZER } from './tracking-utils.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');
const completedCond = newCondition('Complete', 'True', '', '', NOW);
const succeededCond = newCondition('SuccessCriteriaMet', 'True', '', '', NOW - 60_000);
const failedCond = newCondition('Failed', 'True', '', '', NOW);
const failureTargetCond = newCondition('FailureTarget', 'True', '', '', NOW);

let uidSeq = 0;
/** buildPod: a pod with a random UID (here a sequence), then its builder's settings. */
function pod(
  phase: PodPhase,
  o: { uid?: string; finalizer?: boolean; deleting?: boolean; index?: string; failureCount?: string } = {},
): Pod {
  const annotations = {
    ...(o.index === undefined ? {} : { [JOB_COMPLETION_INDEX_ANNOTATION]: o.index }),
    ...(o.failureCount === undefined ? {} : { [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: o.failureCount }),
  };
  return {
    metadata: {
      name: `p${uidSeq}`,
      namespace: 'default',
      uid: o.uid ?? `rand-${uidSeq++}`,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(o.finalizer ? { finalizers: [JOB_TRACKING_FINALIZER] } : {}),
      ...(o.deleting ? { deletionTimestamp: '0001-01-01T00:00:00Z' } : {}),
    },
    status: { phase },
  };
}
const tracked = (phase: PodPhase, o: Parameters<typeof pod>[1] = {}) => pod(phase, { ...o, finalizer: true });

/** The status as written (Go's omitempty): uncounted lists only when not empty. */
const u = (succeeded?: string[], failed?: string[]) => ({
  ...(succeeded === undefined ? {} : { succeeded }),
  ...(failed === undefined ? {} : { failed }),
});

interface TrackCase {
  name: string;
  job?: { spec?: Partial<NonNullable<Job['spec']>>; status?: JobStatus; deleting?: boolean };
  pods?: Pod[];
  finishedCond?: JobCondition;
  expectedRmFinalizers?: string[];
  needsFlush?: boolean;
  statusUpdateErr?: boolean;
  podControlErr?: boolean;
  wantErr?: boolean;
  wantRmFinalizers?: number;
  wantStatusUpdates: JobStatus[];
}

const CASES: TrackCase[] = [
  { name: 'no updates', pods: [], wantStatusUpdates: [] },
  {
    name: 'new active',
    job: { status: { active: 1 } },
    needsFlush: true,
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, active: 1 }],
  },
  {
    name: 'track finished pods',
    pods: [
      tracked('Succeeded', { uid: 'a' }),
      tracked('Failed', { uid: 'b' }),
      tracked('Succeeded', { uid: 'c', deleting: true }),
      tracked('Failed', { uid: 'd', deleting: true }),
      tracked('Pending', { uid: 'e', deleting: true }),
      tracked('Pending'),
      tracked('Running'),
    ],
    wantRmFinalizers: 5,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a', 'c'], ['b', 'd', 'e']) },
      { uncountedTerminatedPods: {}, succeeded: 2, failed: 3 },
    ],
  },
  {
    name: 'past and new finished pods',
    job: { status: { active: 1, succeeded: 2, failed: 3, uncountedTerminatedPods: u(['a', 'e'], ['b', 'f']) } },
    pods: [
      pod('Succeeded', { uid: 'e' }),
      pod('Failed'),
      pod('Pending'),
      tracked('Succeeded', { uid: 'a' }),
      tracked('Failed', { uid: 'b' }),
      tracked('Succeeded', { uid: 'c' }),
      tracked('Failed', { uid: 'd' }),
    ],
    wantRmFinalizers: 4,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a', 'c'], ['b', 'd']), active: 1, succeeded: 3, failed: 4 },
      { uncountedTerminatedPods: {}, active: 1, succeeded: 5, failed: 6 },
    ],
  },
  {
    name: 'expecting removed finalizers',
    job: { status: { succeeded: 2, failed: 3, uncountedTerminatedPods: u(['a', 'g'], ['b', 'h']) } },
    expectedRmFinalizers: ['c', 'd', 'g', 'h'],
    pods: [
      tracked('Succeeded', { uid: 'a' }),
      tracked('Failed', { uid: 'b' }),
      tracked('Succeeded', { uid: 'c' }),
      tracked('Failed', { uid: 'd' }),
      tracked('Succeeded', { uid: 'e' }),
      tracked('Failed', { uid: 'f' }),
      tracked('Succeeded', { uid: 'g' }),
      tracked('Failed', { uid: 'h' }),
    ],
    wantRmFinalizers: 4,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a', 'e'], ['b', 'f']), succeeded: 3, failed: 4 },
      { uncountedTerminatedPods: {}, succeeded: 5, failed: 6 },
    ],
  },
  {
    name: 'succeeding job by JobSuccessPolicy',
    pods: [tracked('Succeeded', { uid: 'a' }), tracked('Failed', { uid: 'b' }), tracked('Pending', { uid: 'c' })],
    finishedCond: succeededCond,
    wantRmFinalizers: 3,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a'], ['b']), conditions: [succeededCond] },
      {
        uncountedTerminatedPods: {},
        succeeded: 1,
        failed: 1,
        conditions: [succeededCond, completedCond],
        completionTime: 'set',
      },
    ],
  },
  {
    name: 'completing job',
    pods: [tracked('Succeeded', { uid: 'a' }), tracked('Failed', { uid: 'b' })],
    finishedCond: completedCond,
    wantRmFinalizers: 2,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a'], ['b']) },
      { uncountedTerminatedPods: {}, succeeded: 1, failed: 1, conditions: [completedCond], completionTime: 'set' },
    ],
  },
  {
    name: 'failing job',
    pods: [tracked('Succeeded', { uid: 'a' }), tracked('Failed', { uid: 'b' }), tracked('Running', { uid: 'c' })],
    finishedCond: failedCond,
    wantRmFinalizers: 3,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a'], ['b', 'c']) },
      { uncountedTerminatedPods: {}, succeeded: 1, failed: 2, conditions: [failedCond] },
    ],
  },
  {
    name: 'deleted job',
    job: { deleting: true, status: { active: 1 } },
    pods: [tracked('Succeeded', { uid: 'a' }), tracked('Failed', { uid: 'b' }), tracked('Running')],
    wantRmFinalizers: 3,
    wantStatusUpdates: [
      { uncountedTerminatedPods: u(['a'], ['b']), active: 1 },
      { uncountedTerminatedPods: {}, active: 1, succeeded: 1, failed: 1 },
    ],
  },
  {
    name: 'status update error',
    pods: [tracked('Succeeded', { uid: 'a' }), tracked('Failed', { uid: 'b' })],
    statusUpdateErr: true,
    wantErr: true,
    wantStatusUpdates: [{ uncountedTerminatedPods: u(['a'], ['b']) }],
  },
  {
    name: 'pod patch errors',
    pods: [tracked('Succeeded', { uid: 'a' }), tracked('Failed', { uid: 'b' })],
    podControlErr: true,
    wantErr: true,
    wantRmFinalizers: 2,
    wantStatusUpdates: [{ uncountedTerminatedPods: u(['a'], ['b']) }],
  },
  {
    name: 'pod patch errors with partial success',
    job: { status: { uncountedTerminatedPods: u(['a'], ['b']) } },
    pods: [pod('Succeeded', { uid: 'a' }), tracked('Succeeded', { uid: 'c' }), tracked('Failed', { uid: 'd' })],
    podControlErr: true,
    wantErr: true,
    wantRmFinalizers: 2,
    wantStatusUpdates: [{ uncountedTerminatedPods: u(['c'], ['d']), succeeded: 1, failed: 1 }],
  },
  {
    name: 'indexed job new successful pods',
    job: { spec: { completionMode: 'Indexed', completions: 6 }, status: { active: 1 } },
    pods: [
      tracked('Succeeded', { index: '1' }),
      tracked('Succeeded', { index: '3' }),
      tracked('Succeeded', { index: '3' }),
      tracked('Running', { index: '5' }),
      tracked('Succeeded'),
    ],
    wantRmFinalizers: 4,
    wantStatusUpdates: [{ active: 1, succeeded: 2, completedIndexes: '1,3', uncountedTerminatedPods: {} }],
  },
  {
    name: 'indexed job prev successful pods outside current completions index range with no new succeeded pods',
    job: {
      spec: { completionMode: 'Indexed', completions: 2, parallelism: 2 },
      status: { active: 2, succeeded: 1, completedIndexes: '3' },
    },
    pods: [tracked('Running', { index: '0' }), tracked('Running', { index: '1' })],
    wantRmFinalizers: 0,
    wantStatusUpdates: [{ active: 2, uncountedTerminatedPods: {} }],
  },
  {
    name: 'indexed job prev successful pods outside current completions index range with new succeeded pods in range',
    job: {
      spec: { completionMode: 'Indexed', completions: 2, parallelism: 2 },
      status: { active: 2, succeeded: 1, completedIndexes: '3' },
    },
    pods: [tracked('Running', { index: '0' }), tracked('Succeeded', { index: '1' })],
    wantRmFinalizers: 1,
    wantStatusUpdates: [{ active: 2, succeeded: 1, completedIndexes: '1', uncountedTerminatedPods: {} }],
  },
  {
    name: 'indexed job new failed pods',
    job: { spec: { completionMode: 'Indexed', completions: 6 }, status: { active: 1 } },
    pods: [
      tracked('Failed', { uid: 'a', index: '1' }),
      tracked('Failed', { uid: 'b', index: '3' }),
      tracked('Failed', { uid: 'c', index: '3' }),
      tracked('Running', { uid: 'd', index: '5' }),
      tracked('Failed'),
    ],
    wantRmFinalizers: 4,
    wantStatusUpdates: [
      { active: 1, uncountedTerminatedPods: u(undefined, ['a', 'b', 'c']) },
      { active: 1, failed: 3, uncountedTerminatedPods: {} },
    ],
  },
  {
    name: 'indexed job past and new pods',
    job: {
      spec: { completionMode: 'Indexed', completions: 7 },
      status: { failed: 2, succeeded: 5, completedIndexes: '0-2,4,6,7' },
    },
    pods: [
      pod('Succeeded', { index: '0' }),
      pod('Failed', { index: '1' }),
      tracked('Succeeded', { index: '1' }),
      tracked('Succeeded', { index: '3' }),
      tracked('Failed', { uid: 'a', index: '2' }),
      tracked('Failed', { uid: 'b', index: '5' }),
    ],
    wantRmFinalizers: 4,
    wantStatusUpdates: [
      { succeeded: 6, failed: 2, completedIndexes: '0-4,6', uncountedTerminatedPods: u(undefined, ['a', 'b']) },
      { succeeded: 6, failed: 4, completedIndexes: '0-4,6', uncountedTerminatedPods: {} },
    ],
  },
  {
    name: 'too many finished',
    job: { status: { uncountedTerminatedPods: u(undefined, ['a', 'b']) } },
    pods: [
      ...Array.from({ length: 500 }, (_, i) => tracked('Succeeded', { uid: String(i) })),
      tracked('Failed', { uid: 'b' }),
    ],
    wantRmFinalizers: 499,
    wantStatusUpdates: [
      {
        uncountedTerminatedPods: u(
          Array.from({ length: 499 }, (_, i) => String(i)),
          ['b'],
        ),
        failed: 1,
      },
      { uncountedTerminatedPods: u(undefined, ['b']), succeeded: 499, failed: 1 },
    ],
  },
  {
    name: 'too many indexed finished',
    job: { spec: { completionMode: 'Indexed', completions: 501 } },
    pods: Array.from({ length: 501 }, (_, i) => tracked('Succeeded', { uid: String(i), index: String(i) })),
    wantRmFinalizers: 500,
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, completedIndexes: '0-499', succeeded: 500 }],
  },
  {
    name: 'pod flips from failed to succeeded',
    job: { spec: { completions: 2, parallelism: 2 }, status: { uncountedTerminatedPods: u(undefined, ['a', 'b']) } },
    pods: [tracked('Failed', { uid: 'a' }), tracked('Succeeded', { uid: 'b' })],
    finishedCond: failedCond,
    wantRmFinalizers: 2,
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, failed: 2, conditions: [failedCond] }],
  },
  {
    name: 'pod is terminal; JobFailed condition is set',
    job: { spec: { completions: 1, parallelism: 1 }, status: { uncountedTerminatedPods: u(undefined, ['a']) } },
    pods: [tracked('Failed', { uid: 'a' })],
    finishedCond: failedCond,
    wantRmFinalizers: 1,
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, failed: 1, conditions: [failedCond] }],
  },
  {
    name: 'pod is terminating; counted as failed, but the JobFailed condition is delayed',
    job: {
      spec: { completions: 1, parallelism: 1 },
      status: { uncountedTerminatedPods: u(undefined, ['a']), conditions: [failureTargetCond] },
    },
    pods: [pod('Running', { uid: 'a', deleting: true })],
    finishedCond: failedCond,
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, failed: 1, conditions: [failureTargetCond] }],
  },
  {
    name: 'pod is terminating; JobSuccessCriteriaMet, but JobComplete condition is delayed',
    job: {
      spec: { completions: 1, parallelism: 1 },
      status: { uncountedTerminatedPods: u(['b'], ['a']), conditions: [succeededCond] },
    },
    pods: [pod('Running', { uid: 'a', deleting: true })],
    finishedCond: completedCond,
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, succeeded: 1, failed: 1, conditions: [succeededCond] }],
  },
  {
    name: 'indexed job with a failed pod with delayed finalizer removal; the pod is not counted',
    job: { spec: { completionMode: 'Indexed', completions: 6, backoffLimitPerIndex: 1 } },
    pods: [tracked('Failed', { uid: 'a', failureCount: '0', index: '1' })],
    wantStatusUpdates: [{ uncountedTerminatedPods: {}, failedIndexes: '' }],
  },
  {
    name: 'indexed job with a failed pod which is recreated by a running pod; the pod is counted',
    job: { spec: { completionMode: 'Indexed', completions: 6, backoffLimitPerIndex: 1 }, status: { active: 1 } },
    pods: [
      tracked('Failed', { uid: 'a1', failureCount: '0', index: '1' }),
      tracked('Running', { uid: 'a2', failureCount: '1', index: '1' }),
    ],
    wantRmFinalizers: 1,
    wantStatusUpdates: [
      { active: 1, uncountedTerminatedPods: u(undefined, ['a1']), failedIndexes: '' },
      { active: 1, failed: 1, uncountedTerminatedPods: {}, failedIndexes: '' },
    ],
  },
  {
    name: 'indexed job with a failed pod for a failed index; the pod is counted',
    job: { spec: { completionMode: 'Indexed', completions: 6, backoffLimitPerIndex: 1 } },
    pods: [tracked('Failed', { uid: 'a', failureCount: '1', index: '1' })],
    wantRmFinalizers: 1,
    wantStatusUpdates: [
      { failedIndexes: '1', uncountedTerminatedPods: u(undefined, ['a']) },
      { failed: 1, failedIndexes: '1', uncountedTerminatedPods: {} },
    ],
  },
];

/** A status as compared: conditions by type, status, reason and message; completionTime as 'set'. */
function comparable(status: JobStatus): JobStatus {
  const out: JobStatus = { ...status };
  if (out.conditions !== undefined) {
    out.conditions = out.conditions.map(({ type, status: st, reason, message }) => ({
      type,
      status: st,
      ...(reason === undefined ? {} : { reason }),
      ...(message === undefined ? {} : { message }),
    }));
  }
  if (out.completionTime !== undefined) out.completionTime = 'set';
  return out;
}

describe('trackJobStatusAndRemoveFinalizers (TestTrackJobStatusAndRemoveFinalizers)', () => {
  for (const tc of CASES) {
    it(tc.name, async () => {
      const h = await harness('in-process');
      const patches: string[] = [];
      const podControl: PodControlInterface = {
        createPods: async () => {},
        createPodsWithGenerateName: async () => {},
        deletePod: async () => {},
        patchPod: async (_ns, _name, data) => {
          patches.push(data);
          if (tc.podControlErr) throw new Error('mock error');
        },
      };
      const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
      const jc = new JobController({ factory, client: h.client, clock: h.server.clock, podControl });
      const updates: JobStatus[] = [];
      jc.updateStatusHandler = async (job) => {
        updates.push(structuredClone(job.status ?? {}));
        if (tc.statusUpdateErr) throw new Error('mock error');
        return job;
      };
      const job: Job = {
        metadata: {
          name: 'foobar',
          namespace: 'default',
          uid: 'job-uid',
          ...(tc.job?.deleting ? { deletionTimestamp: '0001-01-01T00:00:00Z' } : {}),
        },
        spec: { template: {}, ...(tc.job?.spec ?? {}) },
        status: structuredClone(tc.job?.status ?? {}),
      };
      job.status = job.status ?? {};
      job.status.uncountedTerminatedPods ??= {};
      const pods = tc.pods ?? [];
      const activePods = filterActivePods(pods);
      const completions = job.spec?.completions ?? 0;
      const ctx: SyncJobCtx = {
        job,
        pods,
        finishedCondition: tc.finishedCond === undefined ? undefined : structuredClone(tc.finishedCond),
        activePods,
        succeeded: 0,
        failed: 0,
        prevSucceededIndexes: [],
        succeededIndexes:
          job.spec?.completionMode === 'Indexed'
            ? parseIndexesFromString(job.status.completedIndexes ?? '', completions)
            : [],
        failedIndexes: undefined,
        newBackoffRecord: { key: 'default/foobar', failuresAfterLastSuccess: 0, lastFailureTime: undefined },
        expectedRmFinalizers: tc.expectedRmFinalizers === undefined ? undefined : new Set(tc.expectedRmFinalizers),
        uncounted: {
          succeeded: new Set(job.status.uncountedTerminatedPods.succeeded ?? []),
          failed: new Set(job.status.uncountedTerminatedPods.failed ?? []),
        },
        podsWithDelayedDeletionPerIndex: undefined,
        terminating: countTerminatingPods(pods),
        ready: 0,
      };
      if (job.spec?.completionMode === 'Indexed' && job.spec.backoffLimitPerIndex !== undefined) {
        ctx.failedIndexes = calculateFailedIndexes(job, pods);
        ctx.podsWithDelayedDeletionPerIndex = getPodsWithDelayedDeletionPerIndex(ctx);
      }
      let error: unknown;
      try {
        await jc.trackJobStatusAndRemoveFinalizers(ctx, tc.needsFlush ?? false);
      } catch (err) {
        error = err;
      }
      expect(error !== undefined).toBe(tc.wantErr ?? false);
      expect(updates.map(comparable)).toEqual(tc.wantStatusUpdates.map(comparable));
      expect(patches).toHaveLength(tc.wantRmFinalizers ?? 0);
      await jc.stop();
      await factory.shutdown();
    });
  }
});
