import { describe, expect, it } from 'vitest';
import { testServer } from '../testing/test-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read and edit response documents freely
type Doc = any;

const PODS = '/api/v1/namespaces/team-a/pods';
const DEPLOYS = '/apis/apps/v1/namespaces/team-a/deployments';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
});
const deployment = (name: string, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: 'web' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web', tier: 'front' } },
    template: {
      metadata: { labels: { app: 'web', tier: 'front' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    },
  },
});
const binding = (name: string, node: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name, ...extra },
  target: { kind: 'Node', name: node },
});

async function storedBytes(ts: Awaited<ReturnType<typeof testServer>>, key: string): Promise<string> {
  return new TextDecoder().decode((await ts.storage.get(key))?.value);
}

describe('status subresource', () => {
  it('PUT …/status writes only the status (spec kept), PUT on the object keeps the stored status', async () => {
    const { json } = await testServer();
    await json('POST', PODS, pod('p'));
    const current = (await json('GET', `${PODS}/p/status`)).body as Doc;
    expect(current.status).toEqual({ phase: 'Pending' });
    current.status = { phase: 'Running', podIP: '10.0.0.5' };
    current.spec.containers[0].image = 'nginx:9';
    current.metadata.labels = { app: 'web', touched: 'yes' };
    current.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }];
    const put = await json('PUT', `${PODS}/p/status`, current);
    expect(put.status).toBe(200);
    const after = put.body as Doc;
    // The lone podIP comes back with podIPs too, as v1 conversion round-trips it.
    expect(after.status).toEqual({ phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }] });
    expect(after.spec.containers[0].image).toBe('nginx:1.27');
    expect(after.metadata.labels).toEqual({ app: 'web', touched: 'yes' });
    expect(after.metadata.ownerReferences).toBeUndefined();

    // The main resource: status in the body is ignored, the stored one stays.
    after.status = { phase: 'Failed' };
    after.spec.activeDeadlineSeconds = 5;
    const main = await json('PUT', `${PODS}/p`, after);
    expect(main.status).toBe(200);
    expect((main.body as Doc).status).toEqual({ phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }] });
    expect((main.body as Doc).spec.activeDeadlineSeconds).toBe(5);
  });

  it('PATCH …/status on a deployment: status written, spec and labels kept, no generation bump', async () => {
    const { json } = await testServer();
    await json('POST', DEPLOYS, deployment('web'));
    const res = await json(
      'PATCH',
      `${DEPLOYS}/web/status`,
      {
        metadata: { labels: { other: 'x' }, annotations: { a: 'b' } },
        spec: { replicas: 9 },
        status: { replicas: 2, observedGeneration: 1 },
      },
      MERGE,
    );
    expect(res.status).toBe(200);
    const d = res.body as Doc;
    expect(d.status).toEqual({ replicas: 2, observedGeneration: 1 });
    expect(d.spec.replicas).toBe(2);
    expect(d.metadata.labels).toEqual({ app: 'web' });
    expect(d.metadata.annotations).toEqual({ a: 'b' });
    expect(d.metadata.generation).toBe(1);
  });

  it('keeps node status on create, on the main PUT, and writes it through …/status', async () => {
    const { json } = await testServer();
    const created = await json('POST', '/api/v1/nodes', {
      metadata: { name: 'n1' },
      spec: {},
      status: { capacity: { cpu: '4' } },
    });
    expect((created.body as Doc).status).toEqual({ capacity: { cpu: '4' } });
    const n = created.body as Doc;
    n.status = { capacity: { cpu: '1' } };
    n.spec = { unschedulable: true };
    const main = (await json('PUT', '/api/v1/nodes/n1', n)).body as Doc;
    expect(main.status).toEqual({ capacity: { cpu: '4' } });
    expect(main.spec).toEqual({ unschedulable: true });
    const st = await json('PATCH', '/api/v1/nodes/n1/status', { status: { capacity: { cpu: '8' } }, spec: {} }, MERGE);
    expect((st.body as Doc).status).toEqual({ capacity: { cpu: '8' } });
    expect((st.body as Doc).spec).toEqual({ unschedulable: true });
  });

  it('answers a stale resourceVersion with 409 Conflict and a missing object with 404, storing nothing', async () => {
    const ts = await testServer();
    const { json, storage } = ts;
    const svc = (
      await json('POST', '/api/v1/namespaces/team-a/services', {
        metadata: { name: 's' },
        spec: { ports: [{ port: 80 }] },
      })
    ).body as Doc;
    await json('PATCH', '/api/v1/namespaces/team-a/services/s', { metadata: { labels: { x: 'y' } } }, MERGE);
    const before = await storage.currentRevision();
    svc.status = { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } };
    const stale = await json('PUT', '/api/v1/namespaces/team-a/services/s/status', svc);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on services "s": the object has been modified; please apply your changes to the latest version and try again',
    });
    const missing = await json('GET', `${PODS}/nope/status`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found' });
    const missingPut = await json('PUT', `${PODS}/nope/status`, pod('nope'));
    expect(missingPut.status).toBe(404);
    expect(missingPut.body).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found' });
    expect(await storage.currentRevision()).toBe(before);
  });

  it('answers 404 for a subresource the resource does not have, 405 for a verb it does not serve', async () => {
    const { json } = await testServer();
    await json('POST', '/api/v1/namespaces/team-a/configmaps', { metadata: { name: 'c' } });
    expect((await json('GET', '/api/v1/namespaces/team-a/configmaps/c/status')).status).toBe(404);
    expect((await json('GET', `${DEPLOYS}/web/binding`)).status).toBe(404);
    const del = await json('DELETE', `${PODS}/p/status`);
    expect(del.status).toBe(405);
    expect(del.body).toMatchObject({ reason: 'MethodNotAllowed' });
  });
});

