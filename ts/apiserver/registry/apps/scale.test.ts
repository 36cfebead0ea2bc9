import { describe, expect, it } from 'vitest';
import { testServer } from '../../testing/test-server.js';

const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const template = { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };

describe.each([
  ['replicasets', { selector: { matchLabels: { app: 'db' } }, template, replicas: 2 }],
  ['statefulsets', { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template, replicas: 2 }],
])('%s/scale (autoscaling/v1 Scale, like deployments/scale)', (resource, spec) => {
  const path = `/apis/apps/v1/namespaces/team-a/${resource}`;

  it('GET shows spec.replicas, status.replicas and the selector string', async () => {
    const { json } = await testServer();
    await json('POST', path, { metadata: { name: 'db' }, spec });
    const res = await json('GET', `${path}/db/scale`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'db', namespace: 'team-a' },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=db' },
    });
  });

  it('a merge patch (kubectl scale) sets spec.replicas and bumps the generation; negative is Invalid', async () => {
    const { json } = await testServer();
    await json('POST', path, { metadata: { name: 'db' }, spec });
    const res = await json('PATCH', `${path}/db/scale`, { spec: { replicas: 5 } }, MERGE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ spec: { replicas: 5 } });
    const obj = await json('GET', `${path}/db`);
    expect(obj.body).toMatchObject({ spec: { replicas: 5 }, metadata: { generation: 2 } });
    const bad = await json('PUT', `${path}/db/scale`, { ...res.body, spec: { replicas: -1 } });
    expect(bad.status).toBe(422);
  });
});

it('a Scale as a Table (printScale, kubectl get --subresource=scale)', async () => {
  const { json } = await testServer();
  const path = '/apis/apps/v1/namespaces/team-a/statefulsets';
  await json('POST', path, {
    metadata: { name: 'db' },
    spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template, replicas: 3 },
  });
  const res = await json('GET', `${path}/db/scale`, undefined, {
    Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
  });
  expect(res.body).toMatchObject({ kind: 'Table', rows: [{ cells: ['db', 3, 0, '0s'] }] });
  const columns = res.body.columnDefinitions as { name: string; format: string }[];
  expect(columns.map((c) => [c.name, c.format])).toEqual([
    ['Name', ''],
    ['Desired', ''],
    ['Available', ''],
    ['Age', ''],
  ]);
});

it('daemonsets have no scale subresource', async () => {
  const { json } = await testServer();
  const res = await json('GET', '/apis/apps/v1/namespaces/team-a/daemonsets/x/scale');
  expect(res.status).toBe(404);
});
