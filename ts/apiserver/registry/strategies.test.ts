import { describe, expect, it } from 'vitest';
import { testServer } from '../testing/test-server.js';

const NS = '/namespaces/team-a';
const podSpec = { containers: [{ name: 'c', image: 'nginx:1.27' }] };
/** The pod spec after SetDefaults_PodSpec/_Container (what every template gets). */
const defaultedPodSpec = (restartPolicy = 'Always') => ({
  containers: [
    {
      name: 'c',
      image: 'nginx:1.27',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    },
  ],
  restartPolicy,
  dnsPolicy: 'ClusterFirst',
  terminationGracePeriodSeconds: 30,
  securityContext: {},
  schedulerName: 'default-scheduler',
});
const selector = { matchLabels: { app: 'x' } };
const template = { metadata: { labels: { app: 'x' } }, spec: podSpec };

async function create(path: string, body: unknown) {
  const { json } = await testServer();
  const res = await json('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { json, obj: res.body as Record<string, unknown> };
}

describe('v1 defaults and create strategies of the workload kinds', () => {
  it('DaemonSet: RollingUpdate maxUnavailable 1 maxSurge 0, revisionHistoryLimit 10, template generation 1', async () => {
    const { obj } = await create(`/apis/apps/v1${NS}/daemonsets`, {
      metadata: { name: 'd' },
      spec: { selector, template },
    });
    expect(obj.spec).toEqual({
      selector,
      template: { metadata: { labels: { app: 'x' } }, spec: defaultedPodSpec() },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect(obj.status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    expect((obj.metadata as { generation: number; annotations: unknown }).generation).toBe(1);
    expect((obj.metadata as { annotations: unknown }).annotations).toEqual({
      'deprecated.daemonset.template.generation': '1',
    });
  });

  it('DaemonSet: a template change bumps generation and the template generation, a status write does neither', async () => {
    const { json, obj } = await create(`/apis/apps/v1${NS}/daemonsets`, {
      metadata: { name: 'd' },
      spec: { selector, template },
    });
    const path = `/apis/apps/v1${NS}/daemonsets/d`;
    const next = structuredClone(obj) as Record<string, Record<string, unknown>>;
    (next.spec as { minReadySeconds?: number }).minReadySeconds = 5;
    let res = await json('PUT', path, next);
    expect(res.body.metadata).toMatchObject({
      generation: 2,
      annotations: { 'deprecated.daemonset.template.generation': '1' },
    });
    const next2 = structuredClone(res.body) as { spec: { template: { metadata: { labels: Record<string, string> } } } };
    next2.spec.template.metadata.labels.v = '2';
    res = await json('PUT', path, next2);
    expect(res.body.metadata).toMatchObject({
      generation: 3,
      annotations: { 'deprecated.daemonset.template.generation': '2' },
    });
    res = await json('PUT', `${path}/status`, { ...res.body, status: { desiredNumberScheduled: 4 } });
    expect(res.body.metadata).toMatchObject({ generation: 3 });
    expect(res.body.status).toEqual({ desiredNumberScheduled: 4 });
    // The main resource keeps the stored status.
    res = await json('PUT', path, { ...res.body, status: { desiredNumberScheduled: 9 } });
    expect(res.body.status).toEqual({ desiredNumberScheduled: 4 });
  });

  it('StatefulSet: OrderedReady, RollingUpdate partition 0, Retain/Retain, claim templates Filesystem/Pending', async () => {
    const { obj } = await create(`/apis/apps/v1${NS}/statefulsets`, {
      metadata: { name: 's' },
      spec: {
        serviceName: 's',
        selector,
        template,
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      },
    });
    expect(obj.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' },
          status: { phase: 'Pending' },
        },
      ],
      template: { spec: defaultedPodSpec() },
    });
    expect(obj.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('StatefulSet: an OnDelete strategy gets no rollingUpdate', async () => {
    const { obj } = await create(`/apis/apps/v1${NS}/statefulsets`, {
      metadata: { name: 's' },
      spec: { serviceName: 's', selector, template, updateStrategy: { type: 'OnDelete' } },
    });
    expect((obj.spec as { updateStrategy: unknown }).updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('ReplicaSet: replicas 1, status replicas 0', async () => {
    const { obj } = await create(`/apis/apps/v1${NS}/replicasets`, {
      metadata: { name: 'r' },
      spec: { selector, template },
    });
    expect(obj.spec).toEqual({
      replicas: 1,
      selector,
      template: { metadata: template.metadata, spec: defaultedPodSpec() },
    });
    expect(obj.status).toEqual({ replicas: 0 });
  });

  it('Job: completions/parallelism 1, backoffLimit 6, NonIndexed, suspend false, TerminatedOrFailed, generated selector', async () => {
    const { obj } = await create(`/apis/batch/v1${NS}/jobs`, {
      metadata: { name: 'j' },
      spec: { template: { metadata: { labels: { app: 'x' } }, spec: { ...podSpec, restartPolicy: 'Never' } } },
    });
    const meta = obj.metadata as { uid: string; labels: unknown; generation: number };
    const selectorLabels = {
      app: 'x',
      'job-name': 'j',
      'batch.kubernetes.io/job-name': 'j',
      'controller-uid': meta.uid,
      'batch.kubernetes.io/controller-uid': meta.uid,
    };
    expect(obj.spec).toEqual({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': meta.uid } },
      template: { metadata: { labels: selectorLabels }, spec: defaultedPodSpec('Never') },
    });
    // SetDefaults_Job shares the template's label map with the job, so the job carries them too.
    expect(meta.labels).toEqual(selectorLabels);
    expect(meta.generation).toBe(1);
    expect(obj.status).toEqual({});
  });

  it('Job: parallelism alone leaves completions unset; a pod failure policy gives Failed; manualSelector is left alone', async () => {
    const { obj } = await create(`/apis/batch/v1${NS}/jobs`, {
      metadata: { name: 'j', labels: { own: 'yes' } },
      spec: {
        parallelism: 3,
        manualSelector: true,
        selector,
        podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] },
        template: { ...template, spec: { ...podSpec, restartPolicy: 'Never' } },
      },
    });
    expect(obj.spec).toMatchObject({
      parallelism: 3,
      backoffLimit: 6,
      podReplacementPolicy: 'Failed',
      selector,
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
      },
      template: { metadata: { labels: { app: 'x' } } },
    });
    expect((obj.spec as { completions?: number }).completions).toBeUndefined();
    expect((obj.metadata as { labels: unknown }).labels).toEqual({ own: 'yes' });
  });

  it('Job: backoffLimitPerIndex makes the backoffLimit MaxInt32', async () => {
    const { obj } = await create(`/apis/batch/v1${NS}/jobs`, {
      metadata: { name: 'j' },
      spec: {
        completions: 3,
        completionMode: 'Indexed',
        backoffLimitPerIndex: 1,
        template: { spec: { ...podSpec, restartPolicy: 'Never' } },
      },
    });
    expect(obj.spec).toMatchObject({ completions: 3, parallelism: 1, backoffLimit: 2147483647 });
  });

  it('CronJob: Allow, suspend false, history limits 3 and 1, pod template defaults in the job template', async () => {
    const { obj } = await create(`/apis/batch/v1${NS}/cronjobs`, {
      metadata: { name: 'c' },
      spec: {
        schedule: '@hourly',
        jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } },
      },
    });
    expect(obj.spec).toEqual({
      schedule: '@hourly',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { spec: { template: { spec: defaultedPodSpec('OnFailure') } } },
    });
  });
});

describe('v1 defaults of the other kinds', () => {
  it('Pod: requests default to the limits given (containers and init containers), hostNetwork ports get hostPort', async () => {
    const resources = { limits: { cpu: '500m', memory: '1Gi' }, requests: { memory: '512Mi' } };
    const { obj } = await create(`/api/v1${NS}/pods`, {
      metadata: { name: 'p' },
      spec: {
        hostNetwork: true,
        initContainers: [{ name: 'i', image: 'busybox:1.36', resources: { limits: { cpu: '1' } } }],
        containers: [{ name: 'c', image: 'nginx:1.27', resources, ports: [{ containerPort: 8080 }] }],
      },
    });
    const spec = obj.spec as { containers: Record<string, unknown>[]; initContainers: Record<string, unknown>[] };
    expect(spec.containers[0]?.resources).toEqual({
      limits: { cpu: '500m', memory: '1Gi' },
      requests: { cpu: '500m', memory: '512Mi' },
    });
    expect(spec.initContainers[0]?.resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } });
    expect(spec.containers[0]?.ports).toEqual([{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }]);
    expect((obj.spec as Record<string, unknown>).enableServiceLinks).toBe(true);
  });

  it('Pod: gates off in 1.32 — procMount forced to Default, hostUsers dropped (DropDisabledPodFields)', async () => {
    const { obj } = await create(`/api/v1${NS}/pods`, {
      metadata: { name: 'p' },
      spec: {
        securityContext: { hostUsers: false, runAsNonRoot: true },
        containers: [{ name: 'c', image: 'nginx:1.27', securityContext: { procMount: 'Unmasked' } }],
      },
    });
    const spec = obj.spec as { securityContext: unknown; containers: { securityContext: unknown }[] };
    expect(spec.securityContext).toEqual({ runAsNonRoot: true });
    expect(spec.containers[0]?.securityContext).toEqual({ procMount: 'Default' });
  });

  it('Pod template: no requests from limits (SetDefaults_Pod is for Pods only)', async () => {
    const resources = { limits: { cpu: '500m' } };
    const { obj } = await create(`/apis/apps/v1${NS}/replicasets`, {
      metadata: { name: 'r' },
      spec: {
        selector,
        template: { ...template, spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources }] } },
      },
    });
    const spec = (obj.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec;
    expect(spec.containers[0]?.resources).toEqual(resources);
  });

  it('HPA v2: minReplicas 1, a cpu 80% metric, behavior filled in only when set', async () => {
    const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    const { obj } = await create(`/apis/autoscaling/v2${NS}/horizontalpodautoscalers`, {
      metadata: { name: 'h' },
      spec: { scaleTargetRef: ref, maxReplicas: 3 },
    });
    expect(obj.spec).toEqual({
      scaleTargetRef: ref,
      maxReplicas: 3,
      minReplicas: 1,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      ],
    });
    expect(obj.status).toEqual({ currentMetrics: null, desiredReplicas: 0 });
    const { obj: withBehavior } = await create(`/apis/autoscaling/v2${NS}/horizontalpodautoscalers`, {
      metadata: { name: 'h' },
      spec: { scaleTargetRef: ref, maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } },
    });
    expect((withBehavior.spec as { behavior: unknown }).behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: {
        stabilizationWindowSeconds: 60,
        selectPolicy: 'Max',
        policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
      },
    });
  });

  it('PDB: zero status counters, generation 1', async () => {
    const { obj } = await create(`/apis/policy/v1${NS}/poddisruptionbudgets`, {
      metadata: { name: 'p' },
      spec: { maxUnavailable: 1, selector },
      status: { disruptionsAllowed: 5 },
    });
    expect(obj.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
    expect((obj.metadata as { generation: number }).generation).toBe(1);
  });

  it('PriorityClass: PreemptLowerPriority', async () => {
    const { obj } = await create('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'p' }, value: 5 });
    expect(obj).toMatchObject({ value: 5, preemptionPolicy: 'PreemptLowerPriority' });
    const { obj: zero } = await create('/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'z' } });
    expect(zero.value).toBe(0);
  });

  it('ClusterRole without rules shows rules: null (no omitempty)', async () => {
    const { obj } = await create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
    });
    expect(obj).toHaveProperty('rules', null);
  });

  it('RoleBinding: roleRef and User/Group subjects get the rbac apiGroup, ServiceAccounts none', async () => {
    const { obj } = await create(`/apis/rbac.authorization.k8s.io/v1${NS}/rolebindings`, {
      metadata: { name: 'rb' },
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', name: 's', namespace: 'team-a' },
      ],
    });
    expect(obj).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'Group', name: 'g', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 's', namespace: 'team-a' },
      ],
    });
    expect((obj.subjects as { apiGroup?: string }[])[2]?.apiGroup).toBeUndefined();
  });

  it('Endpoints, EndpointSlice and LimitRange defaults', async () => {
    const { obj: ep } = await create(`/api/v1${NS}/endpoints`, {
      metadata: { name: 'e' },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }],
    });
    expect(ep.subsets).toEqual([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] }]);
    const { obj: slice } = await create(`/apis/discovery.k8s.io/v1${NS}/endpointslices`, {
      metadata: { name: 's' },
      addressType: 'IPv4',
      endpoints: [],
      ports: [{ port: 80 }],
    });
    expect(slice.ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
    const { obj: lr } = await create(`/api/v1${NS}/limitranges`, {
      metadata: { name: 'l' },
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } },
          { type: 'Pod', max: { cpu: '4' } },
        ],
      },
    });
    expect(lr.spec).toEqual({
      limits: [
        {
          type: 'Container',
          max: { cpu: '2' },
          min: { memory: '1Mi' },
          default: { cpu: '2' },
          defaultRequest: { cpu: '2', memory: '1Mi' },
        },
        { type: 'Pod', max: { cpu: '4' } },
      ],
    });
  });

  it('EndpointSlice: generation counts changes of endpoints, ports and addressType', async () => {
    const { json, obj } = await create(`/apis/discovery.k8s.io/v1${NS}/endpointslices`, {
      metadata: { name: 's' },
      addressType: 'IPv4',
      endpoints: [],
    });
    expect((obj.metadata as { generation: number }).generation).toBe(1);
    const path = `/apis/discovery.k8s.io/v1${NS}/endpointslices/s`;
    let res = await json('PUT', path, { ...obj, metadata: { ...(obj.metadata as object), labels: { a: 'b' } } });
    expect(res.body.metadata).toMatchObject({ generation: 1 });
    res = await json('PUT', path, { ...res.body, endpoints: [{ addresses: ['10.0.0.1'] }] });
    expect(res.body.metadata).toMatchObject({ generation: 2 });
  });
});
