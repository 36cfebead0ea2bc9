/**
 * TestSyncJobWithJobPodFailurePolicy, TestSyncJobWithJobBackoffLimitPerIndex and
 * TestSyncJobWithJobSuccessPolicy (job_controller_test.go): one syncJob of a Job with the pods
 * given, on the in-process apiserver. With 1.32's gates the terminal condition waits for deleted
 * pods (the "JobManagedBy / JobPodReplacementPolicy enabled" variants' expectations); the cases
 * with a gate disabled are not ported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Job, JobCondition, JobSpec, PodFailurePolicyRule } from '../../api/types/batch/v1.js';
import type { ContainerStatus, Pod, PodStatus } from '../../api/types/core/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { JOB_COMPLETION_INDEX_ANNOTATION, JOB_INDEX_FAILURE_COUNT_ANNOTATION } from './indexed-job-utils.js';
import { JobController } from './job-controller.js';
import { JOB_TRACKING_FINALIZER } from './tracking-utils.js';

const NS = 'default';
const JOB = 'foobar';

const stopping: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stopping.splice(0)) await stop();
});

const cs = (name: string, exitCode: number, finishedAt?: string): ContainerStatus => ({
  name,
  image: 'foo/bar',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode, ...(finishedAt === undefined ? {} : { finishedAt }) } },
});

interface PodDesc {
  status: PodStatus;
  deleting?: boolean;
  /** The completion index (an Indexed Job's pod i has index i unless told). */
  index?: string;
  failureCount?: string;
  /** The tracking finalizer (default: there). */
  finalizer?: boolean;
}

