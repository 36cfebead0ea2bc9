import { describe, expect, it } from 'vitest';
import { testServer } from '../testing/test-server.js';

const CM = '/api/v1/namespaces/team-a/configmaps';
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app: 'web' } },
  data: { a: 'b' },
  ...extra,
});

describe('create', () => {
  it('assigns uid, creationTimestamp and resourceVersion = the store revision', async () => {
    const { json, storage } = await testServer();
    const res = await json('POST', CM, cm('cm1'));
    expect(res.status).toBe(201);
    const meta = res.body.metadata as Record<string, unknown>;
    expect(meta.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.creationTimestamp).toBe('2025-01-01T00:00:00Z');
    expect(meta.resourceVersion).toBe(String(await storage.currentRevision()));
    expect(meta.namespace).toBe('team-a');
    expect(meta.generation).toBeUndefined();
    const stored = await storage.get('/registry/configmaps/team-a/cm1');
    expect(JSON.parse(new TextDecoder().decode(stored?.value)).metadata.resourceVersion).toBeUndefined();
  });

  it('generates a name from generateName with a 5-character suffix', async () => {
    const { json } = await testServer();
    const res = await json('POST', CM, { metadata: { generateName: 'gen-' } });
    expect((res.body.metadata as { name: string }).name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('starts generation at 1 for kinds with a spec generation, with defaults and empty status', async () => {
    const { json } = await testServer();
    const res = await json('POST', '/apis/apps/v1/namespaces/team-a/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
      status: { replicas: 9 },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toMatchObject({ generation: 1 });
    expect(res.body.spec).toMatchObject({ replicas: 1, strategy: { type: 'RollingUpdate' } });
    expect(res.body.status).toEqual({});
  });

  it('applies the pod spec defaults to pods and deployment templates', async () => {
    const { json } = await testServer();
    const pod = await json('POST', '/api/v1/namespaces/team-a/pods', {
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'a', image: 'nginx', ports: [{ containerPort: 80 }] },
          { name: 'b', image: 'r/b:1.2' },
        ],
      },
    });
    expect(pod.body.spec).toEqual({
      containers: [
        {
          name: 'a',
          image: 'nginx',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'Always',
        },
        {
          name: 'b',
          image: 'r/b:1.2',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    });
    const d = await json('POST', '/apis/apps/v1/namespaces/team-a/deployments', {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'a', image: 'nginx:latest' }] } },
      },
    });
    expect(d.body.spec).toMatchObject({
      template: { spec: { restartPolicy: 'Always', containers: [{ imagePullPolicy: 'Always' }] } },
    });
  });

  it('answers 409 AlreadyExists for a taken name', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    const res = await json('POST', CM, cm('cm1'));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ reason: 'AlreadyExists', message: 'configmaps "cm1" already exists' });
  });

  it('answers 404 when the namespace does not exist, and stores nothing', async () => {
    const { json, storage } = await testServer();
    const before = await storage.currentRevision();
    const res = await json('POST', '/api/v1/namespaces/nope/configmaps', cm('cm1'));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ reason: 'NotFound', message: 'namespaces "nope" not found' });
    expect(await storage.currentRevision()).toBe(before);
  });

  it('answers 422 Invalid with Kubernetes text for a bad name or label, and stores nothing', async () => {
    const { json, storage } = await testServer();
    const before = await storage.currentRevision();
    const bad = await json('POST', CM, cm('Bad_Name'));
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      reason: 'Invalid',
      message: expect.stringMatching(
        /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
      ),
      details: {
        name: 'Bad_Name',
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueInvalid', field: 'metadata.name' }],
      },
    });
    const label = await json('POST', CM, { metadata: { name: 'ok', labels: { 'a b': 'c' } } });
    expect(label.status).toBe(422);
    expect((label.body.details as { causes: { field: string }[] }).causes[0]?.field).toBe('metadata.labels');
    expect(await storage.currentRevision()).toBe(before);
  });

  it('answers 400 for a kind or apiVersion that does not match the URL, or a namespace mismatch', async () => {
    const { json } = await testServer();
    expect((await json('POST', CM, { ...cm('x'), kind: 'Secret' })).status).toBe(400);
    const scheme = 'in scheme "pkg/api/legacyscheme/scheme.go:30"';
    const cases: [path: string, apiVersion: string, kind: string, message: string][] = [
      // The scheme has no apps/v1 ConfigMap (runtime.Scheme.New → transformDecodeError).
      [
        CM,
        'apps/v1',
        'ConfigMap',
        `ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" ${scheme}`,
      ],
      // A kind written in lower case, as people do (the text real clusters answer).
      [
        '/api/v1/namespaces/team-a/pods',
        'v1',
        'pod',
        `pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" ${scheme}`,
      ],
      // The URL's kind in a version the scheme still knows decodes, then is refused for its version.
      [
        '/apis/apps/v1/namespaces/team-a/deployments',
        'apps/v1beta1',
        'Deployment',
        'the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)',
      ],
    ];
    for (const [path, apiVersion, kind, message] of cases) {
      const res = await json('POST', path, { apiVersion, kind, metadata: { name: 'x' } });
      expect(res.body).toMatchObject({ code: 400, reason: 'BadRequest', message });
    }
    const ns = await json('POST', CM, { metadata: { name: 'x', namespace: 'default' } });
    expect(ns.body.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
    expect((await json('POST', CM, '{not json')).status).toBe(400);
  });

  // In document order, as Go's decoder meets them (metadata keeps its place before spec).
  it('honours fieldValidation for unknown top-level and metadata fields', async () => {
    const { json, call, storage } = await testServer();
    const before = await storage.currentRevision();
    const strict = await json('POST', `${CM}?fieldValidation=Strict`, {
      ...cm('x'),
      spec: {},
      metadata: { name: 'x', colour: 1 },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.colour", unknown field "spec"',
    );
    expect(await storage.currentRevision()).toBe(before);
    const warn = await call('POST', `${CM}?fieldValidation=Warn`, { ...cm('w'), spec: {} });
    expect(warn.status).toBe(201);
    expect(warn.headers.get('Warning')).toBe('299 - "unknown field \\"spec\\""');
    expect(
      (await call('POST', `${CM}?fieldValidation=Ignore`, { ...cm('i'), spec: {} })).headers.get('Warning'),
    ).toBeNull();
    const bad = await json('POST', `${CM}?fieldValidation=Sometimes`, cm('s'));
    expect(bad.status).toBe(422);
  });

  it('validates ConfigMap keys and the 1 MiB limit', async () => {
    const { json } = await testServer();
    const bad = await json('POST', CM, {
      metadata: { name: 'k' },
      data: { 'a b': '1' },
      binaryData: { 'a b': 'MQ==' },
    });
    expect(bad.body).toMatchObject({
      code: 422,
      details: {
        causes: [
          {
            field: 'data[a b]',
            message: expect.stringContaining('a valid config key must consist of alphanumeric characters'),
          },
          { field: 'data[a b]', message: 'Invalid value: "a b": duplicate of key present in binaryData' },
          { field: 'binaryData[a b]' },
          { field: 'binaryData[a b]', message: 'Invalid value: "a b": duplicate of key present in data' },
        ],
      },
    });
    const big = await json('POST', CM, { metadata: { name: 'big' }, data: { a: 'x'.repeat(1024 * 1024 + 1) } });
    expect(big.body).toMatchObject({ code: 422, details: { causes: [{ reason: 'FieldValueTooLong' }] } });
  });

  it('folds Secret stringData into data and defaults the type', async () => {
    const { json } = await testServer();
    const res = await json('POST', '/api/v1/namespaces/team-a/secrets', {
      metadata: { name: 's' },
      stringData: { k: 'v' },
    });
    expect(res.body).toMatchObject({ type: 'Opaque', data: { k: 'dg==' } });
    expect(res.body.stringData).toBeUndefined();
  });
});

