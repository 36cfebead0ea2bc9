/**
 * CustomResourceDefinitions served end to end in process: the CRD's status from the naming and
 * establishing controllers, the custom resource REST (defaults, pruning, validation, status and
 * scale subresources, generation), discovery, tables, OpenAPI, and deletion of the instances.
 */
import { describe, expect, it } from 'vitest';
import { type TestServer, testServer } from '../testing/test-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read response documents freely
type Doc = any;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/team-a/widgets';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const widgetCrd = (extra: Doc = {}): Doc => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'string', enum: ['small', 'large'] },
                  color: { type: 'string', default: 'blue', pattern: '^[a-z]+$' },
                  replicas: { type: 'integer', minimum: 0 },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
        additionalPrinterColumns: [
          { name: 'Size', type: 'string', jsonPath: '.spec.size' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
    ],
    ...extra,
  },
});

const widget = (name: string, spec: Doc = { size: 'small' }): Doc => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
});

/** Polls until `check` holds (the controllers run on storage watches). */
async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 400 && !check(v); i++) {
    await new Promise((r) => setTimeout(r, 10));
    v = await read();
  }
  if (!check(v)) throw new Error(`condition not reached: ${JSON.stringify(v)}`);
  return v;
}

/** A request answered with JSON, its body read freely. */
async function j(ts: TestServer, ...args: Parameters<TestServer['json']>): Promise<{ status: number; body: Doc }> {
  return ts.json(...args);
}

const condition = (crd: Doc, type: string): Doc => (crd.status?.conditions ?? []).find((c: Doc) => c.type === type);

async function establish(ts: TestServer, crd: Doc = widgetCrd()): Promise<Doc> {
  const created = await j(ts, 'POST', CRDS, crd);
  expect(created.status).toBe(201);
  return eventually(
    async () => (await j(ts, 'GET', `${CRDS}/${crd.metadata.name}`)).body,
    (c) => condition(c, 'Established')?.status === 'True',
  );
}

