import { describe, expect, it } from 'vitest';
import { admissionServer } from './testing/admission-server.js';

const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const SCS = '/apis/storage.k8s.io/v1/storageclasses';
const DEFAULT = { 'storageclass.kubernetes.io/is-default-class': 'true' };

const claim = (name: string, extra: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
});
const sc = (name: string, annotations?: Record<string, string>) => ({
  metadata: { name, ...(annotations ? { annotations } : {}) },
  provisioner: 'example.com/p',
});

// setdefault/admission_test.go TestAdmission's facts.
describe('DefaultStorageClass', () => {
  it('leaves a claim without a class alone when no class is the default', async () => {
    const s = await admissionServer();
    await s.json('POST', SCS, sc('plain'));
    const res = await s.json('POST', PVCS, claim('c'));
    expect(res.status).toBe(201);
    expect((res.body.spec as Record<string, unknown>).storageClassName).toBeUndefined();
  });

  it('gives a claim without a class the newest default class (then the first by name)', async () => {
    const s = await admissionServer();
    await s.json('POST', SCS, sc('older', DEFAULT));
    s.clock.advance(2000);
    await s.json('POST', SCS, sc('newer-b', DEFAULT));
    await s.json('POST', SCS, sc('newer-a', DEFAULT));
    await s.json('POST', SCS, sc('not-default', { 'storageclass.kubernetes.io/is-default-class': 'false' }));
    const res = await s.json('POST', PVCS, claim('c'));
    expect((res.body.spec as Record<string, unknown>).storageClassName).toBe('newer-a');
  });

  it('counts the beta default annotation', async () => {
    const s = await admissionServer();
    await s.json('POST', SCS, sc('beta', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }));
    const res = await s.json('POST', PVCS, claim('c'));
    expect((res.body.spec as Record<string, unknown>).storageClassName).toBe('beta');
  });

  it('keeps a class asked for: a name, "" (no class), or the beta annotation', async () => {
    const s = await admissionServer();
    await s.json('POST', SCS, sc('standard', DEFAULT));
    const named = await s.json('POST', PVCS, claim('a', { storageClassName: 'manual' }));
    expect((named.body.spec as Record<string, unknown>).storageClassName).toBe('manual');
    const empty = await s.json('POST', PVCS, claim('b', { storageClassName: '' }));
    expect((empty.body.spec as Record<string, unknown>).storageClassName).toBe('');
    const beta = await s.json('POST', PVCS, claim('c', {}, { 'volume.beta.kubernetes.io/storage-class': 'gold' }));
    expect((beta.body.spec as Record<string, unknown>).storageClassName).toBeUndefined();
  });
});

// storageobjectinuseprotection/admission_test.go's facts.
describe('StorageObjectInUseProtection', () => {
  it('adds kubernetes.io/pvc-protection to a new claim and kubernetes.io/pv-protection to a new volume, once', async () => {
    const s = await admissionServer();
    const pvc = await s.json('POST', PVCS, claim('c'));
    expect((pvc.body.metadata as { finalizers: string[] }).finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const pv = await s.json('POST', '/api/v1/persistentvolumes', {
      metadata: { name: 'v', finalizers: ['kubernetes.io/pv-protection'] },
      spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/tmp/v' } },
    });
    expect(pv.status, JSON.stringify(pv.body)).toBe(201);
    expect((pv.body.metadata as { finalizers: string[] }).finalizers).toEqual(['kubernetes.io/pv-protection']);
  });

  it('does not put a removed finalizer back on update', async () => {
    const s = await admissionServer();
    const pvc = (await s.json('POST', PVCS, claim('c'))).body as { metadata: { finalizers?: string[] } };
    delete pvc.metadata.finalizers;
    const res = await s.json('PUT', `${PVCS}/c`, pvc);
    expect(res.status).toBe(200);
    expect((res.body.metadata as { finalizers?: string[] }).finalizers).toBeUndefined();
  });
});