describe('deployments/scale', () => {
  it('GET answers an autoscaling/v1 Scale', async () => {
    const { json } = await testServer();
    const created = (await json('POST', DEPLOYS, deployment('web'))).body as Doc;
    const res = await json('GET', `${DEPLOYS}/web/scale`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'web',
        namespace: 'team-a',
        uid: created.metadata.uid,
        resourceVersion: created.metadata.resourceVersion,
        creationTimestamp: '2025-01-01T00:00:00Z',
      },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=web,tier=front' },
    });
  });

  it('a merge patch as kubectl scale sends sets spec.replicas and bumps the generation', async () => {
    const { json } = await testServer();
    await json('POST', DEPLOYS, deployment('web'));
    const res = await json('PATCH', `${DEPLOYS}/web/scale`, { spec: { replicas: 5 } }, MERGE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'Scale', spec: { replicas: 5 }, status: { replicas: 0 } });
    const d = (await json('GET', `${DEPLOYS}/web`)).body as Doc;
    expect(d.spec.replicas).toBe(5);
    expect(d.metadata.generation).toBe(2);
    expect((res.body.metadata as Record<string, unknown>).resourceVersion).toBe(d.metadata.resourceVersion);
  });

  it('PUT takes a Scale; replicas 0 is written (and omitted from the Scale spec)', async () => {
    const { json } = await testServer();
    await json('POST', DEPLOYS, deployment('web'));
    const scale = (await json('GET', `${DEPLOYS}/web/scale`)).body as Doc;
    scale.spec.replicas = 0;
    const res = await json('PUT', `${DEPLOYS}/web/scale`, scale);
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({});
    expect(((await json('GET', `${DEPLOYS}/web`)).body as Doc).spec.replicas).toBe(0);
    const stale = await json('PUT', `${DEPLOYS}/web/scale`, { ...scale, spec: { replicas: 3 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ reason: 'Conflict' });
  });

  it('rejects negative replicas with 422 Invalid and a wrong kind with 400, storing nothing', async () => {
    const ts = await testServer();
    const { json, storage } = ts;
    await json('POST', DEPLOYS, deployment('web'));
    const before = await storedBytes(ts, '/registry/deployments/team-a/web');
    const rev = await storage.currentRevision();
    const neg = await json('PATCH', `${DEPLOYS}/web/scale`, { spec: { replicas: -1 } }, MERGE);
    expect(neg.status).toBe(422);
    expect(neg.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      reason: 'Invalid',
      details: {
        name: 'web',
        group: 'autoscaling',
        kind: 'Scale',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: -1: must be greater than or equal to 0',
            field: 'spec.replicas',
          },
        ],
      },
      code: 422,
    });
    const wrongKind = await json('PUT', `${DEPLOYS}/web/scale`, deployment('web', 4));
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body).toMatchObject({
      reason: 'BadRequest',
      // handlers/update.go decodes the v1 Deployment, then cannot convert it to the Scale.
      message:
        'Deployment in version "v1" cannot be handled as a Scale: converting (v1.Deployment) to (autoscaling.Scale): unknown conversion',
    });
    const missing = await json('PATCH', `${DEPLOYS}/nope/scale`, { spec: { replicas: 1 } }, MERGE);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ reason: 'NotFound', message: 'deployments.apps "nope" not found' });
    expect((await json('GET', `${DEPLOYS}/nope/scale`)).status).toBe(404);
    expect(await storedBytes(ts, '/registry/deployments/team-a/web')).toBe(before);
    expect(await storage.currentRevision()).toBe(rev);
  });
});

