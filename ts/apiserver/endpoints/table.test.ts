import { describe, expect, it } from 'vitest';
import { testServer } from '../testing/test-server.js';
import { humanDuration, wantsTable } from './table.js';

const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('humanDuration (duration.HumanDuration)', () => {
  it.each([
    [-5_000, '<invalid>'],
    [0, '0s'],
    [119_000, '119s'],
    [120_000, '2m'],
    [125_000, '2m5s'],
    [11 * 60_000, '11m'],
    [3 * 3_600_000, '3h'],
    [3 * 3_600_000 + 60_000, '3h1m'],
    [9 * 3_600_000, '9h'],
    [50 * 3_600_000, '2d2h'],
    [10 * 86_400_000, '10d'],
    [800 * 86_400_000, '2y70d'],
    [3000 * 86_400_000, '8y'],
  ])('%d ms → %s', (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});

describe('Table responses', () => {
  it('recognises the Accept header kubectl sends', () => {
    expect(wantsTable(TABLE)).toBe(true);
    expect(wantsTable('application/json')).toBe(false);
    expect(wantsTable(null)).toBe(false);
  });

  it('lists namespaces with STATUS and configmaps with DATA, rows carrying PartialObjectMetadata', async () => {
    const { json, clock } = await testServer();
    await json('POST', '/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'cm' }, data: { a: '1', b: '2' } });
    clock.advance(90_000);
    const ns = await json('GET', '/api/v1/namespaces?limit=500', undefined, { Accept: TABLE });
    expect(ns.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect((ns.body.columnDefinitions as { name: string }[]).map((c) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(ns.body.rows).toEqual([
      {
        cells: ['default', 'Active', '90s'],
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: expect.objectContaining({ name: 'default' }),
        },
      },
      expect.objectContaining({ cells: ['team-a', 'Active', '90s'] }),
    ]);
    expect((ns.body.metadata as { resourceVersion: string }).resourceVersion).toMatch(/^\d+$/);
    const cm = await json('GET', '/api/v1/namespaces/team-a/configmaps/cm', undefined, { Accept: TABLE });
    expect(cm.body.rows).toMatchObject([{ cells: ['cm', 2, '90s'] }]);
  });

  it('prints secrets, pods and deployments with their columns', async () => {
    const { json } = await testServer();
    const ns = '/api/v1/namespaces/team-a';
    await json('POST', `${ns}/secrets`, { metadata: { name: 's' }, data: { k: 'dg==' } });
    await json('POST', `${ns}/pods`, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    await json('POST', '/apis/apps/v1/namespaces/team-a/deployments', {
      metadata: { name: 'd' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    const cells = async (path: string) =>
      ((await json('GET', path, undefined, { Accept: TABLE })).body.rows as { cells: unknown[] }[])[0]?.cells;
    expect(await cells(`${ns}/secrets`)).toEqual(['s', 'Opaque', 1, '0s']);
    expect(await cells(`${ns}/pods`)).toEqual(['p', '0/1', 'Pending', 0, '0s', '<none>', '<none>', '<none>', '<none>']);
    // The wide cells (Containers, Images, Selector) always come; kubectl shows them with -o wide.
    expect(await cells('/apis/apps/v1/namespaces/team-a/deployments')).toEqual([
      'd',
      '0/3',
      0,
      0,
      '0s',
      'c',
      'x',
      'app=d',
    ]);
    expect(await cells(`${ns}/serviceaccounts`)).toBeUndefined();
    await json('POST', `${ns}/services`, {
      metadata: { name: 'svc' },
      spec: {
        ports: [
          { name: 'http', port: 80 },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      },
    });
    // CLUSTER-IP is whatever the allocator handed out.
    expect(await cells(`${ns}/services`)).toEqual([
      'svc',
      'ClusterIP',
      expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      '<none>',
      '80/TCP,53/UDP',
      '0s',
    ]);
    await json('POST', '/api/v1/nodes', {
      metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/control-plane': '' } },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.32.0' } },
    });
    expect(await cells('/api/v1/nodes')).toEqual(['n1', 'Ready,SchedulingDisabled', 'control-plane', '0s', 'v1.32.0']);
    await json('POST', `${ns}/events`, {
      metadata: { name: 'p.1' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'team-a' },
      reason: 'Scheduled',
      message: 'Successfully assigned team-a/p to n1 ',
      type: 'Normal',
      lastTimestamp: '2024-12-31T23:59:00Z',
    });
    expect(await cells(`${ns}/events`)).toEqual([
      '60s',
      'Normal',
      'Scheduled',
      'pod/p',
      'Successfully assigned team-a/p to n1',
      'p.1',
    ]);
  });
});
