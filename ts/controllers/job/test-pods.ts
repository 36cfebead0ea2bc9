/**
 * Tests only: the hollow pods and jobs of job_controller_test.go (hollowPodsWithIndexPhase,
 * newJob), as plain objects for the pure functions' table tests.
 *
 *   const pods = hollowPodsWithIndexPhase([['0', 'Succeeded'], ['1', 'Running']]);
 */
import type { Job } from '../../api/types/batch/v1.js';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import { JOB_COMPLETION_INDEX_ANNOTATION } from './indexed-job-utils.js';
import { JOB_TRACKING_FINALIZER } from './tracking-utils.js';

/** noIndex: a pod without the completion index annotation. */
export const NO_INDEX = '-';

export type IndexPhase = readonly [index: string, phase: PodPhase];

/** hollowPodsWithIndexPhase: pod-<i>, with the index annotation unless NO_INDEX, and the tracking finalizer. */
export function hollowPodsWithIndexPhase(descs: readonly IndexPhase[], finalizer = true): Pod[] {
  return descs.map(([index, phase], i) => ({
    metadata: {
      name: `pod-${i}`,
      namespace: 'default',
      uid: `uid-${i}`,
      ...(index === NO_INDEX ? {} : { annotations: { [JOB_COMPLETION_INDEX_ANNOTATION]: index } }),
      ...(finalizer ? { finalizers: [JOB_TRACKING_FINALIZER] } : {}),
    },
    status: { phase },
  }));
}

/** newJob: parallelism, completions (negative: none), backoffLimit, completionMode. */
export function newJob(
  parallelism: number,
  completions: number,
  backoffLimit: number,
  mode: 'Indexed' | 'NonIndexed' = 'NonIndexed',
): Job {
  return {
    metadata: { name: 'foobar', namespace: 'default', uid: 'job-uid' },
    spec: {
      parallelism,
      ...(completions >= 0 ? { completions } : {}),
      backoffLimit,
      completionMode: mode,
      selector: { matchLabels: { foo: 'bar' } },
      template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: 'c', image: 'foo/bar' }] } },
    },
    status: {},
  };
}
