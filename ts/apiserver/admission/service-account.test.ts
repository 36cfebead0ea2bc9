import { describe, expect, it } from 'vitest';
import { admissionServer, pod } from './testing/admission-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read and edit response documents freely
type Obj = Record<string, any>;

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('ServiceAccount', () => {
  it('defaults serviceAccountName and mounts the kube-api-access volume read-only in every container', async () => {
    const s = await admissionServer();
    const body: Obj = pod('p', { initContainers: [{ name: 'init', image: 'busybox' }] }, ['a', 'b']);
    const { status, body: created } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    expect(status).toBe(201);
    const spec = created.spec as Obj;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    expect(spec.volumes).toHaveLength(1);
    const volume = spec.volumes[0];
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    });
    const mount = { name: volume.name, readOnly: true, mountPath: MOUNT_PATH };
    for (const c of [...spec.initContainers, ...spec.containers]) expect(c.volumeMounts).toEqual([mount]);
  });

  it('refuses a pod whose ServiceAccount does not exist, storing nothing', async () => {
    const s = await admissionServer();
    const { status, body } = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('p', { serviceAccountName: 'robot' }),
    );
    expect(status).toBe(403);
    expect(body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message:
        'pods "p" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
      details: { name: 'p', kind: 'pods' },
    });
    expect((await s.json('GET', '/api/v1/namespaces/default/pods/p')).status).toBe(404);
  });

  it('waits a while for the default ServiceAccount, then refuses', async () => {
    const s = await admissionServer();
    await s.json('DELETE', '/api/v1/namespaces/team-a/serviceaccounts/default');
    const started = Date.now();
    const { status, body } = await s.json('POST', '/api/v1/namespaces/team-a/pods', pod('p'));
    expect(status).toBe(403);
    expect(body.message).toBe(
      'pods "p" is forbidden: error looking up service account team-a/default: serviceaccount "default" not found',
    );
    // Ten lookups, 100–199 ms apart.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("honours automountServiceAccountToken: the pod's choice over the ServiceAccount's", async () => {
    const s = await admissionServer();
    await s.json('POST', '/api/v1/namespaces/default/serviceaccounts', {
      metadata: { name: 'quiet' },
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: 'registry' }],
    });
    const quiet = await s.json('POST', '/api/v1/namespaces/default/pods', pod('a', { serviceAccountName: 'quiet' }));
    expect((quiet.body.spec as Obj).volumes).toBeUndefined();
    expect((quiet.body.spec as Obj).imagePullSecrets).toEqual([{ name: 'registry' }]);
    const loud = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('b', { serviceAccountName: 'quiet', automountServiceAccountToken: true }),
    );
    expect((loud.body.spec as Obj).volumes).toHaveLength(1);
    const off = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('c', { automountServiceAccountToken: false }),
    );
    expect((off.body.spec as Obj).volumes).toBeUndefined();
  });

  it('leaves containers that mount something at the token path alone', async () => {
    const s = await admissionServer();
    const body: Obj = pod('p', { volumes: [{ name: 'mine', emptyDir: {} }] }, ['a', 'b']);
    body.spec.containers[0].volumeMounts = [{ name: 'mine', mountPath: MOUNT_PATH }];
    const { body: created } = await s.json('POST', '/api/v1/namespaces/default/pods', body);
    const spec = created.spec as Obj;
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'mine', mountPath: MOUNT_PATH }]);
    expect(spec.containers[1].volumeMounts[0].name).toBe(spec.volumes[1].name);
    expect(spec.volumes.map((v: Obj) => v.name.slice(0, 16))).toEqual(['mine', 'kube-api-access-']);
  });

  it('only validates mirror pods: no service account and no secrets', async () => {
    const s = await admissionServer();
    const mirror = (name: string, spec: Obj = {}) => ({
      ...pod(name, spec),
      metadata: { name, annotations: { 'kubernetes.io/config.mirror': 'hash' } },
    });
    const plain = await s.json('POST', '/api/v1/namespaces/default/pods', mirror('a'));
    expect(plain.status).toBe(201);
    expect((plain.body.spec as Obj).serviceAccountName).toBeUndefined();
    expect((plain.body.spec as Obj).volumes).toBeUndefined();
    const named = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      mirror('b', { serviceAccountName: 'default' }),
    );
    expect(named.body.message).toBe('pods "b" is forbidden: a mirror pod may not reference service accounts');
    const secret = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      mirror('c', { volumes: [{ name: 's', secret: { secretName: 'x' } }] }),
    );
    expect(secret.body.message).toBe('pods "c" is forbidden: a mirror pod may not reference secrets');
  });

  it('enforces mountable secrets when the ServiceAccount asks for it', async () => {
    const s = await admissionServer();
    await s.json('POST', '/api/v1/namespaces/default/serviceaccounts', {
      metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } },
      secrets: [{ name: 'ok' }],
    });
    const refused = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('p', { serviceAccountName: 'strict', volumes: [{ name: 's', secret: { secretName: 'other' } }] }),
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret',
    );
    const allowed = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods',
      pod('q', { serviceAccountName: 'strict', volumes: [{ name: 's', secret: { secretName: 'ok' } }] }),
    );
    expect(allowed.status).toBe(201);
  });

  it('does nothing on update: a changed serviceAccountName is refused by pod update validation', async () => {
    const s = await admissionServer();
    await s.json('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'other' } });
    const { body: created } = await s.json('POST', '/api/v1/namespaces/default/pods', pod('p'));
    const next = structuredClone(created) as Obj;
    next.spec.serviceAccountName = 'other';
    next.spec.serviceAccount = 'other';
    const { status, body } = await s.json('PUT', '/api/v1/namespaces/default/pods/p', next);
    expect(status).toBe(422);
    expect(body.message).toMatch(/^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than /);
  });
});