describe('CustomResourceDefinitions', () => {
  it('a created CRD gets its defaults, storedVersions, accepted names and Established', async () => {
    const ts = await testServer();
    const created = await j(ts, 'POST', CRDS, widgetCrd());
    expect(created.status).toBe(201);
    const c: Doc = created.body;
    expect(c.spec.names).toEqual({
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      kind: 'Widget',
      listKind: 'WidgetList',
    });
    expect(c.spec.conversion).toEqual({ strategy: 'None' });
    expect(c.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    expect(c.metadata.generation).toBe(1);

    const est = await eventually(
      async () => (await j(ts, 'GET', `${CRDS}/widgets.example.com`)).body,
      (x) => condition(x, 'Established')?.status === 'True',
    );
    expect(est.status.acceptedNames).toEqual(c.spec.names);
    expect(condition(est, 'NamesAccepted')).toMatchObject({
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    });
    expect(condition(est, 'Established')).toMatchObject({
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
  });

  it('a kind taken by another CRD of the group: NamesAccepted False, never served', async () => {
    const ts = await testServer();
    await establish(ts);
    const other = widgetCrd();
    other.metadata.name = 'gizmos.example.com';
    other.spec.names = { plural: 'gizmos', kind: 'Widget' };
    expect((await j(ts, 'POST', CRDS, other)).status).toBe(201);
    const c = await eventually(
      async () => (await j(ts, 'GET', `${CRDS}/gizmos.example.com`)).body,
      (x) => condition(x, 'NamesAccepted') !== undefined,
    );
    expect(condition(c, 'NamesAccepted')).toMatchObject({
      status: 'False',
      // Kind and listKind both conflict: the last check's reason stands, as in naming_controller.go.
      reason: 'ListKindConflict',
      message: '"WidgetList" is already in use',
    });
    expect(condition(c, 'Established')).toMatchObject({ status: 'False', reason: 'NotAccepted' });
    expect((await ts.call('GET', '/apis/example.com/v1/namespaces/team-a/gizmos')).status).toBe(404);

    // The first CRD gone, its names are free: the group's other CRDs are looked at again.
    expect((await ts.call('DELETE', `${CRDS}/widgets.example.com`)).status).toBe(200);
    const freed = await eventually(
      async () => (await j(ts, 'GET', `${CRDS}/gizmos.example.com`)).body,
      (x) => condition(x, 'Established')?.status === 'True',
    );
    expect(condition(freed, 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts' });
    expect((await ts.call('GET', '/apis/example.com/v1/namespaces/team-a/gizmos')).status).toBe(200);
  });

  it('a CRD never established is deleted at once (Terminating NeverEstablished)', async () => {
    const ts = await testServer();
    await establish(ts);
    const other = widgetCrd();
    other.metadata.name = 'gizmos.example.com';
    other.spec.names = { plural: 'gizmos', kind: 'Widget' };
    await j(ts, 'POST', CRDS, other);
    await eventually(
      async () => (await j(ts, 'GET', `${CRDS}/gizmos.example.com`)).body,
      (x) => condition(x, 'NamesAccepted')?.status === 'False',
    );
    expect((await ts.call('DELETE', `${CRDS}/gizmos.example.com`)).status).toBe(200);
    await eventually(
      async () => (await ts.call('GET', `${CRDS}/gizmos.example.com`)).status,
      (s) => s === 404,
    );
  });

  it('serves the custom resource: defaults, status dropped on create, generation, status and scale', async () => {
    const ts = await testServer();
    await establish(ts);
    const created = await j(ts, 'POST', WIDGETS, {
      ...widget('w1', { size: 'small', replicas: 2 }),
      status: { replicas: 9 },
    });
    expect(created.status).toBe(201);
    const w: Doc = created.body;
    expect(w.spec).toEqual({ size: 'small', replicas: 2, color: 'blue' });
    expect(w.status).toBeUndefined();
    expect(w.metadata.generation).toBe(1);
    // Stored under the group, with the storage version.
    const raw = JSON.parse(
      new TextDecoder().decode((await ts.storage.get('/registry/example.com/widgets/team-a/w1'))?.value),
    );
    expect(raw.apiVersion).toBe('example.com/v1');

    const patched = await j(ts, 'PATCH', `${WIDGETS}/w1`, { spec: { size: 'large' }, status: { replicas: 4 } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.body.spec.size).toBe('large');
    expect(patched.body.status).toBeUndefined();
    expect(patched.body.metadata.generation).toBe(2);

    const status = await j(
      ts,
      'PATCH',
      `${WIDGETS}/w1/status`,
      { spec: { size: 'small' }, status: { replicas: 1, selector: 'app=w' } },
      MERGE,
    );
    expect(status.body.message).toBeUndefined();
    expect(status.status).toBe(200);
    expect(status.body.spec.size).toBe('large');
    expect(status.body.status).toEqual({ replicas: 1, selector: 'app=w' });
    expect(status.body.metadata.generation).toBe(2);

    const scale = await j(ts, 'GET', `${WIDGETS}/w1/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=w' },
    });
    const scaled = await j(ts, 'PATCH', `${WIDGETS}/w1/scale`, { spec: { replicas: 5 } }, MERGE);
    expect(scaled.status).toBe(200);
    expect(scaled.body.spec).toEqual({ replicas: 5 });
    expect((await j(ts, 'GET', `${WIDGETS}/w1`)).body.spec.replicas).toBe(5);

    // Strategic merge patches need Go struct tags: 415 for custom resources.
    const smp = await j(
      ts,
      'PATCH',
      `${WIDGETS}/w1`,
      { spec: { size: 'small' } },
      {
        'Content-Type': 'application/strategic-merge-patch+json',
      },
    );
    expect(smp.status).toBe(415);
    expect(smp.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('unknown fields: dropped with a warning (Warn), 400 with Strict', async () => {
    const ts = await testServer();
    await establish(ts);
    const res = await ts.call('POST', WIDGETS, widget('w1', { size: 'small', foo: 1 }));
    expect(res.status).toBe(201);
    expect(res.headers.get('Warning')).toBe('299 - "unknown field \\"spec.foo\\""');
    expect(((await res.json()) as Doc).spec.foo).toBeUndefined();
    const strict = await j(ts, 'POST', `${WIDGETS}?fieldValidation=Strict`, widget('w2', { size: 'small', foo: 1 }));
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.foo"',
    );
    expect((await ts.call('GET', `${WIDGETS}/w2`)).status).toBe(404);
    // ObjectMeta has no such field either.
    const meta = await ts.call('POST', WIDGETS, { ...widget('w3'), metadata: { name: 'w3', colour: 'red' } });
    expect(meta.status).toBe(201);
    expect(meta.headers.get('Warning')).toBe('299 - "unknown field \\"metadata.colour\\""');
    expect(((await meta.json()) as Doc).metadata.colour).toBeUndefined();
  });

  it('lists as a Table with the printer columns, in discovery and OpenAPI', async () => {
    const ts = await testServer();
    await establish(ts);
    await j(ts, 'POST', WIDGETS, widget('w1', { size: 'large', replicas: 3 }));
    const table = await j(ts, 'GET', WIDGETS, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.columnDefinitions.map((c: Doc) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Size', 'string', 0],
      ['Replicas', 'integer', 0],
      ['Color', 'string', 1],
      ['Age', 'date', 0],
    ]);
    expect(table.body.rows[0].cells).toEqual(['w1', 'large', 3, 'blue', '0s']);

    const list = await j(ts, 'GET', '/apis/example.com/v1');
    expect(list.body.resources).toEqual([
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        shortNames: ['wd'],
      },
      { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] },
      {
        name: 'widgets/scale',
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    const aggregated = await j(ts, 'GET', '/apis', undefined, {
      Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    });
    const group = aggregated.body.items.find((g: Doc) => g.metadata.name === 'example.com');
    expect(group.versions[0].resources[0].subresources.map((s: Doc) => s.subresource)).toEqual(['status', 'scale']);
    const groups = await j(ts, 'GET', '/apis');
    expect(groups.body.groups.at(-1)).toEqual({
      name: 'example.com',
      versions: [{ groupVersion: 'example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
    });
    const index = await j(ts, 'GET', '/openapi/v3');
    expect(index.body.paths['apis/example.com/v1']).toBeDefined();
    const doc = await j(ts, 'GET', '/openapi/v3/apis/example.com/v1');
    const schema = doc.body.components.schemas['com.example.v1.Widget'];
    expect(schema['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', kind: 'Widget', version: 'v1' },
    ]);
    expect(Object.keys(schema.properties).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(doc.body.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined();
  });

  it('deleting the CRD deletes its instances, then the CRD; instances with finalizers hold it', async () => {
    const ts = await testServer();
    await establish(ts);
    await j(ts, 'POST', WIDGETS, widget('w1'));
    const held = widget('w2');
    held.metadata.finalizers = ['example.com/hold'];
    await j(ts, 'POST', WIDGETS, held);
    const del = await j(ts, 'DELETE', `${CRDS}/widgets.example.com`);
    expect(del.status).toBe(200);
    expect(del.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(condition(del.body, 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionPending' });

    // Discovery drops the write verbs while the CRD terminates.
    const list = await j(ts, 'GET', '/apis/example.com/v1');
    expect(list.body.resources[0].verbs).toEqual(['delete', 'deletecollection', 'get', 'list', 'watch']);
    // No new instances while terminating.
    const create = await j(ts, 'POST', WIDGETS, widget('w3'));
    expect(create.status).toBe(405);
    expect(create.body.message).toBe('create is not supported on resources of kind "widgets.example.com"');

    await eventually(
      async () => (await ts.call('GET', `${WIDGETS}/w1`)).status,
      (s) => s === 404,
    );
    const crd = await eventually(
      async () => (await j(ts, 'GET', `${CRDS}/widgets.example.com`)).body,
      (c) => condition(c, 'Terminating')?.reason === 'InstanceDeletionInProgress',
    );
    expect(crd.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    // Removing the instance's finalizer lets the CRD go.
    await j(ts, 'PATCH', `${WIDGETS}/w2`, { metadata: { finalizers: null } }, MERGE);
    await eventually(
      async () => (await ts.call('GET', `${CRDS}/widgets.example.com`)).status,
      (s) => s === 404,
    );
    expect((await ts.storage.list('/registry/example.com/widgets/')).items).toEqual([]);
    expect((await ts.call('GET', WIDGETS)).status).toBe(404);
  });
});

describe('custom resources in more shapes', () => {
  it('several versions: the preferred first in discovery, stored in the storage version, read in any', async () => {
    const ts = await testServer();
    const c = widgetCrd();
    const v1 = c.spec.versions[0];
    c.spec.versions = [
      { ...v1, name: 'v1beta1', storage: false, deprecated: true },
      { ...v1, name: 'v1', storage: true },
      { ...v1, name: 'v2alpha1', storage: false },
    ];
    await establish(ts, c);
    const groups = await j(ts, 'GET', '/apis');
    expect(groups.body.groups.at(-1).versions.map((v: Doc) => v.version)).toEqual(['v1', 'v1beta1', 'v2alpha1']);
    const created = await j(ts, 'POST', '/apis/example.com/v1beta1/namespaces/team-a/widgets', {
      ...widget('w1'),
      apiVersion: 'example.com/v1beta1',
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('example.com/v1beta1');
    const raw = JSON.parse(
      new TextDecoder().decode((await ts.storage.get('/registry/example.com/widgets/team-a/w1'))?.value),
    );
    expect(raw.apiVersion).toBe('example.com/v1');
    expect((await j(ts, 'GET', '/apis/example.com/v2alpha1/namespaces/team-a/widgets/w1')).body.apiVersion).toBe(
      'example.com/v2alpha1',
    );
    // A deprecated version warns on every answer (the default text names group/version and kind).
    const old = await ts.call('GET', '/apis/example.com/v1beta1/namespaces/team-a/widgets/w1');
    expect(old.headers.get('Warning')).toBe('299 - "example.com/v1beta1 Widget is deprecated"');
    expect((await ts.call('GET', `${WIDGETS}/w1`)).headers.get('Warning')).toBeNull();
    // The body's apiVersion must be the URL's.
    const wrong = await j(ts, 'POST', `${WIDGETS}`, { ...widget('w2'), apiVersion: 'example.com/v1beta1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      'the API version in the data (example.com/v1beta1) does not match the expected API version (example.com/v1)',
    );
  });

  it('cluster-scoped, without subresources: status is written with the object and bumps generation', async () => {
    const ts = await testServer();
    const c = widgetCrd();
    c.spec.scope = 'Cluster';
    c.spec.names.listKind = 'WidgetCollection';
    delete c.spec.versions[0].subresources;
    await establish(ts, c);
    const path = '/apis/example.com/v1/widgets';
    expect((await j(ts, 'GET', path)).body.kind).toBe('WidgetCollection');
    const created = await j(ts, 'POST', path, { ...widget('w1'), status: { replicas: 2 } });
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({ replicas: 2 });
    expect(created.body.metadata.namespace).toBeUndefined();
    const patched = await j(ts, 'PATCH', `${path}/w1`, { status: { replicas: 3 } }, MERGE);
    expect(patched.body.metadata.generation).toBe(2);
    expect((await ts.call('GET', `${path}/w1/status`)).status).toBe(404);
    expect((await ts.call('GET', '/apis/example.com/v1/namespaces/team-a/widgets')).status).toBe(404);
  });

  it('lists with field selectors on metadata.name, watches changes', async () => {
    const ts = await testServer();
    await establish(ts);
    await j(ts, 'POST', WIDGETS, widget('w1'));
    await j(ts, 'POST', WIDGETS, widget('w2'));
    const list = await j(ts, 'GET', `${WIDGETS}?fieldSelector=metadata.name%3Dw2`);
    expect(list.body.kind).toBe('WidgetList');
    expect(list.body.items.map((i: Doc) => i.metadata.name)).toEqual(['w2']);
    const bad = await j(ts, 'GET', `${WIDGETS}?fieldSelector=spec.size%3Dsmall`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      '"spec.size" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );

    const res = await ts.call('GET', `${WIDGETS}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await j(ts, 'PATCH', `${WIDGETS}/w1`, { spec: { size: 'large' } }, MERGE);
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const event = JSON.parse(text.split('\n')[0] as string);
    expect(event.type).toBe('MODIFIED');
    expect(event.object.spec).toEqual({ size: 'large', color: 'blue' });
  });
});

describe('CRD updates', () => {
  it('a new storage version joins storedVersions, bumps generation and becomes the preferred version', async () => {
    const ts = await testServer();
    const current: Doc = await establish(ts);
    const v2 = { ...current.spec.versions[0], name: 'v2' };
    current.spec.versions[0].storage = false;
    current.spec.versions.push(v2);
    const updated = await j(ts, 'PUT', `${CRDS}/widgets.example.com`, current);
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.generation).toBe(2);
    expect(updated.body.status.storedVersions).toEqual(['v1', 'v2']);
    const groups = await eventually(
      async () => (await j(ts, 'GET', '/apis')).body,
      (g) => g.groups.at(-1).versions.length === 2,
    );
    expect(groups.groups.at(-1).preferredVersion).toEqual({ groupVersion: 'example.com/v2', version: 'v2' });

    // Group and plural are immutable, and so are scope and kind once Established.
    current.metadata.resourceVersion = updated.body.metadata.resourceVersion;
    current.spec.scope = 'Cluster';
    const bad = await j(ts, 'PUT', `${CRDS}/widgets.example.com`, current);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.scope: Invalid value: "Cluster": field is immutable',
    );
  });
});

describe('naming races', () => {
  it('two CRDs created together with one kind: only one accepts it', async () => {
    const ts = await testServer();
    const a = widgetCrd();
    const b = widgetCrd();
    b.metadata.name = 'gizmos.example.com';
    b.spec.names = { plural: 'gizmos', kind: 'Widget' };
    await Promise.all([j(ts, 'POST', CRDS, a), j(ts, 'POST', CRDS, b)]);
    const both = await eventually(
      async () =>
        Promise.all(['widgets', 'gizmos'].map(async (n) => (await j(ts, 'GET', `${CRDS}/${n}.example.com`)).body)),
      (xs) => xs.every((x) => condition(x, 'NamesAccepted') !== undefined),
    );
    expect(both.map((x) => condition(x, 'NamesAccepted').status).sort()).toEqual(['False', 'True']);
  });
});
