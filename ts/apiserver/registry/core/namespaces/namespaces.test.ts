import { describe, expect, it } from 'vitest';
import { testServer } from '../../../testing/test-server.js';

type Obj = Record<string, unknown>;
const NS = '/api/v1/namespaces';
const meta = (o: Obj): Obj => o.metadata as Obj;

describe('namespace lifecycle', () => {
  it('adds the kubernetes finalizer and the metadata.name label on create', async () => {
    const { json } = await testServer();
    const res = await json('POST', NS, { metadata: { name: 'x' }, spec: { finalizers: ['example.com/y'] } });
    expect(res.body.spec).toEqual({ finalizers: ['example.com/y', 'kubernetes'] });
    expect(meta(res.body).labels).toEqual({ 'kubernetes.io/metadata.name': 'x' });
    // The main resource cannot drop spec.finalizers.
    const put = await json('PUT', `${NS}/x`, { metadata: { name: 'x' }, spec: { finalizers: [] } });
    expect(put.body.spec).toEqual({ finalizers: ['example.com/y', 'kubernetes'] });
  });

  it('DELETE marks it Terminating; creates in it are forbidden; finalize lets it go', async () => {
    const { json } = await testServer();
    await json('POST', NS, { metadata: { name: 'gone' } });
    const del = await json('DELETE', `${NS}/gone`, { propagationPolicy: 'Background' });
    expect(del.status).toBe(200);
    expect(del.body.status).toEqual({ phase: 'Terminating' });
    expect(meta(del.body).deletionTimestamp).toBe('2025-01-01T00:00:00Z');
    expect(meta(del.body).finalizers).toBeUndefined();

    const create = await json('POST', '/api/v1/namespaces/gone/configmaps', { metadata: { generateName: 'cm-' } });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'configmaps "cm-" is forbidden: unable to create new content in namespace gone because it is being terminated',
      details: {
        name: 'cm-',
        kind: 'configmaps',
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace gone is being terminated',
            field: 'metadata.namespace',
          },
        ],
      },
    });

    // Still there while spec.finalizers is not empty, whatever the client asks.
    expect((await json('DELETE', `${NS}/gone`)).status).toBe(200);
    const current = (await json('GET', `${NS}/gone`)).body;
    const fin = await json('PUT', `${NS}/gone/finalize`, {
      ...current,
      spec: { finalizers: [] },
      status: { phase: 'Active' },
    });
    expect(fin.status).toBe(200);
    expect(fin.body.status).toEqual({ phase: 'Terminating' });
    expect((await json('GET', `${NS}/gone`)).status).toBe(404);
  });

  it('refuses to delete default, kube-system and kube-public', async () => {
    const { json } = await testServer();
    for (const name of ['default', 'kube-system', 'kube-public']) {
      await json('POST', NS, { metadata: { name } });
      const res = await json('DELETE', `${NS}/${name}`);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });

  it('checks the namespace preconditions with its own messages and validates finalize', async () => {
    const { json } = await testServer();
    const ns = (await json('POST', NS, { metadata: { name: 'p' } })).body;
    const uid = meta(ns).uid as string;
    const bad = await json('DELETE', `${NS}/p`, { preconditions: { uid: 'nope' } });
    expect(bad.body.message).toBe(
      `Operation cannot be fulfilled on namespaces "p": Precondition failed: UID in precondition: nope, UID in object meta: ${uid}`,
    );
    const invalid = await json('PUT', `${NS}/p/finalize`, { ...ns, spec: { finalizers: ['nope'] } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe(
      'Namespace "p" is invalid: spec.finalizers[0]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified',
    );
  });
});

describe('namespace deletecollection', () => {
  it('is not served, as the namespace REST has none', async () => {
    const { json } = await testServer();
    const res = await json('DELETE', NS);
    expect(res.status).toBe(405);
    expect(res.body.message).toBe('deletecollection is not supported on resources of kind "namespaces"');
    expect(((await json('GET', NS)).body.items as unknown[]).length).toBe(2);
  });
});