describe('pods/binding', () => {
  it('sets spec.nodeName once, adds PodScheduled=True, and answers a 201 Success Status', async () => {
    const { json, clock } = await testServer();
    await json('POST', PODS, pod('p'));
    clock.advance(5000);
    const res = await json('POST', `${PODS}/p/binding`, binding('p', 'n1', { annotations: { why: 'test' } }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const p = (await json('GET', `${PODS}/p`)).body as Doc;
    expect(p.spec.nodeName).toBe('n1');
    expect(p.metadata.annotations).toEqual({ why: 'test' });
    expect(p.status).toEqual({
      phase: 'Pending',
      conditions: [
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:05Z' },
      ],
    });
  });

  it('answers 409 Conflict for a pod already bound, and changes nothing', async () => {
    const ts = await testServer();
    const { json, storage } = ts;
    await json('POST', PODS, pod('p'));
    await json('POST', `${PODS}/p/binding`, binding('p', 'n1'));
    const before = await storedBytes(ts, '/registry/pods/team-a/p');
    const rev = await storage.currentRevision();
    const again = await json('POST', `${PODS}/p/binding`, binding('p', 'n2'));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "n1"',
      reason: 'Conflict',
      details: { name: 'p', kind: 'pods/binding' },
      code: 409,
    });
    expect(await storedBytes(ts, '/registry/pods/team-a/p')).toBe(before);
    expect(await storage.currentRevision()).toBe(rev);
  });

  it('answers bad bindings as kube-apiserver does, storing nothing', async () => {
    const { json, storage } = await testServer();
    await json('POST', PODS, pod('p'));
    const rev = await storage.currentRevision();
    const missing = await json('POST', `${PODS}/nope/binding`, binding('nope', 'n1'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found' });
    const mismatch = await json('POST', `${PODS}/p/binding`, binding('q', 'n1'));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({
      reason: 'BadRequest',
      message: 'name in URL does not match name in Binding object',
    });
    // ValidatePodBinding's aggregate is no Status error: 500 without a reason.
    const noTarget = await json('POST', `${PODS}/p/binding`, { metadata: { name: 'p' }, target: { kind: 'Pod' } });
    expect(noTarget.status).toBe(500);
    expect(noTarget.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]',
      code: 500,
    });
    const staleUid = await json('POST', `${PODS}/p/binding`, binding('p', 'n1', { uid: 'other' }));
    expect(staleUid.status).toBe(409);
    expect(staleUid.body).toMatchObject({ reason: 'Conflict' });
    const get = await json('GET', `${PODS}/p/binding`);
    expect(get.status).toBe(405);
    expect(await storage.currentRevision()).toBe(rev);
  });

  it('refuses to bind a pod that is being deleted', async () => {
    const { json } = await testServer();
    await json('POST', PODS, { ...pod('p'), metadata: { name: 'p', finalizers: ['example.com/hold'] } });
    expect((await json('DELETE', `${PODS}/p`)).status).toBe(200);
    const res = await json('POST', `${PODS}/p/binding`, binding('p', 'n1'));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on pods/binding "p": pod p is being deleted, cannot be assigned to a host',
    });
  });

  it('dry run checks the binding and stores nothing', async () => {
    const { json, storage } = await testServer();
    await json('POST', PODS, pod('p'));
    const rev = await storage.currentRevision();
    const res = await json('POST', `${PODS}/p/binding?dryRun=All`, binding('p', 'n1'));
    expect(res.status).toBe(201);
    expect(await storage.currentRevision()).toBe(rev);
  });
});

