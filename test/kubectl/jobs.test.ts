/**
 * kubernetes.io's "Jobs" page (concepts/workloads/controllers/job), run with the real kubectl
 * v1.32 against `kubewasm up`: the pi Job runs to completion, `kubectl wait` sees it, get and
 * describe show what they show on a real cluster; a Job whose pod fails with backoffLimit 0 ends
 * Failed with BackoffLimitExceeded; an Indexed Job's pods carry their completion index; a
 * finished Job with ttlSecondsAfterFinished is deleted. No kubelet runs pods yet: the test ends
 * them as a kubelet would report it (test/testing/workloads.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { finishPods } from '../testing/workloads.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

// content/en/examples/controllers/job.yaml of kubernetes/website.
const PI_JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl",  "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
  backoffLimit: 4
`;

/** The names of the live pods matching `selector`. */
const podNames = (selector: string): string[] =>
  ok('get', 'pods', '-l', selector, '-o', 'jsonpath={.items[*].metadata.name}')
    .split(' ')
    .filter((n) => n !== '');

describe.skipIf(!hasKubectl)('the Jobs page with kubectl', () => {
  beforeAll(() => cluster.start(), 60_000);
  afterAll(() => cluster.dispose());

  it('runs the pi Job to completion', async () => {
    expect(cluster.kubectlWithInput(PI_JOB, 'apply', '-f', '-').stdout).toBe('job.batch/pi created\n');
    await until(() => podNames('batch.kubernetes.io/job-name=pi').length === 1);
    const [pod] = podNames('batch.kubernetes.io/job-name=pi');
    expect(pod).toMatch(/^pi-[a-z0-9]{5}$/);
    expect(ok('get', 'pod', pod ?? '', '-o', 'jsonpath={.metadata.finalizers}')).toBe(
      '["batch.kubernetes.io/job-tracking"]',
    );
    const waiting = cluster.kubectlAsync('wait', '--for=condition=complete', 'job/pi', '--timeout=30s');
    expect(await finishPods(cluster, 'default', 'batch.kubernetes.io/job-name=pi', 'Succeeded')).toBe(1);
    const waited = await waiting;
    expect(waited.stdout).toBe('job.batch/pi condition met\n');
    expect(ok('get', 'job', 'pi')).toMatch(
      /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\npi\s+Complete\s+1\/1\s+\d+s\s+\d+s\n$/,
    );
    const described = ok('describe', 'job', 'pi');
    expect(described).toMatch(/^Pods Statuses:\s+0 Active \(0 Ready\) \/ 1 Succeeded \/ 0 Failed$/m);
    expect(described).toMatch(/Normal\s+SuccessfulCreate\s+\S+\s+job-controller\s+Created pod: pi-/);
    expect(described).toMatch(/Normal\s+Completed\s+\S+\s+job-controller\s+Job completed/);
    // The tracking finalizer is gone once the pod is counted.
    await until(() => ok('get', 'pod', pod ?? '', '-o', 'jsonpath={.metadata.finalizers}') === '');
  });

  it('fails a Job whose pod fails with backoffLimit 0', async () => {
    const failing = PI_JOB.replace('name: pi\n', 'name: fails\n').replace('backoffLimit: 4', 'backoffLimit: 0');
    expect(cluster.kubectlWithInput(failing, 'apply', '-f', '-').stdout).toBe('job.batch/fails created\n');
    await until(() => podNames('batch.kubernetes.io/job-name=fails').length === 1);
    const waiting = cluster.kubectlAsync('wait', '--for=condition=failed', 'job/fails', '--timeout=30s');
    expect(await finishPods(cluster, 'default', 'batch.kubernetes.io/job-name=fails', 'Failed')).toBe(1);
    expect((await waiting).stdout).toBe('job.batch/fails condition met\n');
    expect(
      ok('get', 'job', 'fails', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason} {.status.failed}'),
    ).toBe('BackoffLimitExceeded 1');
    expect(ok('get', 'job', 'fails')).toMatch(/^fails\s+Failed\s+0\/1\s+/m);
  });

  it('gives an Indexed Job a pod per index, with its completion index', async () => {
    const indexed = `apiVersion: batch/v1
kind: Job
metadata:
  name: indexed
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: worker
        image: busybox:1.36
        command: ["sh", "-c", "echo $JOB_COMPLETION_INDEX"]
`;
    expect(cluster.kubectlWithInput(indexed, 'apply', '-f', '-').stdout).toBe('job.batch/indexed created\n');
    await until(() => podNames('batch.kubernetes.io/job-name=indexed').length === 3);
    const indexes = ok(
      'get',
      'pods',
      '-l',
      'batch.kubernetes.io/job-name=indexed',
      '-o',
      'jsonpath={range .items[*]}{.metadata.labels.batch\\.kubernetes\\.io/job-completion-index}:{.spec.hostname}{"\\n"}{end}',
    )
      .trim()
      .split('\n')
      .sort();
    expect(indexes).toEqual(['0:indexed-0', '1:indexed-1', '2:indexed-2']);
    await finishPods(cluster, 'default', 'batch.kubernetes.io/job-name=indexed', 'Succeeded');
    await until(() => ok('get', 'job', 'indexed', '-o', 'jsonpath={.status.completedIndexes}') === '0-2');
  });

  it('deletes a finished Job ttlSecondsAfterFinished after it finished', async () => {
    const ttl = PI_JOB.replace('name: pi\n', 'name: short-lived\n').replace(
      'backoffLimit: 4',
      'backoffLimit: 4\n  ttlSecondsAfterFinished: 1',
    );
    cluster.kubectlWithInput(ttl, 'apply', '-f', '-');
    await until(() => podNames('batch.kubernetes.io/job-name=short-lived').length === 1);
    await finishPods(cluster, 'default', 'batch.kubernetes.io/job-name=short-lived', 'Succeeded');
    await until(() => kubectl('get', 'job', 'short-lived').status === 1, 15_000);
    expect(kubectl('get', 'job', 'short-lived').stderr).toBe(
      'Error from server (NotFound): jobs.batch "short-lived" not found\n',
    );
  });
});