/** The job and its pods mypod-<i> (the tracking finalizer; an Indexed Job's pod i has index i); one sync an hour later. */
async function syncOnce(spec: Partial<JobSpec>, pods: PodDesc[], status?: Job['status']) {
  const h = await harness('in-process');
  let job = await h.client.create(RESOURCES.jobs, NS, {
    metadata: { name: JOB },
    spec: {
      template: {
        metadata: { labels: { foo: 'bar' } },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
      },
      ...spec,
    },
  } as Job);
  if (status !== undefined) job = await h.client.updateStatus(RESOURCES.jobs, NS, { ...job, status });
  for (const [i, p] of pods.entries()) {
    const created = await h.client.create(RESOURCES.pods, NS, {
      metadata: {
        name: `mypod-${i}`,
        labels: { ...(job.spec?.template.metadata?.labels ?? {}) },
        annotations: {
          ...(spec.completionMode === 'Indexed' ? { [JOB_COMPLETION_INDEX_ANNOTATION]: p.index ?? String(i) } : {}),
          ...(p.failureCount === undefined ? {} : { [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: p.failureCount }),
        },
        ...(p.finalizer === false ? {} : { finalizers: [JOB_TRACKING_FINALIZER] }),
        ownerReferences: [
          {
            apiVersion: 'batch/v1',
            kind: 'Job',
            name: JOB,
            uid: job.metadata?.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
    } as Pod);
    await h.client.updateStatus(RESOURCES.pods, NS, { ...created, status: p.status });
  }
  // The pods' creation (their finish time when nothing else tells it) is an hour ago: no back-off from it.
  h.server.clock.advance(3600_000);
  for (const [i, p] of pods.entries()) if (p.deleting) await h.client.delete(RESOURCES.pods, NS, `mypod-${i}`);
  const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const jc = new JobController({ factory, client: h.client, clock: h.server.clock });
  factory.start();
  await jc.run(0);
  stopping.push(async () => {
    await jc.stop();
    await factory.shutdown();
  });
  await jc.syncJob(`${NS}/${JOB}`);
  return h.client.get(RESOURCES.jobs, NS, JOB);
}

type Cond = Pick<JobCondition, 'type' | 'status'> & { reason?: string | undefined; message?: string | undefined };
const conds = (job: Job): Cond[] =>
  (job.status?.conditions ?? []).map(({ type, status, reason, message }) => ({ type, status, reason, message }));
const pfp = (type: string, message: string): Cond => ({ type, status: 'True', reason: 'PodFailurePolicy', message });
const backoff = (type: string): Cond => ({
  type,
  status: 'True',
  reason: 'BackoffLimitExceeded',
  message: 'Job has reached the specified backoff limit',
});

const onExitCodeRules: PodFailurePolicyRule[] = [
  { action: 'Ignore', onExitCodes: { operator: 'In', values: [1, 2, 3] } },
  { action: 'FailJob', onExitCodes: { operator: 'In', values: [5, 6, 7] } },
];
const OLD = '2024-01-01T00:00:00Z';
const failed = (...statuses: ContainerStatus[]): PodDesc => ({
  status: { phase: 'Failed', containerStatuses: statuses },
});
const msg0 =
  'Container main-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1';

interface Case {
  name: string;
  spec: Partial<JobSpec>;
  status?: Job['status'];
  pods: PodDesc[];
  wantConditions: Cond[];
  wantActive: number;
  wantFailed: number;
  wantSucceeded?: number;
}

const one = { parallelism: 1, completions: 1 };
const CASES: Case[] = [
  {
    name: 'default handling for pod failure if the container matching the exit codes does not match the containerName restriction',
    spec: {
      ...one,
      backoffLimit: 6,
      podFailurePolicy: {
        rules: [
          { action: 'Ignore', onExitCodes: { containerName: 'main-container', operator: 'In', values: [1, 2, 3] } },
          { action: 'FailJob', onExitCodes: { containerName: 'main-container', operator: 'In', values: [5, 6, 7] } },
        ],
      },
    },
    pods: [failed(cs('monitoring-container', 5), cs('main-container', 42, OLD))],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 1,
  },
  {
    name: 'running pod should not result in job fail based on OnExitCodes',
    spec: { ...one, backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [{ status: { phase: 'Running', containerStatuses: [cs('main-container', 5)] } }],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 0,
  },
  {
    name: 'fail job based on OnExitCodes',
    spec: { ...one, backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [failed(cs('main-container', 5))],
    wantConditions: [pfp('FailureTarget', msg0), pfp('Failed', msg0)],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'job marked already as failure target with failed pod',
    spec: { ...one, backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    status: { conditions: [{ type: 'FailureTarget', status: 'True', reason: 'PodFailurePolicy', message: msg0 }] },
    pods: [failed(cs('main-container', 5))],
    wantConditions: [pfp('FailureTarget', msg0), pfp('Failed', msg0)],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'job marked already as failure target with failed pod, message based on already deleted pod',
    spec: { ...one, backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    status: {
      conditions: [
        pfp(
          'FailureTarget',
          'Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1',
        ) as JobCondition,
      ],
    },
    pods: [failed(cs('main-container', 5))],
    wantConditions: [
      pfp(
        'FailureTarget',
        'Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1',
      ),
      pfp(
        'Failed',
        'Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1',
      ),
    ],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'fail job with multiple pods (the terminal condition delayed)',
    spec: { parallelism: 2, completions: 2, backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [{ status: { phase: 'Running' } }, failed(cs('main-container', 5))],
    wantConditions: [
      pfp(
        'FailureTarget',
        'Container main-container for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 1',
      ),
    ],
    wantActive: 0,
    wantFailed: 2,
  },
  {
    name: 'fail indexed job based on OnExitCodes',
    spec: { ...one, completionMode: 'Indexed', backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [failed(cs('main-container', 5))],
    wantConditions: [pfp('FailureTarget', msg0), pfp('Failed', msg0)],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'fail job based on OnExitCodes with NotIn operator',
    spec: {
      ...one,
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [5, 6, 7] } }] },
    },
    pods: [failed(cs('main-container', 42))],
    wantConditions: [
      pfp(
        'FailureTarget',
        'Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob rule at index 0',
      ),
      pfp(
        'Failed',
        'Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob rule at index 0',
      ),
    ],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'default handling job based on OnExitCodes with NotIn operator',
    spec: {
      ...one,
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [5, 6, 7] } }] },
    },
    pods: [failed(cs('main-container', 5, OLD))],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 1,
  },
  {
    name: 'fail job based on OnExitCodes for InitContainer',
    spec: { ...one, backoffLimit: 6, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [
      {
        status: {
          phase: 'Failed',
          initContainerStatuses: [cs('init-container', 5)],
          containerStatuses: [cs('main-container', 143)],
        },
      },
    ],
    wantConditions: [
      pfp(
        'FailureTarget',
        'Container init-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1',
      ),
      pfp(
        'Failed',
        'Container init-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1',
      ),
    ],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'ignore pod failure; both rules are matching, the first is executed only',
    spec: { ...one, backoffLimit: 0, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [failed(cs('container1', 2), cs('container2', 6))],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 0,
  },
  {
    name: 'ignore pod failure based on OnExitCodes',
    spec: { ...one, backoffLimit: 0, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [failed(cs('', 1))],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 0,
  },
  {
    name: 'default job based on OnExitCodes (FailureTarget first)',
    spec: { ...one, backoffLimit: 0, podFailurePolicy: { rules: onExitCodeRules } },
    pods: [failed(cs('', 10))],
    wantConditions: [backoff('FailureTarget'), backoff('Failed')],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'count pod failure based on OnExitCodes; both rules are matching, the first is executed only',
    spec: {
      ...one,
      backoffLimit: 6,
      podFailurePolicy: {
        rules: [
          { action: 'Count', onExitCodes: { operator: 'In', values: [1, 2] } },
          { action: 'Ignore', onExitCodes: { operator: 'In', values: [2, 3] } },
        ],
      },
    },
    pods: [failed(cs('', 2, OLD))],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 1,
  },
  {
    name: 'count pod failure based on OnPodConditions; both rules are matching, the first is executed only',
    spec: {
      ...one,
      backoffLimit: 6,
      podFailurePolicy: {
        rules: [
          { action: 'Count', onPodConditions: [{ type: 'ResourceLimitExceeded', status: 'True' }] },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ],
      },
    },
    pods: [
      {
        status: {
          phase: 'Failed',
          conditions: [
            { type: 'ResourceLimitExceeded', status: 'True' },
            { type: 'DisruptionTarget', status: 'True' },
          ],
          containerStatuses: [cs('', 0, OLD)],
        },
      },
    ],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 1,
  },
  {
    name: 'ignore pod failure based on OnPodConditions',
    spec: {
      ...one,
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
    },
    pods: [{ status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] } }],
    wantConditions: [],
    wantActive: 1,
    wantFailed: 0,
  },
  {
    name: 'ignore pod failure based on OnPodConditions, ignored failures delays pod recreation',
    spec: {
      ...one,
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
    },
    pods: [{ deleting: true, status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] } }],
    wantConditions: [],
    wantActive: 0,
    wantFailed: 0,
  },
  {
    name: 'fail job based on OnPodConditions',
    spec: {
      ...one,
      backoffLimit: 6,
      podFailurePolicy: {
        rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
    },
    pods: [{ status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] } }],
    wantConditions: [
      pfp('FailureTarget', 'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0'),
      pfp('Failed', 'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0'),
    ],
    wantActive: 0,
    wantFailed: 1,
  },
  {
    name: 'terminating Pod not considered failed when JobPodFailurePolicy is enabled and used',
    spec: {
      parallelism: 1,
      backoffLimit: 0,
      podFailurePolicy: {
        rules: [{ action: 'Count', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
    },
    pods: [{ deleting: true, status: { phase: 'Pending' } }],
    wantConditions: [],
    wantActive: 0,
    wantFailed: 0,
  },
];

describe('syncJob with a pod failure policy (TestSyncJobWithJobPodFailurePolicy)', () => {
  for (const tc of CASES) {
    it(tc.name, async () => {
      const job = await syncOnce(tc.spec, tc.pods, tc.status);
      expect(conds(job)).toEqual(tc.wantConditions);
      expect(job.status?.active ?? 0).toBe(tc.wantActive);
      expect(job.status?.failed ?? 0).toBe(tc.wantFailed);
      expect(job.status?.succeeded ?? 0).toBe(tc.wantSucceeded ?? 0);
    });
  }
});

const MAX_INT32 = 2147483647;
const cond = (type: string, reason: string, message: string): Cond => ({ type, status: 'True', reason, message });
const M0 = 'Matched rules at index 0';
const p = (phase: NonNullable<PodStatus['phase']>, index: string, o: Partial<PodDesc> = {}): PodDesc => ({
  status: { phase },
  index,
  ...o,
});
const disrupted = (index: string, o: Partial<PodDesc> = {}): PodDesc => ({
  status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True' }] },
  index,
  ...o,
});

interface StatusCase {
  name: string;
  spec: Partial<JobSpec>;
  status?: Job['status'];
  pods: PodDesc[];
  want: {
    active?: number;
    failed?: number;
    succeeded?: number;
    terminating?: number;
    completedIndexes?: string;
    failedIndexes?: string;
    conditions?: Cond[];
  };
}

const perIndex = {
  parallelism: 2,
  completions: 2,
  backoffLimit: MAX_INT32,
  completionMode: 'Indexed' as const,
  backoffLimitPerIndex: 1,
};
const BACKOFF_LIMIT_PER_INDEX_CASES: StatusCase[] = [
  {
    name: 'successful job after a single failure within index',
    spec: perIndex,
    pods: [
      p('Failed', '0', { failureCount: '0' }),
      p('Succeeded', '0', { failureCount: '1' }),
      p('Succeeded', '1', { failureCount: '0' }),
    ],
    want: {
      failed: 1,
      succeeded: 2,
      terminating: 0,
      completedIndexes: '0,1',
      failedIndexes: '',
      conditions: [
        cond('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'),
        cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'),
      ],
    },
  },
  {
    name: 'single failed pod, not counted as the replacement pod creation is delayed',
    spec: perIndex,
    pods: [p('Failed', '0', { failureCount: '0' })],
    want: { active: 2, terminating: 0, failedIndexes: '' },
  },
  {
    name: 'single failed pod replaced already',
    spec: perIndex,
    pods: [p('Failed', '0', { failureCount: '0' }), p('Pending', '0', { failureCount: '1' })],
    want: { active: 2, failed: 1, terminating: 0, failedIndexes: '' },
  },
  {
    name: 'single failed index due to exceeding the backoff limit per index, the job continues',
    spec: perIndex,
    pods: [p('Failed', '0', { failureCount: '1' })],
    want: { active: 1, failed: 1, failedIndexes: '0', terminating: 0 },
  },
  {
    name: 'single failed index due to FailIndex action, the job continues',
    spec: {
      ...perIndex,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [3] } }] },
    },
    pods: [{ status: { phase: 'Failed', containerStatuses: [cs('', 3)] }, index: '0', failureCount: '0' }],
    want: { active: 1, failed: 1, failedIndexes: '0', terminating: 0 },
  },
  {
    name: 'job failed index due to FailJob action',
    spec: {
      ...perIndex,
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3] } }] },
    },
    pods: [{ status: { phase: 'Failed', containerStatuses: [cs('x', 3)] }, index: '0', failureCount: '0' }],
    want: {
      active: 0,
      failed: 1,
      failedIndexes: '',
      terminating: 0,
      conditions: [
        cond(
          'FailureTarget',
          'PodFailurePolicy',
          'Container x for pod default/mypod-0 failed with exit code 3 matching FailJob rule at index 0',
        ),
        cond(
          'Failed',
          'PodFailurePolicy',
          'Container x for pod default/mypod-0 failed with exit code 3 matching FailJob rule at index 0',
        ),
      ],
    },
  },
  {
    name: 'job pod failure ignored due to matching Ignore action',
    spec: {
      ...perIndex,
      backoffLimit: 6,
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [3] } }] },
    },
    pods: [{ status: { phase: 'Failed', containerStatuses: [cs('x', 3)] }, index: '0', failureCount: '0' }],
    want: { active: 2, failed: 0, failedIndexes: '', terminating: 0 },
  },
  {
    name: 'job failed due to exceeding backoffLimit before backoffLimitPerIndex',
    spec: { ...perIndex, backoffLimit: 1 },
    pods: [p('Failed', '0', { failureCount: '0' }), p('Failed', '1', { failureCount: '0' })],
    want: {
      failed: 2,
      succeeded: 0,
      failedIndexes: '',
      terminating: 0,
      conditions: [
        cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
        cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
      ],
    },
  },
  {
    name: 'job failed due to failed indexes',
    spec: perIndex,
    pods: [p('Failed', '0', { failureCount: '1' }), p('Succeeded', '1', { failureCount: '0' })],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      failedIndexes: '0',
      completedIndexes: '1',
      conditions: [
        cond('FailureTarget', 'FailedIndexes', 'Job has failed indexes'),
        cond('Failed', 'FailedIndexes', 'Job has failed indexes'),
      ],
    },
  },
  {
    name: 'job failed due to exceeding max failed indexes',
    spec: { ...perIndex, parallelism: 4, completions: 4, maxFailedIndexes: 1 },
    pods: [
      p('Failed', '0', { failureCount: '1' }),
      p('Succeeded', '1', { failureCount: '0' }),
      p('Failed', '2', { failureCount: '1' }),
      p('Running', '3', { failureCount: '0' }),
    ],
    want: {
      failed: 3,
      succeeded: 1,
      terminating: 1,
      failedIndexes: '0,2',
      completedIndexes: '1',
      conditions: [
        cond(
          'FailureTarget',
          'MaxFailedIndexesExceeded',
          'Job has exceeded the specified maximal number of failed indexes',
        ),
      ],
    },
  },
];