describe('get and list', () => {
  it('gets one object and answers 404 with the group-qualified name', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    expect((await json('GET', `${CM}/cm1`)).body).toMatchObject({ data: { a: 'b' } });
    const missing = await json('GET', '/apis/apps/v1/namespaces/team-a/deployments/nope');
    expect(missing.body).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'deployments.apps "nope" not found',
      details: { name: 'nope', group: 'apps', kind: 'deployments' },
    });
  });

  it('lists with label and field selectors, across namespaces, items always present', async () => {
    const { json, storage } = await testServer();
    await json('POST', CM, cm('a'));
    await json('POST', CM, cm('b', { metadata: { name: 'b', labels: { app: 'db' } } }));
    await json('POST', '/api/v1/namespaces/default/configmaps', cm('c'));
    const names = (body: Record<string, unknown>) =>
      (body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    const all = await json('GET', '/api/v1/configmaps');
    expect(all.body).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1' });
    expect(names(all.body)).toEqual(['c', 'a', 'b']);
    expect((all.body.metadata as { resourceVersion: string }).resourceVersion).toBe(
      String(await storage.currentRevision()),
    );
    expect(names((await json('GET', `${CM}?labelSelector=app%3Dweb`)).body)).toEqual(['a']);
    expect(names((await json('GET', `${CM}?fieldSelector=metadata.name%3Db`)).body)).toEqual(['b']);
    expect(names((await json('GET', '/api/v1/configmaps?fieldSelector=metadata.namespace%3Ddefault')).body)).toEqual([
      'c',
    ]);
    expect((await json('GET', `${CM}?labelSelector=x%3D`)).body.items).toEqual([]);
    expect((await json('GET', `${CM}?fieldSelector=data.a%3Db`)).status).toBe(400);
    expect((await json('GET', `${CM}?labelSelector=%3D%3D%3D`)).status).toBe(400);
  });

  it('pages with limit/continue at the first page revision', async () => {
    const { json } = await testServer();
    for (const n of ['a', 'b', 'c']) await json('POST', CM, cm(n));
    const first = await json('GET', `${CM}?limit=2`);
    const meta = first.body.metadata as { continue: string; resourceVersion: string; remainingItemCount: number };
    expect((first.body.items as unknown[]).length).toBe(2);
    expect(meta.remainingItemCount).toBe(1);
    await json('POST', CM, cm('d'));
    const second = await json('GET', `${CM}?limit=2&continue=${encodeURIComponent(meta.continue)}`);
    expect((second.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toEqual(['c']);
    expect((second.body.metadata as { resourceVersion: string }).resourceVersion).toBe(meta.resourceVersion);
    expect(
      (await json('GET', `${CM}?limit=2&continue=${encodeURIComponent(meta.continue)}&resourceVersion=3`)).status,
    ).toBe(400);
  });

  it('applies resourceVersion and resourceVersionMatch, 410 Expired for a compacted revision', async () => {
    const { json, storage } = await testServer();
    await json('POST', CM, cm('a'));
    const rv = (await storage.currentRevision()).toString();
    await json('POST', CM, cm('b'));
    const exact = await json('GET', `${CM}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect((exact.body.items as unknown[]).length).toBe(1);
    expect((exact.body.metadata as { resourceVersion: string }).resourceVersion).toBe(rv);
    // ValidateListOptions failures are 422 Invalid ListOptions (handlers/get.go).
    expect((await json('GET', `${CM}?resourceVersion=0&resourceVersionMatch=Exact`)).status).toBe(422);
    expect((await json('GET', `${CM}?resourceVersionMatch=NotOlderThan`)).status).toBe(422);
    expect((await json('GET', `${CM}?resourceVersion=abc`)).status).toBe(400);
    await storage.compact(await storage.currentRevision());
    const gone = await json('GET', `${CM}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(gone.body).toMatchObject({ code: 410, reason: 'Expired' });
  });
});

describe('update and patch', () => {
  it('updates with optimistic concurrency: a stale resourceVersion is a 409 Conflict', async () => {
    const { json, storage } = await testServer();
    const created = (await json('POST', CM, cm('cm1'))).body;
    const updated = await json('PUT', `${CM}/cm1`, { ...created, data: { a: 'c' } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata).toMatchObject({
      uid: (created.metadata as { uid: string }).uid,
      creationTimestamp: '2025-01-01T00:00:00Z',
    });
    const before = await storage.currentRevision();
    const stale = await json('PUT', `${CM}/cm1`, { ...created, data: { a: 'd' } });
    expect(stale.body).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "cm1": the object has been modified; please apply your changes to the latest version and try again',
    });
    expect(await storage.currentRevision()).toBe(before);
    expect((await json('GET', `${CM}/cm1`)).body.data).toEqual({ a: 'c' });
  });

  it('keeps immutable ConfigMaps and Secret types unchanged', async () => {
    const { json } = await testServer();
    const mp = { 'Content-Type': 'application/merge-patch+json' };
    await json('POST', CM, { metadata: { name: 'frozen' }, data: { a: '1' }, immutable: true });
    const res = await json('PATCH', `${CM}/frozen`, '{"data":{"a":"2"}}', mp);
    expect(res.body).toMatchObject({
      code: 422,
      message: 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    });
    await json('POST', '/api/v1/namespaces/team-a/secrets', { metadata: { name: 's' } });
    const type = await json('PATCH', '/api/v1/namespaces/team-a/secrets/s', '{"type":"other"}', mp);
    expect(type.body).toMatchObject({
      code: 422,
      message: 'Secret "s" is invalid: type: Invalid value: "other": field is immutable',
    });
  });

  it('rejects a PUT whose name differs from the URL, or of a missing object', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    expect((await json('PUT', `${CM}/cm1`, cm('other'))).status).toBe(400);
    expect((await json('PUT', `${CM}/nope`, cm('nope'))).status).toBe(404);
  });

  it('does not write when nothing changed', async () => {
    const { json, storage } = await testServer();
    const created = (await json('POST', CM, cm('cm1'))).body;
    const before = await storage.currentRevision();
    const same = await json('PUT', `${CM}/cm1`, created);
    expect((same.body.metadata as { resourceVersion: string }).resourceVersion).toBe(String(before));
    expect(await storage.currentRevision()).toBe(before);
  });

  it('bumps generation on a spec change only and keeps the stored status', async () => {
    const { json } = await testServer();
    const path = '/apis/apps/v1/namespaces/team-a/deployments';
    await json('POST', path, {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const labelled = await json('PATCH', `${path}/web`, '{"metadata":{"labels":{"x":"y"}}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(labelled.body.metadata).toMatchObject({ generation: 1, labels: { x: 'y' } });
    const scaled = await json('PATCH', `${path}/web`, '{"spec":{"replicas":3},"status":{"replicas":3}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(scaled.body.metadata).toMatchObject({ generation: 2 });
    expect(scaled.body.status).toEqual({});
  });

  it('applies JSON patches, with 422 for a failed test and nothing stored', async () => {
    const { json, storage } = await testServer();
    await json('POST', CM, cm('cm1'));
    const h = { 'Content-Type': 'application/json-patch+json' };
    const ok = await json('PATCH', `${CM}/cm1`, [{ op: 'add', path: '/data/z', value: '1' }], h);
    expect(ok.body.data).toEqual({ a: 'b', z: '1' });
    const before = await storage.currentRevision();
    const failed = await json('PATCH', `${CM}/cm1`, [{ op: 'test', path: '/data/a', value: 'q' }], h);
    expect(failed.status).toBe(422);
    expect(await storage.currentRevision()).toBe(before);
  });

  it('answers 415 for patch types it does not implement, 404 for a missing object', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    const cbor = await json('PATCH', `${CM}/cm1?fieldManager=me`, '{}', {
      'Content-Type': 'application/apply-patch+cbor',
    });
    expect(cbor.body).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    });
    const missing = await json('PATCH', `${CM}/nope`, '{}', { 'Content-Type': 'application/merge-patch+json' });
    expect(missing.status).toBe(404);
  });

  it('applies a strategic merge patch as kubectl apply sends it', async () => {
    const { json } = await testServer();
    const path = '/apis/apps/v1/namespaces/team-a/deployments';
    await json('POST', path, {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'a', image: 'x:1' },
              { name: 'b', image: 'y' },
            ],
          },
        },
      },
    });
    const res = await json(
      'PATCH',
      `${path}/web`,
      { spec: { replicas: 2, template: { spec: { containers: [{ name: 'a', image: 'x:2' }] } } } },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect(res.body.spec).toMatchObject({
      replicas: 2,
      template: {
        spec: {
          containers: [
            { name: 'a', image: 'x:2' },
            { name: 'b', image: 'y' },
          ],
        },
      },
    });
    expect(res.body.metadata).toMatchObject({ generation: 2 });
  });

  it('checks a resourceVersion sent in a merge patch', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    const res = await json('PATCH', `${CM}/cm1`, '{"metadata":{"resourceVersion":"1"},"data":{"a":"x"}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(res.body).toMatchObject({ code: 409, reason: 'Conflict' });
  });
});

