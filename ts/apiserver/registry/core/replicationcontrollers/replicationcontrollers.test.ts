import { describe, expect, it } from 'vitest';
import { testServer } from '../../../testing/test-server.js';

const PATH = '/api/v1/namespaces/team-a/replicationcontrollers';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const TABLE = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
const template = {
  metadata: { labels: { app: 'nginx' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
};

describe('replicationcontrollers (rcStrategy, SetDefaults_ReplicationController)', () => {
  it('defaults the selector, the labels (from the template) and replicas 1; status starts at 0, generation 1', async () => {
    const { json } = await testServer();
    const res = await json('POST', PATH, { metadata: { name: 'nginx' }, spec: { template } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'ReplicationController',
      apiVersion: 'v1',
      metadata: { name: 'nginx', labels: { app: 'nginx' }, generation: 1 },
      spec: { replicas: 1, selector: { app: 'nginx' } },
      status: { replicas: 0 },
    });
    // The pod template is defaulted as a pod's (SetDefaults_PodSpec).
    expect(res.body).toMatchObject({
      spec: { template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } } },
    });
  });

  it('keeps a given selector and labels; a spec change bumps the generation, a status write does not', async () => {
    const { json } = await testServer();
    const body = {
      metadata: { name: 'web', labels: { team: 'a' } },
      spec: {
        replicas: 3,
        selector: { app: 'nginx' },
        template: { ...template, metadata: { labels: { app: 'nginx', v: '1' } } },
      },
    };
    const res = await json('POST', PATH, body);
    expect(res.body).toMatchObject({
      metadata: { labels: { team: 'a' } },
      spec: { selector: { app: 'nginx' }, replicas: 3 },
    });
    // The selector of a v1 RC may change (no apps/v1 immutability).
    const patched = await json('PATCH', `${PATH}/web`, { spec: { selector: { app: 'nginx', v: '1' } } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ metadata: { generation: 2 }, spec: { selector: { app: 'nginx', v: '1' } } });
    const status = await json('PATCH', `${PATH}/web/status`, { status: { replicas: 2 } }, MERGE);
    expect(status.body).toMatchObject({ metadata: { generation: 2 }, status: { replicas: 2 } });
  });

  it('refuses what ValidateReplicationController refuses, with Kubernetes field paths', async () => {
    const { json } = await testServer();
    const noSelector = await json('POST', PATH, {
      metadata: { name: 'a' },
      spec: { template: { spec: template.spec } },
    });
    expect(noSelector.status).toBe(422);
    expect(noSelector.body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      message: 'ReplicationController "a" is invalid: spec.selector: Required value',
      details: {
        name: 'a',
        kind: 'ReplicationController',
        causes: [{ reason: 'FieldValueRequired', field: 'spec.selector' }],
      },
    });
    const mismatch = await json('POST', PATH, {
      metadata: { name: 'b' },
      spec: { replicas: -1, selector: { app: 'db' }, template },
    });
    expect(mismatch.status).toBe(422);
    expect((mismatch.body.details as { causes: { field: string; message: string }[] }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: -1: must be greater than or equal to 0',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.template.metadata.labels',
        message: 'Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`',
      },
    ]);
    const noTemplate = await json('POST', PATH, { metadata: { name: 'c' }, spec: { selector: { app: 'x' } } });
    expect(noTemplate.body).toMatchObject({
      message: 'ReplicationController "c" is invalid: spec.template: Required value',
    });
  });

  it('scale: the selector map as a label-selector string; kubectl scale writes spec.replicas', async () => {
    const { json } = await testServer();
    await json('POST', PATH, {
      metadata: { name: 'nginx' },
      spec: {
        replicas: 3,
        selector: { app: 'nginx', tier: 'web' },
        template: { ...template, metadata: { labels: { app: 'nginx', tier: 'web' } } },
      },
    });
    const scale = await json('GET', `${PATH}/nginx/scale`);
    expect(scale.status).toBe(200);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'nginx', namespace: 'team-a' },
      spec: { replicas: 3 },
      status: { replicas: 0, selector: 'app=nginx,tier=web' },
    });
    const res = await json('PATCH', `${PATH}/nginx/scale`, { spec: { replicas: 5 } }, MERGE);
    expect(res.body).toMatchObject({ spec: { replicas: 5 }, status: { selector: 'app=nginx,tier=web' } });
    expect((await json('GET', `${PATH}/nginx`)).body).toMatchObject({
      spec: { replicas: 5 },
      metadata: { generation: 2 },
    });
    const bad = await json('PUT', `${PATH}/nginx/scale`, { ...res.body, spec: { replicas: -1 } });
    expect(bad.status).toBe(422);
  });

  it('prints NAME DESIRED CURRENT READY AGE, wide CONTAINERS IMAGES SELECTOR', async () => {
    const { json } = await testServer();
    await json('POST', PATH, { metadata: { name: 'nginx' }, spec: { replicas: 3, template } });
    const res = await json('GET', PATH, undefined, TABLE);
    const body = res.body as {
      columnDefinitions: { name: string; type: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    expect(body.columnDefinitions.map((c) => (c.priority > 0 ? `${c.name}*` : c.name))).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    expect(body.rows.map((r) => r.cells)).toEqual([['nginx', 3, 0, 0, '0s', 'nginx', 'nginx', 'app=nginx']]);
  });

  it('a v1 delete without options orphans the pods (DefaultGarbageCollectionPolicy OrphanDependents)', async () => {
    const { json } = await testServer();
    await json('POST', PATH, { metadata: { name: 'nginx' }, spec: { template } });
    const res = await json('DELETE', `${PATH}/nginx`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ metadata: { finalizers: ['orphan'] } });
    expect(res.body.metadata).toHaveProperty('deletionTimestamp');
  });

  it('is in discovery: shortName rc, category all, scale and status', async () => {
    const { json } = await testServer();
    const res = await json('GET', '/api/v1');
    const list = (res.body as { resources: { name: string; shortNames?: string[]; categories?: string[] }[] })
      .resources;
    expect(list.find((r) => r.name === 'replicationcontrollers')).toMatchObject({
      kind: 'ReplicationController',
      namespaced: true,
      shortNames: ['rc'],
      categories: ['all'],
    });
    expect(list.map((r) => r.name)).toEqual(
      expect.arrayContaining(['replicationcontrollers/scale', 'replicationcontrollers/status']),
    );
  });
});
