import { describe, expect, it } from 'vitest';
import { admissionServer, pod } from './testing/admission-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read and edit response documents freely
type Obj = Record<string, any>;

const limitRange = (limits: Obj[]) => ({ metadata: { name: 'limits' }, spec: { limits } });

describe('LimitRanger', () => {
  it('fills unset requests and limits of containers and init containers from the Container defaults, and says so', async () => {
    const s = await admissionServer();
    await s.json(
      'POST',
      '/api/v1/namespaces/default/limitranges',
      limitRange([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '0.1' } }]),
    );
    const body: Obj = pod('p', {
      initContainers: [{ name: 'init', image: 'busybox' }],
    });
    body.spec.containers[0].resources = { requests: { memory: '128Mi' } };
    const { status, body: created } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    expect(status).toBe(201);
    const spec = created.spec as Obj;
    expect(spec.containers[0].resources).toEqual({
      requests: { memory: '128Mi', cpu: '100m' },
      limits: { cpu: '500m', memory: '256Mi' },
    });
    expect(spec.initContainers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '256Mi' },
    });
    expect((created.metadata as Obj).annotations).toEqual({
      'kubernetes.io/limit-ranger':
        'LimitRanger plugin set: cpu request for container app; cpu, memory limit for container app; cpu, memory request for init container init; cpu, memory limit for init container init',
    });
  });

  it('leaves a pod alone when nothing is defaulted: no annotation', async () => {
    const s = await admissionServer();
    await s.json('POST', '/api/v1/namespaces/default/limitranges', limitRange([{ type: 'Pod', max: { cpu: '2' } }]));
    const body: Obj = pod('p');
    body.spec.containers[0].resources = { limits: { cpu: '1' } };
    const { status, body: created } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    expect(status).toBe(201);
    expect((created.metadata as Obj).annotations).toBeUndefined();
  });

  it('refuses a pod below the minimum or above the maximum with every violation in one 403, storing nothing', async () => {
    const s = await admissionServer();
    await s.json(
      'POST',
      '/api/v1/namespaces/default/limitranges',
      limitRange([
        { type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } },
        { type: 'Pod', max: { memory: '1Gi' } },
      ]),
    );
    const body: Obj = pod('p');
    body.spec.containers[0].resources = { requests: { cpu: '50m' }, limits: { cpu: '2' } };
    const { status, body: err } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    expect(status).toBe(403);
    expect(err).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Pod is 1Gi.  No limit is specified]',
      details: { name: 'p', kind: 'pods' },
    });
    expect((await s.json('GET', '/api/v1/namespaces/default/pods/p')).status).toBe(404);
  });

  it('names a generateName pod by the name it is given, and gives one violation without brackets', async () => {
    const s = await admissionServer();
    await s.json(
      'POST',
      '/api/v1/namespaces/default/limitranges',
      limitRange([{ type: 'Pod', min: { memory: '64Mi' } }]),
    );
    const body: Obj = pod('');
    body.metadata = { generateName: 'web-' };
    const { status, body: err } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    expect(status).toBe(403);
    // Validating admission runs after BeforeCreate generated the name, and NewForbidden names it.
    expect(err.message).toMatch(
      /^pods "web-[bcdfghjklmnpqrstvwxz2456789]{5}" is forbidden: minimum memory usage per Pod is 64Mi\. {2}No request is specified$/,
    );
  });

  it('checks the pod total (containers summed, the largest init container) and the limit/request ratio', async () => {
    const s = await admissionServer();
    await s.json(
      'POST',
      '/api/v1/namespaces/default/limitranges',
      limitRange([
        { type: 'Pod', max: { cpu: '1' } },
        { type: 'Container', maxLimitRequestRatio: { cpu: '2' } },
      ]),
    );
    const body: Obj = pod('p', {}, ['a', 'b']);
    body.spec.containers[0].resources = { requests: { cpu: '200m' }, limits: { cpu: '600m' } };
    body.spec.containers[1].resources = { requests: { cpu: '500m' }, limits: { cpu: '500m' } };
    const { status, body: err } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    expect(status).toBe(403);
    expect(err.message).toBe(
      'pods "p" is forbidden: [maximum cpu usage per Pod is 1, but limit is 1100m, cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000]',
    );
    const init: Obj = pod('q', {
      initContainers: [{ name: 'i', image: 'x', resources: { limits: { cpu: '1500m' }, requests: { cpu: '1' } } }],
    });
    init.spec.containers[0].resources = { requests: { cpu: '100m' }, limits: { cpu: '100m' } };
    const refused = await s.json('POST', '/api/v1/namespaces/default/pods', init);
    expect(refused.body.message).toBe('pods "q" is forbidden: maximum cpu usage per Pod is 1, but limit is 1500m');
  });

  it('applies to pods only: other kinds and other namespaces are untouched', async () => {
    const s = await admissionServer();
    await s.json(
      'POST',
      '/api/v1/namespaces/team-a/limitranges',
      limitRange([{ type: 'Container', min: { cpu: '1' } }]),
    );
    expect((await s.json('POST', '/api/v1/namespaces/default/pods', pod('p'))).status).toBe(201);
    expect((await s.json('POST', '/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'c' } })).status).toBe(
      201,
    );
  });
});
