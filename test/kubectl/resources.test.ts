/**
 * The real kubectl (v1.32) against `kubewasm up` for the kinds beyond the first slice: apply -f of
 * every kind, `get` tables (plain and -o wide headers), api-resources with short names, scale of
 * statefulsets and replicasets, the typed `kubectl create` commands (protobuf bodies), `get all`,
 * the built-in PriorityClasses and an HPA read through both autoscaling versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);

const template = (app: string, restartPolicy?: string) => `  template:
    metadata:
      labels:
        app: ${app}
    spec:
${restartPolicy ? `      restartPolicy: ${restartPolicy}\n` : ''}      containers:
      - name: c
        image: nginx:1.27`;

const MANIFESTS = `apiVersion: v1
kind: Endpoints
metadata:
  name: ep1
subsets:
- addresses:
  - ip: 10.1.0.1
  ports:
  - port: 80
---
apiVersion: v1
kind: LimitRange
metadata:
  name: lr1
spec:
  limits:
  - type: Container
    max:
      cpu: "2"
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: rq1
spec:
  hard:
    pods: "10"
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: rs1
spec:
  replicas: 2
  selector:
    matchLabels:
      app: rs1
${template('rs1')}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ds1
spec:
  selector:
    matchLabels:
      app: ds1
${template('ds1')}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: sts1
spec:
  serviceName: sts1
  replicas: 1
  selector:
    matchLabels:
      app: sts1
${template('sts1')}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: job1
spec:
${template('job1', 'Never')}
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: cj1
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
${template('cj1', 'OnFailure')
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: lease1
spec:
  holderIdentity: me
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: slice1
addressType: IPv4
endpoints:
- addresses:
  - 10.1.0.1
ports:
- port: 80
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: hpa1
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: StatefulSet
    name: sts1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 70
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: pdb1
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: sts1
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: pc1
value: 1000
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: role1
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: rb1
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: role1
subjects:
- kind: User
  name: alice
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cr1
rules:
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: crb1
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: cr1
subjects:
- kind: Group
  name: devs
`;

/** The header line of a `kubectl get` table, split on its column gaps. */
function header(stdout: string): string[] {
  return (stdout.split('\n')[0] ?? '').trim().split(/\s{2,}/);
}