describe('delete', () => {
  it('deletes with the DeleteOptions body kubectl sends and returns the object', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    const res = await json('DELETE', `${CM}/cm1`, { propagationPolicy: 'Background' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cm1' } });
    expect((await json('GET', `${CM}/cm1`)).status).toBe(404);
    expect((await json('DELETE', `${CM}/cm1`)).status).toBe(404);
  });

  it('deletes a collection by label selector', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('a'));
    await json('POST', CM, cm('b', { metadata: { name: 'b', labels: { app: 'db' } } }));
    const res = await json('DELETE', `${CM}?labelSelector=app%3Dweb`);
    expect(res.body).toMatchObject({ kind: 'ConfigMapList', items: [{ metadata: { name: 'a' } }] });
    const left = (await json('GET', CM)).body.items as { metadata: { name: string } }[];
    expect(left.map((i) => i.metadata.name)).toEqual(['b']);
  });

  it('refuses a failed uid precondition and invalid options, deleting nothing', async () => {
    const { json } = await testServer();
    await json('POST', CM, cm('cm1'));
    const pre = await json('DELETE', `${CM}/cm1`, { preconditions: { uid: 'other' } });
    expect(pre.body).toMatchObject({ code: 409, reason: 'Conflict' });
    const bad = await json('DELETE', `${CM}/cm1`, { propagationPolicy: 'Sideways' });
    expect(bad.status).toBe(422);
    expect((await json('GET', `${CM}/cm1`)).status).toBe(200);
  });

  it('keeps an object with finalizers until the last one is removed', async () => {
    const { json } = await testServer();
    await json('POST', CM, { metadata: { name: 'f', finalizers: ['example.com/keep'] } });
    const marked = await json('DELETE', `${CM}/f`);
    expect((marked.body.metadata as { deletionTimestamp: string }).deletionTimestamp).toBe('2025-01-01T00:00:00Z');
    expect((await json('GET', `${CM}/f`)).status).toBe(200);
    await json('PATCH', `${CM}/f`, '{"metadata":{"finalizers":null}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    expect((await json('GET', `${CM}/f`)).status).toBe(404);
  });
});

describe('cluster-scoped resources', () => {
  it('serves namespaces at /api/v1/namespaces/<name> with status Active', async () => {
    const { json } = await testServer();
    const ns = await json('GET', '/api/v1/namespaces/team-a');
    expect(ns.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'team-a' }, status: { phase: 'Active' } });
    expect((ns.body.metadata as Record<string, unknown>).namespace).toBeUndefined();
    const node = await json('POST', '/api/v1/nodes', { metadata: { name: 'n1' } });
    expect(node.status).toBe(201);
    expect((await json('GET', '/api/v1/namespaces/default/nodes/n1')).status).toBe(404);
  });
});
