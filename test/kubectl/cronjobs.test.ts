/**
 * kubernetes.io's "Running Automated Tasks with a CronJob" page (tasks/job/automated-tasks-with-cron-jobs),
 * run with the real kubectl v1.32 against `kubewasm up`: the hello CronJob (`*\/1 * * * *`) is
 * created and `kubectl get cronjob` shows it as on a real cluster (SCHEDULE, TIMEZONE, SUSPEND,
 * ACTIVE, LAST SCHEDULE); a Job made from it with `kubectl create job --from=cronjob/hello` runs to
 * completion; deleting the CronJob deletes its Jobs. `kubewasm up` runs on the real clock, so the
 * test does not wait a minute for the schedule: ts/controllers/cronjob's tests drive it on the
 * in-process apiserver's virtual clock. No kubelet runs pods yet: the test ends them as a kubelet
 * would report it (test/testing/workloads.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { finishPods } from '../testing/workloads.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const ok = (...args: string[]): string => cluster.kubectlOk(...args);

// content/en/examples/application/job/cronjob.yaml of kubernetes/website.
const HELLO_CRONJOB = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox:1.28
            imagePullPolicy: IfNotPresent
            command:
            - /bin/sh
            - -c
            - date; echo Hello from the Kubernetes cluster
          restartPolicy: OnFailure
`;

describe.skipIf(!hasKubectl)('the CronJob task page with kubectl', () => {
  beforeAll(() => cluster.start(), 60_000);
  afterAll(() => cluster.dispose());

  it('creates the hello CronJob and shows it', () => {
    expect(cluster.kubectlWithInput(HELLO_CRONJOB, 'create', '-f', '-').stdout).toBe('cronjob.batch/hello created\n');
    expect(ok('get', 'cronjob', 'hello')).toMatch(
      /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\nhello\s+\* \* \* \* \*\s+<none>\s+False\s+\d+\s+(<none>|\d+s)\s+\d+s\n$/,
    );
    expect(
      ok(
        'get',
        'cronjob',
        'hello',
        '-o',
        'jsonpath={.spec.concurrencyPolicy} {.spec.suspend} {.spec.successfulJobsHistoryLimit} {.spec.failedJobsHistoryLimit}',
      ),
    ).toBe('Allow false 3 1');
  });

  it('runs a Job made from it with kubectl create job --from', async () => {
    expect(ok('create', 'job', '--from=cronjob/hello', 'hello-manual')).toBe('job.batch/hello-manual created\n');
    expect(
      ok(
        'get',
        'job',
        'hello-manual',
        '-o',
        'jsonpath={.metadata.annotations.cronjob\\.kubernetes\\.io/instantiate} {.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} {.spec.template.spec.containers[0].image}',
      ),
    ).toBe('manual CronJob/hello busybox:1.28');
    await until(() => ok('get', 'pods', '-l', 'batch.kubernetes.io/job-name=hello-manual', '-o', 'name').trim() !== '');
    const waiting = cluster.kubectlAsync('wait', '--for=condition=complete', 'job/hello-manual', '--timeout=30s');
    expect(await finishPods(cluster, 'default', 'batch.kubernetes.io/job-name=hello-manual', 'Succeeded')).toBe(1);
    expect((await waiting).stdout).toBe('job.batch/hello-manual condition met\n');
    expect(ok('get', 'job', 'hello-manual')).toMatch(
      /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nhello-manual\s+Complete\s+1\/1\s+\d+s\s+\d+s\n$/,
    );
  });

  it('deletes the CronJob and, through the garbage collector, its Jobs', async () => {
    expect(ok('delete', 'cronjob', 'hello')).toBe('cronjob.batch "hello" deleted\n');
    await until(() => kubectl('get', 'job', 'hello-manual').status !== 0);
    expect(kubectl('get', 'job', 'hello-manual').stderr).toBe(
      'Error from server (NotFound): jobs.batch "hello-manual" not found\n',
    );
  });
});