describe('pods/eviction', () => {
  const eviction = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name },
    ...extra,
  });

  it('deletes the pod (no PodDisruptionBudgets) and answers a 201 Success Status', async () => {
    const { json, storage } = await testServer();
    await json('POST', PODS, pod('p'));
    const res = await json('POST', `${PODS}/p/eviction`, eviction('p', { deleteOptions: { gracePeriodSeconds: 0 } }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect(await storage.get('/registry/pods/team-a/p', { ignoreNotFound: true })).toBeUndefined();
  });

  it('answers a missing pod with 404, a name mismatch with 400, a failed precondition with 409, storing nothing', async () => {
    const { json, storage, clock } = await testServer();
    await json('POST', PODS, pod('p'));
    const rev = await storage.currentRevision();
    const missing = await json('POST', `${PODS}/nope/eviction`, eviction('nope'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found' });
    const mismatch = await json('POST', `${PODS}/p/eviction`, eviction('q'));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ message: 'name in URL does not match name in Eviction object' });
    // A Pending pod is deleted without a PDB check; its conflict is retried (EvictionsRetry: 20
    // tries 500 ms apart) before it is answered.
    let settled = false;
    const answer = json(
      'POST',
      `${PODS}/p/eviction`,
      eviction('p', { deleteOptions: { preconditions: { uid: 'other' } } }),
    );
    void answer.finally(() => {
      settled = true;
    });
    for (let i = 0; i < 40 && !settled; i++) {
      await new Promise((r) => setTimeout(r, 1));
      clock.advance(500);
    }
    const stale = await answer;
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ reason: 'Conflict' });
    const dry = await json('POST', `${PODS}/p/eviction?dryRun=All`, eviction('p'));
    expect(dry.status).toBe(201);
    expect(await storage.currentRevision()).toBe(rev);
    expect(await storage.get('/registry/pods/team-a/p')).toBeDefined();
  });
});

describe('discovery of subresources', () => {
  it('lists subresources in legacy APIResourceLists and aggregated discovery', async () => {
    const { json, call } = await testServer();
    const apps = (await json('GET', '/apis/apps/v1')).body as { resources: Record<string, unknown>[] };
    expect(apps.resources.slice(0, 3)).toEqual([
      expect.objectContaining({ name: 'deployments', kind: 'Deployment' }),
      {
        name: 'deployments/scale',
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      },
      {
        name: 'deployments/status',
        singularName: '',
        namespaced: true,
        kind: 'Deployment',
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    const core = (await json('GET', '/api/v1')).body as { resources: { name: string; verbs: string[] }[] };
    expect(core.resources.find((r) => r.name === 'pods/binding')).toMatchObject({ kind: 'Binding', verbs: ['create'] });
    expect(core.resources.find((r) => r.name === 'pods/eviction')).toEqual({
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    expect(core.resources.map((r) => r.name).filter((n) => n.endsWith('/status'))).toEqual([
      'namespaces/status',
      'pods/status',
      'nodes/status',
      'services/status',
      'replicationcontrollers/status',
      'resourcequotas/status',
      'persistentvolumeclaims/status',
      'persistentvolumes/status',
    ]);
    const agg = (await (
      await call('GET', '/apis', undefined, {
        Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      })
    ).json()) as { items: { versions: { resources: { subresources?: unknown }[] }[] }[] };
    expect(agg.items[0]?.versions[0]?.resources[0]?.subresources).toEqual([
      {
        subresource: 'scale',
        responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
        verbs: ['get', 'patch', 'update'],
      },
      {
        subresource: 'status',
        responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        verbs: ['get', 'patch', 'update'],
      },
    ]);
  });
});
