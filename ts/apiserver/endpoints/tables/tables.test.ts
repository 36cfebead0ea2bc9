import { describe, expect, it } from 'vitest';
import { testServer } from '../../testing/test-server.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const NS = '/namespaces/team-a';

interface TableBody {
  columnDefinitions: { name: string; type: string; priority: number }[];
  rows: { cells: unknown[] }[];
}

async function table(path: string, objects: [string, unknown][], advanceMs = 0) {
  const { json, clock } = await testServer();
  for (const [p, body] of objects) {
    const res = await json('POST', p, body);
    if (res.status !== 201) throw new Error(`${p}: ${JSON.stringify(res.body)}`);
  }
  clock.advance(advanceMs);
  const res = await json('GET', path, undefined, { Accept: TABLE });
  const body = res.body as unknown as TableBody;
  return {
    columns: body.columnDefinitions.map((c) => (c.priority > 0 ? `${c.name}*` : c.name)),
    types: body.columnDefinitions.map((c) => c.type),
    cells: body.rows.map((r) => r.cells),
  };
}

const podTemplate = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'a', image: 'nginx:1.27' },
      { name: 'b', image: 'busybox' },
    ],
  },
};

describe('Tables of the workload kinds (printers.go v1.32; * = wide)', () => {
  it('replicasets: DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR', async () => {
    const t = await table(`/apis/apps/v1${NS}/replicasets`, [
      [
        `/apis/apps/v1${NS}/replicasets`,
        {
          metadata: { name: 'rs' },
          spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: podTemplate },
        },
      ],
    ]);
    expect(t.columns).toEqual(['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*']);
    expect(t.types.slice(1, 4)).toEqual(['integer', 'integer', 'integer']);
    expect(t.cells).toEqual([['rs', 2, 0, 0, '0s', 'a,b', 'nginx:1.27,busybox', 'app=web']]);
  });

  it('daemonsets: DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE', async () => {
    const t = await table(`/apis/apps/v1${NS}/daemonsets`, [
      [
        `/apis/apps/v1${NS}/daemonsets`,
        {
          metadata: { name: 'ds' },
          spec: {
            selector: { matchLabels: { app: 'web' } },
            template: { ...podTemplate, spec: { ...podTemplate.spec, nodeSelector: { zone: 'a', disk: 'ssd' } } },
          },
        },
      ],
    ]);
    expect(t.columns).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    expect(t.cells).toEqual([['ds', 0, 0, 0, 0, 0, 'disk=ssd,zone=a', '0s', 'a,b', 'nginx:1.27,busybox', 'app=web']]);
  });

  it('statefulsets: READY AGE, wide CONTAINERS IMAGES', async () => {
    const t = await table(`/apis/apps/v1${NS}/statefulsets`, [
      [
        `/apis/apps/v1${NS}/statefulsets`,
        {
          metadata: { name: 'db' },
          spec: { serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template: podTemplate },
        },
      ],
    ]);
    expect(t.columns).toEqual(['Name', 'Ready', 'Age', 'Containers*', 'Images*']);
    expect(t.cells).toEqual([['db', '0/1', '0s', 'a,b', 'nginx:1.27,busybox']]);
  });

  it('jobs: STATUS COMPLETIONS DURATION AGE; the selector is the generated controller-uid', async () => {
    const t = await table(`/apis/batch/v1${NS}/jobs`, [
      [
        `/apis/batch/v1${NS}/jobs`,
        { metadata: { name: 'j' }, spec: { template: { spec: { ...podTemplate.spec, restartPolicy: 'Never' } } } },
      ],
    ]);
    expect(t.columns).toEqual([
      'Name',
      'Status',
      'Completions',
      'Duration',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    expect(t.cells[0]?.slice(0, 7)).toEqual(['j', 'Running', '0/1', '', '0s', 'a,b', 'nginx:1.27,busybox']);
    expect(t.cells[0]?.[7]).toMatch(/^batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/);
  });

  it('cronjobs: SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE', async () => {
    const t = await table(`/apis/batch/v1${NS}/cronjobs`, [
      [
        `/apis/batch/v1${NS}/cronjobs`,
        {
          metadata: { name: 'cj' },
          spec: {
            schedule: '*/5 * * * *',
            jobTemplate: { spec: { template: { spec: { ...podTemplate.spec, restartPolicy: 'OnFailure' } } } },
          },
        },
      ],
    ]);
    expect(t.columns).toEqual([
      'Name',
      'Schedule',
      'Timezone',
      'Suspend',
      'Active',
      'Last Schedule',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    expect(t.cells).toEqual([
      ['cj', '*/5 * * * *', '<none>', 'False', 0, '<none>', '0s', 'a,b', 'nginx:1.27,busybox', '<none>'],
    ]);
  });
});

describe('Tables of the other kinds', () => {
  it('endpoints: up to three ip:port, then + N more', async () => {
    const t = await table(`/api/v1${NS}/endpoints`, [
      [
        `/api/v1${NS}/endpoints`,
        {
          metadata: { name: 'svc' },
          subsets: [
            {
              addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
              ports: [
                { name: 'http', port: 80 },
                { name: 'https', port: 443 },
              ],
            },
          ],
        },
      ],
      [`/api/v1${NS}/endpoints`, { metadata: { name: 'empty' } }],
    ]);
    expect(t.columns).toEqual(['Name', 'Endpoints', 'Age']);
    expect(t.cells).toEqual([
      ['empty', '<none>', '0s'],
      ['svc', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...', '0s'],
    ]);
  });

  it('limitranges, roles and clusterroles use the default convertor: NAME, CREATED AT', async () => {
    const t = await table(
      `/api/v1${NS}/limitranges`,
      [[`/api/v1${NS}/limitranges`, { metadata: { name: 'lr' } }]],
      90_000,
    );
    expect(t.columns).toEqual(['Name', 'Created At']);
    expect(t.types).toEqual(['string', 'date']);
    expect(t.cells).toEqual([['lr', '2025-01-01T00:00:00Z']]);
    const roles = await table('/apis/rbac.authorization.k8s.io/v1/clusterroles', [
      ['/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'cr' } }],
    ]);
    expect(roles.columns).toEqual(['Name', 'Created At']);
  });

  it('resourcequotas: REQUEST and LIMIT from status.hard/used, sorted', async () => {
    const { json } = await testServer();
    await json('POST', `/api/v1${NS}/resourcequotas`, {
      metadata: { name: 'q' },
      spec: { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' } },
    });
    await json('PUT', `/api/v1${NS}/resourcequotas/q/status`, {
      metadata: { name: 'q' },
      status: { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' }, used: { pods: '3' } },
    });
    const res = await json('GET', `/api/v1${NS}/resourcequotas`, undefined, { Accept: TABLE });
    const body = res.body as unknown as TableBody;
    expect(body.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Request', 'Limit', 'Age']);
    expect(body.rows[0]?.cells).toEqual(['q', 'pods: 3/10, requests.cpu: 0/1', 'limits.cpu: 0/2', '0s']);
  });

  it('leases, endpointslices, poddisruptionbudgets, priorityclasses', async () => {
    const lease = await table(`/apis/coordination.k8s.io/v1${NS}/leases`, [
      [`/apis/coordination.k8s.io/v1${NS}/leases`, { metadata: { name: 'l' }, spec: { holderIdentity: 'me' } }],
    ]);
    expect(lease.columns).toEqual(['Name', 'Holder', 'Age']);
    expect(lease.cells).toEqual([['l', 'me', '0s']]);
    const slices = await table(`/apis/discovery.k8s.io/v1${NS}/endpointslices`, [
      [
        `/apis/discovery.k8s.io/v1${NS}/endpointslices`,
        {
          metadata: { name: 's' },
          addressType: 'IPv4',
          ports: [{ name: 'http', port: 80 }, { name: 'dns' }, { name: 'x', port: 8080 }, { name: 'y', port: 9090 }],
          endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2', '10.0.0.3', '10.0.0.4'] }],
        },
      ],
    ]);
    expect(slices.columns).toEqual(['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
    expect(slices.cells).toEqual([
      ['s', 'IPv4', '80,dns,8080 + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...', '0s'],
    ]);
    const pdb = await table(`/apis/policy/v1${NS}/poddisruptionbudgets`, [
      [`/apis/policy/v1${NS}/poddisruptionbudgets`, { metadata: { name: 'p' }, spec: { minAvailable: '50%' } }],
    ]);
    expect(pdb.columns).toEqual(['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
    expect(pdb.cells).toEqual([['p', '50%', 'N/A', 0, '0s']]);
    const pc = await table('/apis/scheduling.k8s.io/v1/priorityclasses', [
      ['/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000, globalDefault: true }],
    ]);
    expect(pc.columns).toEqual(['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy']);
    expect(pc.cells).toEqual([['high', 1000, true, '0s', 'PreemptLowerPriority']]);
  });

  it('rolebindings and clusterrolebindings: ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS', async () => {
    const t = await table(`/apis/rbac.authorization.k8s.io/v1${NS}/rolebindings`, [
      [
        `/apis/rbac.authorization.k8s.io/v1${NS}/rolebindings`,
        {
          metadata: { name: 'rb' },
          roleRef: { kind: 'ClusterRole', name: 'view' },
          subjects: [
            { kind: 'User', name: 'alice' },
            { kind: 'User', name: 'bob' },
            { kind: 'Group', name: 'devs' },
            { kind: 'ServiceAccount', name: 'sa', namespace: 'team-a' },
          ],
        },
      ],
    ]);
    expect(t.columns).toEqual(['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*']);
    expect(t.cells).toEqual([['rb', 'ClusterRole/view', '0s', 'alice, bob', 'devs', 'team-a/sa']]);
  });

  it('horizontalpodautoscalers through autoscaling/v2 and v1', async () => {
    const { json } = await testServer();
    await json('POST', `/apis/autoscaling/v2${NS}/horizontalpodautoscalers`, {
      metadata: { name: 'h' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } },
        ],
      },
    });
    // Kubernetes prints the internal object for both versions; here autoscaling/v1 prints its own
    // view, which holds only the cpu target (the HPA conversion drops the rest instead of annotating it).
    const targets: Record<string, string> = {
      v2: 'cpu: <unknown>/60%, <unknown>/10 + 1 more...',
      v1: 'cpu: <unknown>/60%',
    };
    for (const v of ['v2', 'v1']) {
      const want = ['h', 'Deployment/web', targets[v], '1', 5, 0, '0s'];
      const res = await json('GET', `/apis/autoscaling/${v}${NS}/horizontalpodautoscalers`, undefined, {
        Accept: TABLE,
      });
      const body = res.body as unknown as TableBody;
      expect(body.columnDefinitions.map((c) => c.name)).toEqual([
        'Name',
        'Reference',
        'Targets',
        'MinPods',
        'MaxPods',
        'Replicas',
        'Age',
      ]);
      expect(body.rows[0]?.cells).toEqual(want);
    }
  });
});
