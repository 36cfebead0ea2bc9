/** Server-side apply and managedFields through the in-process apiserver. */
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestServer, testServer } from '../testing/test-server.js';

const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

const deployment = (replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
    },
    ...extra,
  },
});

type Entry = {
  manager: string;
  operation: string;
  apiVersion: string;
  fieldsV1: unknown;
  subresource?: string;
  time?: string;
};
const managed = (obj: Record<string, unknown>): Entry[] => (obj.metadata as { managedFields: Entry[] }).managedFields;

let s: TestServer;
beforeEach(async () => {
  s = await testServer();
});

describe('managedFields of non-apply writes', () => {
  it('a create records an Update entry with the fields the creator set (defaults included)', async () => {
    const res = await s.json('POST', `${DEPLOY}?fieldManager=kubectl-create`, deployment(2));
    expect(res.status).toBe(201);
    const [entry, ...rest] = managed(res.body);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      time: '2025-01-01T00:00:00Z',
    });
    const f = entry?.fieldsV1 as Record<string, Record<string, unknown>>;
    expect(f['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    const spec = f['f:spec'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(spec)).toEqual([
      'f:progressDeadlineSeconds',
      'f:replicas',
      'f:revisionHistoryLimit',
      'f:selector',
      'f:strategy',
      'f:template',
    ]);
    expect(spec['f:strategy']).toEqual({
      'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
      'f:type': {},
    });
    const containers = (
      (spec['f:template'] as Record<string, Record<string, unknown>>)['f:spec'] as Record<
        string,
        Record<string, unknown>
      >
    )['f:containers'] as Record<string, Record<string, unknown>>;
    const nginx = containers['k:{"name":"nginx"}'] as Record<string, unknown>;
    expect(nginx['.']).toEqual({});
    expect(nginx['f:ports']).toEqual({
      '.': {},
      'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
    });
    // Stored as answered.
    const got = await s.json('GET', `${DEPLOY}/web`);
    expect(managed(got.body)).toEqual(managed(res.body));
  });

  it('the manager defaults to the User-Agent before its first "/"', async () => {
    const res = await s.json('POST', DEPLOY, deployment(1), {
      'User-Agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/abc',
    });
    expect(managed(res.body).map((e) => e.manager)).toEqual(['kubectl']);
  });

  it('an update adds an entry for the new manager and takes the changed fields from the others', async () => {
    await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment(1));
    s.clock.advance(5000);
    const res = await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=scaler`,
      { spec: { replicas: 3 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(200);
    const entries = managed(res.body);
    expect(entries.map((e) => e.manager)).toEqual(['creator', 'scaler']);
    expect(entries[1]?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(entries[1]?.time).toBe('2025-01-01T00:00:05Z');
    expect(JSON.stringify(entries[0]?.fieldsV1)).not.toContain('f:replicas');
  });

  it('a no-op update changes nothing (no new resourceVersion, no entry)', async () => {
    const created = await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment(1));
    const res = await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=other`,
      { spec: { replicas: 1 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect((res.body.metadata as { resourceVersion: string }).resourceVersion).toBe(
      (created.body.metadata as { resourceVersion: string }).resourceVersion,
    );
    expect(managed(res.body).map((e) => e.manager)).toEqual(['creator']);
  });

  it('status writes are recorded with subresource status', async () => {
    await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment(1));
    const res = await s.json(
      'PATCH',
      `${DEPLOY}/web/status?fieldManager=controller`,
      { status: { replicas: 1 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(200);
    const entry = managed(res.body).find((e) => e.manager === 'controller');
    expect(entry).toMatchObject({
      operation: 'Update',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:replicas': {} } },
    });
  });

  it('managedFields: [{}] resets them; [] and a list that does not decode keep the stored ones', async () => {
    await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment(1));
    const empty = await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=x`,
      { metadata: { managedFields: [] } },
      {
        'Content-Type': 'application/merge-patch+json',
      },
    );
    expect(managed(empty.body).map((e) => e.manager)).toEqual(['creator']);
    const bad = await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=x`,
      { metadata: { managedFields: [{ manager: 'm', operation: 'Update' }] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(bad.status).toBe(200);
    expect(managed(bad.body).map((e) => e.manager)).toEqual(['creator']);
    const reset = await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=x`,
      { metadata: { managedFields: [{}] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(reset.status).toBe(200);
    expect((reset.body.metadata as Record<string, unknown>).managedFields).toBeUndefined();
  });

  it('more than 10 updaters: the oldest are merged into ancient-changes', async () => {
    await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment(1));
    for (let i = 0; i < 11; i++) {
      s.clock.advance(1000);
      const res = await s.json(
        'PATCH',
        `${DEPLOY}/web?fieldManager=m${i}`,
        { metadata: { labels: { [`l${i}`]: 'x' } } },
        { 'Content-Type': 'application/merge-patch+json' },
      );
      expect(res.status).toBe(200);
    }
    const got = await s.json('GET', `${DEPLOY}/web`);
    const names = managed(got.body).map((e) => e.manager);
    expect(names).toHaveLength(10);
    expect(names).toContain('ancient-changes');
    expect(names).not.toContain('creator');
    expect(names).not.toContain('m0');
    expect(names).not.toContain('m1');
  });
});

describe('apply', () => {
  const apply = (body: unknown, query = 'fieldManager=kubectl&force=false', path = `${DEPLOY}/web`) =>
    s.json('PATCH', `${path}?${query}`, typeof body === 'string' ? body : JSON.stringify(body), APPLY);

  it('creates a missing object (201) with only the applied fields owned', async () => {
    const res = await apply(deployment(2));
    expect(res.status).toBe(201);
    expect((res.body.spec as Record<string, unknown>).progressDeadlineSeconds).toBe(600);
    const [entry, ...rest] = managed(res.body);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1' });
    const fields = entry?.fieldsV1 as Record<string, Record<string, unknown>>;
    expect(Object.keys(fields['f:spec'] ?? {})).toEqual(['f:replicas', 'f:selector', 'f:template']);
  });

  it('re-applying the same configuration changes nothing', async () => {
    const first = await apply(deployment(2));
    s.clock.advance(3000);
    const again = await apply(deployment(2));
    expect(again.status).toBe(200);
    expect(again.body.metadata).toEqual(first.body.metadata);
  });

  it('YAML bodies', async () => {
    const res = await apply(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: "1"\n',
      'fieldManager=tool',
      '/api/v1/namespaces/default/configmaps/cfg',
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ a: '1' });
    expect(managed(res.body)[0]?.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
  });

  it('a field another manager changed conflicts (409 with causes); force takes it over', async () => {
    await apply(deployment(2));
    await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=kubectl-edit`,
      { spec: { replicas: 5 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const res = await apply(deployment(3));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl-edit" using apps/v1',
            field: '.spec.replicas',
          },
        ],
      },
      code: 409,
    });
    const stored = await s.json('GET', `${DEPLOY}/web`);
    expect((stored.body.spec as { replicas: number }).replicas).toBe(5);
    const forced = await apply(deployment(3), 'fieldManager=kubectl&force=true');
    expect(forced.status).toBe(200);
    expect((forced.body.spec as { replicas: number }).replicas).toBe(3);
    expect(managed(forced.body).map((e) => e.manager)).toEqual(['kubectl']);
  });

  it('the same value applied by two appliers is shared, not a conflict', async () => {
    await apply(deployment(2));
    const res = await apply(deployment(2), 'fieldManager=other');
    expect(res.status).toBe(200);
    // The second applier changed nothing, so its entry has no time and sorts first.
    expect(managed(res.body).map((e) => `${e.manager}/${e.operation}/${e.time}`)).toEqual([
      'other/Apply/undefined',
      'kubectl/Apply/2025-01-01T00:00:00Z',
    ]);
  });

  it('fields no longer applied are removed unless another manager owns them', async () => {
    await apply(deployment(2, { minReadySeconds: 5, paused: true }));
    await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=pauser`,
      { spec: { paused: false } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    const res = await apply(deployment(2));
    const spec = res.body.spec as Record<string, unknown>;
    expect(spec.minReadySeconds).toBeUndefined();
    expect(spec.paused).toBe(false);
  });

  it('containers merge by name: another applier adds its own container', async () => {
    await apply(deployment(1));
    const sidecar = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } } },
    };
    const res = await apply(sidecar, 'fieldManager=injector');
    expect(res.status).toBe(200);
    const containers = (
      res.body.spec as { template: { spec: { containers: { name: string }[] } } }
    ).template.spec.containers.map((c) => c.name);
    expect(containers).toEqual(['nginx', 'sidecar']);
    // Dropping it from the injector's configuration removes only the sidecar.
    const again = await apply(
      { ...sidecar, spec: { template: { spec: { containers: [] } } } },
      'fieldManager=injector',
    );
    const after = (
      again.body.spec as { template: { spec: { containers: { name: string }[] } } }
    ).template.spec.containers.map((c) => c.name);
    expect(after).toEqual(['nginx']);
  });

  it('an apply onto an object nobody manages gives its fields to before-first-apply', async () => {
    await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment(1));
    const cleared = await s.json(
      'PATCH',
      `${DEPLOY}/web?fieldManager=x`,
      { metadata: { managedFields: [{}] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect((cleared.body.metadata as Record<string, unknown>).managedFields).toBeUndefined();
    s.clock.advance(1000);
    const conflict = await apply(deployment(4));
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
    const res = await apply(deployment(1, { minReadySeconds: 3 }));
    expect(res.status).toBe(200);
    const entries = managed(res.body);
    expect(entries.map((e) => `${e.manager}/${e.operation}`)).toEqual(['kubectl/Apply', 'before-first-apply/Update']);
    expect(entries[1]?.time).toBe('2025-01-01T00:00:01Z');
    expect(JSON.stringify(entries[1]?.fieldsV1)).toContain('f:progressDeadlineSeconds');
    expect(JSON.stringify(entries[0]?.fieldsV1)).toContain('f:minReadySeconds');
  });

  it('kubectl upgrading from client-side apply takes the fields its last-applied annotation set', async () => {
    const csa = deployment(2);
    const annotated = {
      ...csa,
      metadata: {
        ...csa.metadata,
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(csa) },
      },
    };
    await s.json('POST', `${DEPLOY}?fieldManager=kubectl-client-side-apply`, annotated);
    const conflict = await apply(deployment(3), 'fieldManager=other&force=false');
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    const res = await apply(deployment(3));
    expect(res.status).toBe(200);
    const annotations = (res.body.metadata as { annotations: Record<string, string> }).annotations;
    expect(JSON.parse(annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '').spec.replicas).toBe(3);
  });
});