const successPolicy = { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] };
const disruptionFailJob = {
  rules: [{ action: 'FailJob' as const, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' as const }] }],
};
const METS = (): Job['status'] => ({
  conditions: [{ type: 'SuccessCriteriaMet', status: 'True', reason: 'SuccessPolicy', message: M0 }],
});
const SUCCESS_POLICY_CASES: StatusCase[] = [
  {
    name: 'job has SuccessCriteriaMet condition if job meets to successPolicy and some indexes fail',
    spec: { completionMode: 'Indexed', parallelism: 3, completions: 3, backoffLimit: MAX_INT32, successPolicy },
    pods: [p('Failed', '0'), p('Running', '0'), p('Succeeded', '1'), p('Running', '2')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 2,
      completedIndexes: '1',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0)],
    },
  },
  {
    name: "job with podFailurePolicy and successPolicy has SuccessCriteriaMet if it meets successPolicy and doesn't meet podFailurePolicy",
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      successPolicy,
      podFailurePolicy: disruptionFailJob,
    },
    pods: [p('Failed', '0'), p('Running', '0'), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 1,
      completedIndexes: '1',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0)],
    },
  },
  {
    name: "job with backoffLimitPerIndex and successPolicy has SuccessCriteriaMet if it meets successPolicy and doesn't meet backoffLimitPerIndex",
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      backoffLimitPerIndex: 2,
      successPolicy,
    },
    pods: [p('Failed', '0'), p('Running', '0'), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 1,
      completedIndexes: '1',
      failedIndexes: '',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0)],
    },
  },
  {
    name: 'job has both Complete and SuccessCriteriaMet condition when job meets to successPolicy and all pods have been already removed',
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      backoffLimitPerIndex: 2,
      successPolicy,
    },
    status: METS(),
    pods: [p('Failed', '0'), p('Succeeded', '1')],
    // Go's case runs with JobBackoffLimitPerIndex off (no failedIndexes); on in 1.32, "" is written.
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      failedIndexes: '',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0), cond('Complete', 'SuccessPolicy', M0)],
    },
  },
  {
    name: 'job has SuccessCriteriaMet condition when job meets to successPolicy and some pods still are running',
    spec: {
      completionMode: 'Indexed',
      parallelism: 3,
      completions: 3,
      backoffLimit: MAX_INT32,
      backoffLimitPerIndex: 3,
      successPolicy,
    },
    status: METS(),
    pods: [p('Failed', '0'), p('Running', '1'), p('Succeeded', '1'), p('Running', '2')],
    // As above: failedIndexes "" with JobBackoffLimitPerIndex on.
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 2,
      completedIndexes: '1',
      failedIndexes: '',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0)],
    },
  },
  {
    name: 'job with successPolicy and podFailurePolicy has a failed condition when job meets to both successPolicy and podFailurePolicy',
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      successPolicy,
      podFailurePolicy: disruptionFailJob,
    },
    pods: [disrupted('0'), p('Running', '0'), p('Succeeded', '1')],
    want: {
      failed: 2,
      succeeded: 1,
      terminating: 1,
      completedIndexes: '1',
      conditions: [
        cond(
          'FailureTarget',
          'PodFailurePolicy',
          'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0',
        ),
      ],
    },
  },
  {
    name: 'job with successPolicy and backoffLimitPerIndex has a failed condition when job meets to both successPolicy and backoffLimitPerIndex',
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      backoffLimitPerIndex: 1,
      successPolicy,
    },
    pods: [p('Failed', '0', { failureCount: '1' }), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      failedIndexes: '0',
      conditions: [
        cond('FailureTarget', 'FailedIndexes', 'Job has failed indexes'),
        cond('Failed', 'FailedIndexes', 'Job has failed indexes'),
      ],
    },
  },
  {
    name: 'job with successPolicy and backoffLimit has a failed condition when job meets to both successPolicy and backoffLimit',
    spec: { completionMode: 'Indexed', parallelism: 2, completions: 2, backoffLimit: 1, successPolicy },
    pods: [p('Failed', '0'), p('Failed', '0'), p('Succeeded', '1')],
    want: {
      failed: 2,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      conditions: [
        cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
        cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
      ],
    },
  },
  {
    name: 'job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets podFailurePolicy',
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      successPolicy: { rules: [{ succeededCount: 1 }] },
      podFailurePolicy: disruptionFailJob,
    },
    status: { succeeded: 1, terminating: 0, completedIndexes: '1', ...METS() },
    pods: [disrupted('0'), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0), cond('Complete', 'SuccessPolicy', M0)],
    },
  },
  {
    name: 'job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meet backoffLimitPerIndex',
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      backoffLimitPerIndex: 1,
      successPolicy: { rules: [{ succeededIndexes: '1' }] },
    },
    status: { succeeded: 1, terminating: 0, completedIndexes: '1', ...METS() },
    pods: [p('Failed', '0', { failureCount: '1' }), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      failedIndexes: '0',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0), cond('Complete', 'SuccessPolicy', M0)],
    },
  },
  {
    name: 'job with SuccessCriteriaMet has never been transitioned to FailureTarget and Failed even if job meets backoffLimit',
    spec: { completionMode: 'Indexed', parallelism: 2, completions: 2, backoffLimit: 1, successPolicy },
    status: { succeeded: 1, terminating: 0, completedIndexes: '1', ...METS() },
    pods: [p('Failed', '0'), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', M0), cond('Complete', 'SuccessPolicy', M0)],
    },
  },
  {
    name: 'job with FailureTarget has never been transitioned to SuccessCriteriaMet even if job meets successPolicy',
    spec: {
      completionMode: 'Indexed',
      parallelism: 2,
      completions: 2,
      backoffLimit: MAX_INT32,
      successPolicy,
      podFailurePolicy: disruptionFailJob,
    },
    status: {
      failed: 1,
      terminating: 0,
      completedIndexes: '1',
      conditions: [
        {
          type: 'FailureTarget',
          status: 'True',
          reason: 'PodFailurePolicy',
          message: 'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0',
        },
      ],
    },
    pods: [disrupted('0', { finalizer: false }), p('Succeeded', '1')],
    want: {
      failed: 1,
      succeeded: 1,
      terminating: 0,
      completedIndexes: '1',
      conditions: [
        cond(
          'FailureTarget',
          'PodFailurePolicy',
          'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0',
        ),
        cond(
          'Failed',
          'PodFailurePolicy',
          'Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0',
        ),
      ],
    },
  },
  {
    name: 'job without successPolicy got SuccessCriteriaMet and Complete with CompletionsReached reason conditions',
    spec: { completionMode: 'Indexed', parallelism: 1, completions: 1, backoffLimit: MAX_INT32 },
    pods: [p('Succeeded', '0')],
    want: {
      failed: 0,
      succeeded: 1,
      completedIndexes: '0',
      conditions: [
        cond('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'),
        cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'),
      ],
    },
  },
];

for (const [title, cases] of [
  ['syncJob with backoffLimitPerIndex (TestSyncJobWithJobBackoffLimitPerIndex)', BACKOFF_LIMIT_PER_INDEX_CASES],
  ['syncJob with a success policy (TestSyncJobWithJobSuccessPolicy)', SUCCESS_POLICY_CASES],
] as const) {
  describe(title, () => {
    for (const tc of cases) {
      it(tc.name, async () => {
        const job = await syncOnce(tc.spec, tc.pods, tc.status);
        const s = job.status ?? {};
        expect({
          active: s.active ?? 0,
          failed: s.failed ?? 0,
          succeeded: s.succeeded ?? 0,
          completedIndexes: s.completedIndexes ?? '',
          failedIndexes: s.failedIndexes,
          conditions: conds(job),
        }).toEqual({
          active: tc.want.active ?? 0,
          failed: tc.want.failed ?? 0,
          succeeded: tc.want.succeeded ?? 0,
          completedIndexes: tc.want.completedIndexes ?? '',
          failedIndexes: tc.want.failedIndexes,
          conditions: tc.want.conditions ?? [],
        });
        if (tc.want.terminating !== undefined) expect(s.terminating).toBe(tc.want.terminating);
      });
    }
  });
}
