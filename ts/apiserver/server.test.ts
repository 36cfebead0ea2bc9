import { describe, expect, it } from 'vitest';
import { AGGREGATED_DISCOVERY_TYPE } from './endpoints/discovery.js';
import { testServer, UNAUTHORIZED } from './testing/test-server.js';

const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('authentication', () => {
  it('answers 401 with the Unauthorized Status without a valid bearer token', async () => {
    const { api } = await testServer();
    for (const headers of [{}, { Authorization: 'Bearer wrong' }]) {
      const res = await api.handle(new Request('https://x/api/v1/namespaces', { headers }));
      expect(res.status).toBe(401);
      expect(res.headers.get('Content-Type')).toBe('application/json');
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('serves /version and the health checks to anyone', async () => {
    const { api } = await testServer();
    const version = await api.handle(new Request('https://x/version?timeout=5s'));
    expect(await version.json()).toMatchObject({ major: '1', minor: '32', gitVersion: 'v1.32.0-kubewasm' });
    for (const path of ['/healthz', '/livez', '/readyz']) {
      expect(await (await api.handle(new Request(`https://x${path}`))).text()).toBe('ok');
    }
  });
});

describe('discovery', () => {
  it('serves legacy /api, /apis and per-group-version resource lists', async () => {
    const { json } = await testServer();
    expect((await json('GET', '/api')).body).toMatchObject({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: 'kubewasm.test' }],
    });
    expect((await json('GET', '/apis')).body).toMatchObject({
      kind: 'APIGroupList',
      groups: expect.arrayContaining([
        expect.objectContaining({ name: 'apps', preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } }),
      ]),
    });
    const core = (await json('GET', '/api/v1')).body as { resources: { name: string; namespaced: boolean }[] };
    expect(core.resources.map((r) => r.name)).toEqual([
      'namespaces',
      'namespaces/finalize',
      'namespaces/status',
      'configmaps',
      'secrets',
      'serviceaccounts',
      'serviceaccounts/token',
      'pods',
      'pods/binding',
      'pods/eviction',
      'pods/log',
      'pods/status',
      'nodes',
      'nodes/status',
      'services',
      'services/status',
      'events',
      'endpoints',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'replicationcontrollers/status',
      'limitranges',
      'resourcequotas',
      'resourcequotas/status',
      'persistentvolumeclaims',
      'persistentvolumeclaims/status',
      'persistentvolumes',
      'persistentvolumes/status',
    ]);
    expect(core.resources.find((r) => r.name === 'namespaces')?.namespaced).toBe(false);
    const apps = (await json('GET', '/apis/apps/v1')).body as { resources: unknown[] };
    expect({ ...apps, resources: apps.resources.slice(0, 3) }).toMatchObject({
      groupVersion: 'apps/v1',
      resources: [
        { name: 'deployments', kind: 'Deployment' },
        { name: 'deployments/scale', group: 'autoscaling', version: 'v1', kind: 'Scale' },
        { name: 'deployments/status', kind: 'Deployment' },
      ],
    });
    expect((await json('GET', '/apis/networking.k8s.io/v1')).status).toBe(404);
  });

  it('answers aggregated discovery v2 when the Accept header asks for it', async () => {
    const { call } = await testServer();
    const res = await call('GET', '/apis', undefined, { Accept: AGGREGATED_ACCEPT });
    expect(res.headers.get('Content-Type')).toBe(AGGREGATED_DISCOVERY_TYPE);
    expect(await res.json()).toMatchObject({
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      items: expect.arrayContaining([
        expect.objectContaining({
          metadata: { name: 'apps' },
          versions: [
            expect.objectContaining({
              version: 'v1',
              resources: expect.arrayContaining([
                expect.objectContaining({ resource: 'deployments', scope: 'Namespaced' }),
              ]),
            }),
          ],
        }),
      ]),
    });
    const core = (await (await call('GET', '/api', undefined, { Accept: AGGREGATED_ACCEPT })).json()) as {
      items: { metadata: { name: string } }[];
    };
    expect(core.items.map((i) => i.metadata.name)).toEqual(['']);
  });

  it('serves an OpenAPI v3 index whose documents name each kind with fieldValidation', async () => {
    const { json } = await testServer();
    const index = (await json('GET', '/openapi/v3')).body as { paths: Record<string, { serverRelativeURL: string }> };
    expect(Object.keys(index.paths).slice(0, 2)).toEqual(['api/v1', 'apis/apps/v1']);
    const doc = (await json('GET', index.paths['apis/apps/v1']?.serverRelativeURL ?? '')).body as {
      paths: Record<string, { patch: { 'x-kubernetes-group-version-kind': unknown; parameters: { name: string }[] } }>;
    };
    const op = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
    expect(op?.['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(op?.parameters.map((p) => p.name)).toContain('fieldValidation');
  });

  it('answers unknown paths and resources with a 404 Status', async () => {
    const { json } = await testServer();
    const res = await json('GET', '/api/v1/namespaces/default/widgets');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });
});
