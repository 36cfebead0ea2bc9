/**
 * TestSyncJobWithJobPodFailurePolicy (job_controller_test.go): one syncJob of a Job with a pod
 * failure policy and the pods given, on the in-process apiserver. With 1.32's gates the terminal
 * condition waits for deleted pods (the "JobManagedBy enabled" variants' expectations).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Job, JobCondition, JobSpec, PodFailurePolicyRule } from '../../api/types/batch/v1.js';
import type { ContainerStatus, Pod, PodStatus } from '../../api/types/core/v1.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { JOB_COMPLETION_INDEX_ANNOTATION } from './indexed-job-utils.js';
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
        ...(spec.completionMode === 'Indexed' ? { annotations: { [JOB_COMPLETION_INDEX_ANNOTATION]: String(i) } } : {}),
        finalizers: [JOB_TRACKING_FINALIZER],
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