describe.skipIf(!hasKubectl)('kubectl with every served kind', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('applies a manifest of every new kind', () => {
    const res = cluster.kubectlWithInput(MANIFESTS, 'apply', '-f', '-');
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      'endpoints/ep1 created',
      'limitrange/lr1 created',
      'resourcequota/rq1 created',
      'replicaset.apps/rs1 created',
      'daemonset.apps/ds1 created',
      'statefulset.apps/sts1 created',
      'job.batch/job1 created',
      'cronjob.batch/cj1 created',
      'lease.coordination.k8s.io/lease1 created',
      'endpointslice.discovery.k8s.io/slice1 created',
      'horizontalpodautoscaler.autoscaling/hpa1 created',
      'poddisruptionbudget.policy/pdb1 created',
      'priorityclass.scheduling.k8s.io/pc1 created',
      'role.rbac.authorization.k8s.io/role1 created',
      'rolebinding.rbac.authorization.k8s.io/rb1 created',
      'clusterrole.rbac.authorization.k8s.io/cr1 created',
      'clusterrolebinding.rbac.authorization.k8s.io/crb1 created',
    ]);
    // A second apply changes nothing.
    const again = cluster.kubectlWithInput(MANIFESTS, 'apply', '-f', '-');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^statefulset\.apps\/sts1 unchanged$/m);
  });

  it.each([
    ['endpoints', ['NAME', 'ENDPOINTS', 'AGE'], ['NAME', 'ENDPOINTS', 'AGE']],
    ['limitranges', ['NAME', 'CREATED AT'], ['NAME', 'CREATED AT']],
    ['resourcequotas', ['NAME', 'REQUEST', 'LIMIT', 'AGE'], ['NAME', 'REQUEST', 'LIMIT', 'AGE']],
    [
      'replicasets',
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'],
    ],
    [
      'daemonsets',
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
      [
        'NAME',
        'DESIRED',
        'CURRENT',
        'READY',
        'UP-TO-DATE',
        'AVAILABLE',
        'NODE SELECTOR',
        'AGE',
        'CONTAINERS',
        'IMAGES',
        'SELECTOR',
      ],
    ],
    ['statefulsets', ['NAME', 'READY', 'AGE'], ['NAME', 'READY', 'AGE', 'CONTAINERS', 'IMAGES']],
    [
      'jobs',
      ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'],
      ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'],
    ],
    [
      'cronjobs',
      ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
      ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'],
    ],
    ['leases', ['NAME', 'HOLDER', 'AGE'], ['NAME', 'HOLDER', 'AGE']],
    [
      'endpointslices',
      ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
      ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
    ],
    [
      'horizontalpodautoscalers',
      ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'],
      ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'],
    ],
    [
      'poddisruptionbudgets',
      ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
      ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
    ],
    [
      'priorityclasses',
      ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'],
      ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'],
    ],
    ['roles', ['NAME', 'CREATED AT'], ['NAME', 'CREATED AT']],
    ['rolebindings', ['NAME', 'ROLE', 'AGE'], ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']],
    ['clusterroles', ['NAME', 'CREATED AT'], ['NAME', 'CREATED AT']],
    ['clusterrolebindings', ['NAME', 'ROLE', 'AGE'], ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']],
  ])('kubectl get %s prints the printers.go columns', (resource, plain, wide) => {
    const res = kubectl('get', resource);
    expect(res.status).toBe(0);
    expect(header(res.stdout)).toEqual(plain);
    const w = kubectl('get', resource, '-o', 'wide');
    expect(w.status).toBe(0);
    expect(header(w.stdout)).toEqual(wide);
  });

  it('prints the rows kubectl shows', async () => {
    // The replicaset-controller makes rs1's two pods (Pending: no kubelet), and CURRENT counts them.
    await until(() => kubectl('get', 'rs', 'rs1', '-o', 'jsonpath={.status.replicas}').stdout === '2');
    expect(kubectl('get', 'rs', 'rs1').stdout).toMatch(/^rs1\s+2\s+2\s+0\s+\d+s$/m);
    expect(kubectl('get', 'ep', 'ep1').stdout).toMatch(/^ep1\s+10\.1\.0\.1:80\s+\d+s$/m);
    expect(kubectl('get', 'hpa', 'hpa1').stdout).toMatch(
      /^hpa1\s+StatefulSet\/sts1\s+cpu: <unknown>\/70%\s+1\s+5\s+0\s+\d+s$/m,
    );
    expect(kubectl('get', 'pdb', 'pdb1').stdout).toMatch(/^pdb1\s+1\s+N\/A\s+0\s+\d+s$/m);
    expect(kubectl('get', 'cj', 'cj1').stdout).toMatch(
      /^cj1\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\d+s$/m,
    );
    expect(kubectl('get', 'rolebinding', 'rb1', '-o', 'wide').stdout).toMatch(/^rb1\s+Role\/role1\s+\d+s\s+alice\s*$/m);
  });

  it('kubectl api-resources lists the kinds with their short names', () => {
    const res = kubectl('api-resources');
    expect(res.status).toBe(0);
    const rows = [
      /^endpoints\s+ep\s+v1\s+true\s+Endpoints$/m,
      /^limitranges\s+limits\s+v1\s+true\s+LimitRange$/m,
      /^resourcequotas\s+quota\s+v1\s+true\s+ResourceQuota$/m,
      /^daemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet$/m,
      /^replicasets\s+rs\s+apps\/v1\s+true\s+ReplicaSet$/m,
      /^statefulsets\s+sts\s+apps\/v1\s+true\s+StatefulSet$/m,
      /^horizontalpodautoscalers\s+hpa\s+autoscaling\/v2\s+true\s+HorizontalPodAutoscaler$/m,
      /^cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob$/m,
      /^jobs\s+batch\/v1\s+true\s+Job$/m,
      /^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m,
      /^endpointslices\s+discovery\.k8s\.io\/v1\s+true\s+EndpointSlice$/m,
      /^poddisruptionbudgets\s+pdb\s+policy\/v1\s+true\s+PodDisruptionBudget$/m,
      /^replicationcontrollers\s+rc\s+v1\s+true\s+ReplicationController$/m,
      /^clusterrolebindings\s+rbac\.authorization\.k8s\.io\/v1\s+false\s+ClusterRoleBinding$/m,
      /^clusterroles\s+rbac\.authorization\.k8s\.io\/v1\s+false\s+ClusterRole$/m,
      /^rolebindings\s+rbac\.authorization\.k8s\.io\/v1\s+true\s+RoleBinding$/m,
      /^roles\s+rbac\.authorization\.k8s\.io\/v1\s+true\s+Role$/m,
      /^priorityclasses\s+pc\s+scheduling\.k8s\.io\/v1\s+false\s+PriorityClass$/m,
    ];
    for (const row of rows) expect(res.stdout).toMatch(row);
    const all = kubectl('api-resources', '--categories=all', '-o', 'name');
    expect(all.stdout.trim().split('\n').sort()).toEqual([
      'cronjobs.batch',
      'daemonsets.apps',
      'deployments.apps',
      'horizontalpodautoscalers.autoscaling',
      'jobs.batch',
      'pods',
      'replicasets.apps',
      'replicationcontrollers',
      'services',
      'statefulsets.apps',
    ]);
  });

  it('kubectl scale statefulset and replicaset', () => {
    expect(kubectl('scale', 'statefulset/sts1', '--replicas=3').stdout).toBe('statefulset.apps/sts1 scaled\n');
    expect(kubectl('get', 'sts', 'sts1', '-o', 'jsonpath={.spec.replicas} {.metadata.generation}').stdout).toBe('3 2');
    expect(kubectl('scale', 'rs', 'rs1', '--replicas=0', '--current-replicas=2').stdout).toBe(
      'replicaset.apps/rs1 scaled\n',
    );
    expect(kubectl('get', 'rs', 'rs1', '-o', 'jsonpath={.spec.replicas}').stdout).toBe('0');
    const scale = kubectl('get', 'sts', 'sts1', '--subresource=scale');
    expect(header(scale.stdout)).toEqual(['NAME', 'DESIRED', 'AVAILABLE', 'AGE']);
    // AVAILABLE is the Scale's status.replicas: the StatefulSet controller made sts1-0 and, with
    // OrderedReady, waits for it to turn Ready (no kubelet does) before sts1-1.
    expect(scale.stdout).toMatch(/^sts1\s+3\s+1\s+\d+s$/m);
    const stale = kubectl('scale', 'rs', 'rs1', '--replicas=4', '--current-replicas=2');
    expect(stale.status).not.toBe(0);
  });

  it('the typed kubectl create commands (protobuf bodies)', () => {
    const created = [
      [['create', 'job', 'job2', '--image=busybox', '--', 'date'], 'job.batch/job2 created'],
      [
        ['create', 'cronjob', 'cj2', '--image=busybox', '--schedule=*/1 * * * *', '--', 'date'],
        'cronjob.batch/cj2 created',
      ],
      [['create', 'job', 'job3', '--from=cronjob/cj2'], 'job.batch/job3 created'],
      [
        ['create', 'priorityclass', 'pc2', '--value=100', '--description=two', '--preemption-policy=Never'],
        'priorityclass.scheduling.k8s.io/pc2 created',
      ],
      [
        ['create', 'role', 'role2', '--verb=get,list', '--resource=pods,deployments.apps'],
        'role.rbac.authorization.k8s.io/role2 created',
      ],
      [
        ['create', 'rolebinding', 'rb2', '--role=role2', '--user=bob', '--serviceaccount=default:sa1'],
        'rolebinding.rbac.authorization.k8s.io/rb2 created',
      ],
      [
        ['create', 'clusterrole', 'cr2', '--verb=get', '--resource=nodes', '--resource-name=n1'],
        'clusterrole.rbac.authorization.k8s.io/cr2 created',
      ],
      [
        ['create', 'clusterrolebinding', 'crb2', '--clusterrole=cr2', '--group=ops'],
        'clusterrolebinding.rbac.authorization.k8s.io/crb2 created',
      ],
      [
        ['create', 'poddisruptionbudget', 'pdb2', '--selector=app=x', '--max-unavailable=25%'],
        'poddisruptionbudget.policy/pdb2 created',
      ],
    ] as const;
    for (const [args, out] of created) {
      const res = kubectl(...args);
      expect(res.stderr).toBe('');
      expect(res.stdout).toBe(`${out}\n`);
    }
    const job = JSON.parse(kubectl('get', 'job', 'job2', '-o', 'json').stdout) as {
      spec: Record<string, unknown> & {
        template: { spec: { containers: { command: string[] }[]; restartPolicy: string } };
      };
    };
    expect(job.spec).toMatchObject({
      backoffLimit: 6,
      completions: 1,
      parallelism: 1,
      completionMode: 'NonIndexed',
      suspend: false,
    });
    expect(job.spec.template.spec).toMatchObject({ restartPolicy: 'Never', containers: [{ command: ['date'] }] });
    expect(kubectl('get', 'cj', 'cj2', '-o', 'jsonpath={.spec.schedule} {.spec.concurrencyPolicy}').stdout).toBe(
      '*/1 * * * * Allow',
    );
    expect(kubectl('get', 'pc', 'pc2').stdout).toMatch(/^pc2\s+100\s+false\s+\d+s\s+Never$/m);
    expect(kubectl('get', 'role', 'role2', '-o', 'jsonpath={.rules}').stdout).toBe(
      '[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list"]},{"apiGroups":["apps"],"resources":["deployments"],"verbs":["get","list"]}]',
    );
    expect(kubectl('get', 'rolebinding', 'rb2', '-o', 'wide').stdout).toMatch(
      /^rb2\s+Role\/role2\s+\d+s\s+bob\s+default\/sa1$/m,
    );
    expect(kubectl('get', 'clusterrolebinding', 'crb2', '-o', 'wide').stdout).toMatch(
      /^crb2\s+ClusterRole\/cr2\s+\d+s\s+ops\s*$/m,
    );
    expect(kubectl('get', 'pdb', 'pdb2').stdout).toMatch(/^pdb2\s+N\/A\s+25%\s+0\s+\d+s$/m);
  });

  it('kubectl get all lists the workloads of the namespace', () => {
    const res = kubectl('get', 'all');
    expect(res.status).toBe(0);
    for (const name of [
      'daemonset.apps/ds1',
      'replicaset.apps/rs1',
      'statefulset.apps/sts1',
      'horizontalpodautoscaler.autoscaling/hpa1',
      'cronjob.batch/cj1',
      'job.batch/job1',
      'job.batch/job2',
    ]) {
      expect(res.stdout).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}\\s`, 'm'));
    }
    expect(res.stdout).not.toMatch(/poddisruptionbudget|lease|endpoints/);
  });

  it('the built-in PriorityClasses exist from the start', () => {
    const res = kubectl('get', 'priorityclasses', 'system-cluster-critical', 'system-node-critical');
    expect(res.stdout).toMatch(/^system-cluster-critical\s+2000000000\s+false\s+\d+s\s+PreemptLowerPriority$/m);
    expect(res.stdout).toMatch(/^system-node-critical\s+2000001000\s+false\s+\d+s\s+PreemptLowerPriority$/m);
  });

  it('kubectl autoscale creates an autoscaling/v1 HPA (protobuf body), read back as v2', () => {
    expect(kubectl('autoscale', 'rs', 'rs1', '--max=4', '--cpu-percent=50').stdout).toBe(
      'horizontalpodautoscaler.autoscaling/rs1 autoscaled\n',
    );
    expect(kubectl('get', 'hpa', 'rs1').stdout).toMatch(
      /^rs1\s+ReplicaSet\/rs1\s+cpu: <unknown>\/50%\s+1\s+4\s+0\s+\d+s$/m,
    );
  });

  it('an HPA is one object in autoscaling/v2 and autoscaling/v1', () => {
    expect(
      kubectl(
        'get',
        'horizontalpodautoscalers.v1.autoscaling',
        'hpa1',
        '-o',
        'jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}',
      ).stdout,
    ).toBe('autoscaling/v1 70');
    expect(
      kubectl(
        'patch',
        'horizontalpodautoscalers.v1.autoscaling',
        'hpa1',
        '--type=merge',
        '-p',
        '{"spec":{"targetCPUUtilizationPercentage":55}}',
      ).status,
    ).toBe(0);
    expect(
      kubectl(
        'get',
        'hpa',
        'hpa1',
        '-o',
        'jsonpath={.apiVersion} {.spec.metrics[0].resource.target.averageUtilization}',
      ).stdout,
    ).toBe('autoscaling/v2 55');
  });
});
