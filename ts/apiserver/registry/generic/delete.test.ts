import { describe, expect, it } from 'vitest';
import { testServer } from '../../testing/test-server.js';

type Obj = Record<string, unknown>;
const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const meta = (o: Obj): Obj => o.metadata as Obj;
const pod = (name: string, spec: Obj = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const deployment = (name: string) => ({
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

describe('DELETE with finalizers', () => {
  it('marks an object with finalizers (deletionTimestamp, grace 0) and removes it with the last one', async () => {
    const { json } = await testServer();
    await json('POST', CM, { metadata: { name: 'f', finalizers: ['example.com/hold'] } });
    const del = await json('DELETE', `${CM}/f`);
    expect(del.status).toBe(200);
    expect(meta(del.body)).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 });
    expect((await json('GET', `${CM}/f`)).status).toBe(200);
    // A second DELETE changes nothing.
    expect(meta((await json('DELETE', `${CM}/f`)).body).deletionTimestamp).toBe('2025-01-01T00:00:00Z');
    const patched = await json('PATCH', `${CM}/f`, { metadata: { finalizers: null } }, MERGE);
    expect(patched.status).toBe(200);
    expect((await json('GET', `${CM}/f`)).status).toBe(404);
  });

  it('records propagationPolicy Orphan / Foreground and orphanDependents as GC finalizers', async () => {
    const { json } = await testServer();
    await json('POST', DEPLOY, deployment('o'));
    await json('POST', DEPLOY, deployment('f'));
    await json('POST', DEPLOY, deployment('l'));
    await json('POST', DEPLOY, deployment('b'));
    const orphan = await json('DELETE', `${DEPLOY}/o`, { propagationPolicy: 'Orphan' });
    expect(meta(orphan.body)).toMatchObject({ finalizers: ['orphan'], deletionGracePeriodSeconds: 0, generation: 2 });
    const fg = await json('DELETE', `${DEPLOY}/f`, { propagationPolicy: 'Foreground' });
    expect(meta(fg.body).finalizers).toEqual(['foregroundDeletion']);
    const legacy = await json('DELETE', `${DEPLOY}/l?orphanDependents=true`);
    expect(meta(legacy.body).finalizers).toEqual(['orphan']);
    expect((await json('DELETE', `${DEPLOY}/b`, { propagationPolicy: 'Background' })).status).toBe(200);
    expect((await json('GET', `${DEPLOY}/b`)).status).toBe(404);
    // A later DELETE may switch the policy: no grace period is pending for a deployment.
    const again = await json('DELETE', `${DEPLOY}/o`, { propagationPolicy: 'Foreground' });
    expect(meta(again.body).finalizers).toEqual(['foregroundDeletion']);
  });

  it('checks preconditions with the Kubernetes messages', async () => {
    const { json } = await testServer();
    const created = await json('POST', CM, { metadata: { name: 'p' } });
    const uid = meta(created.body).uid as string;
    const badUid = await json('DELETE', `${CM}/p`, { preconditions: { uid: 'nope' } });
    expect(badUid.status).toBe(409);
    expect(badUid.body.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "p": the UID in the precondition (nope) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
    const badRv = await json('DELETE', `${CM}/p`, { preconditions: { resourceVersion: '1' } });
    expect(badRv.body.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${meta(created.body).resourceVersion as string}). The object might have been modified`,
    );
    expect((await json('DELETE', `${CM}/p`, { preconditions: { uid } })).status).toBe(200);
  });

  it('deletes nothing in a dry run', async () => {
    const { json } = await testServer();
    await json('POST', CM, { metadata: { name: 'd' } });
    await json('POST', CM, { metadata: { name: 'h', finalizers: ['example.com/x'] } });
    expect((await json('DELETE', `${CM}/d?dryRun=All`)).status).toBe(200);
    const marked = await json('DELETE', `${CM}/h?dryRun=All`);
    expect(meta(marked.body).deletionTimestamp).toBe('2025-01-01T00:00:00Z');
    expect((await json('GET', `${CM}/d`)).status).toBe(200);
    expect(meta((await json('GET', `${CM}/h`)).body).deletionTimestamp).toBeUndefined();
    const list = await json('DELETE', `${CM}?dryRun=All`);
    expect((list.body.items as unknown[]).length).toBe(2);
    expect(((await json('GET', CM)).body.items as unknown[]).length).toBe(2);
  });
});

describe('graceful pod deletion', () => {
  it('keeps a bound pod for its grace period and removes it with grace 0; an unbound pod goes at once', async () => {
    const { json } = await testServer();
    await json('POST', PODS, pod('bound', { nodeName: 'n1' }));
    await json('POST', PODS, pod('short', { nodeName: 'n1' }));
    await json('POST', PODS, pod('pending'));
    const del = await json('DELETE', `${PODS}/bound`);
    expect(meta(del.body)).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 });
    expect((await json('GET', `${PODS}/bound`)).status).toBe(200);
    // Pending: the same again answers the object unchanged; a longer period changes nothing either.
    expect(meta((await json('DELETE', `${PODS}/bound?gracePeriodSeconds=60`)).body).deletionGracePeriodSeconds).toBe(
      30,
    );
    const shorter = await json('DELETE', `${PODS}/bound?gracePeriodSeconds=10`);
    expect(meta(shorter.body)).toMatchObject({
      deletionTimestamp: '2025-01-01T00:00:10Z',
      deletionGracePeriodSeconds: 10,
    });
    expect((await json('DELETE', `${PODS}/bound?gracePeriodSeconds=0`)).status).toBe(200);
    expect((await json('GET', `${PODS}/bound`)).status).toBe(404);
    const five = await json('DELETE', `${PODS}/short`, { gracePeriodSeconds: 5 });
    expect(meta(five.body).deletionGracePeriodSeconds).toBe(5);
    expect((await json('DELETE', `${PODS}/pending`)).status).toBe(200);
    expect((await json('GET', `${PODS}/pending`)).status).toBe(404);
  });

  it('deletecollection applies the same rules per pod', async () => {
    const { json } = await testServer();
    await json('POST', PODS, pod('a', { nodeName: 'n1' }));
    await json('POST', PODS, pod('b'));
    const res = await json('DELETE', PODS);
    expect(res.status).toBe(200);
    const left = (await json('GET', PODS)).body.items as Obj[];
    expect(left.map((p) => meta(p).name)).toEqual(['a']);
    expect(meta(left[0] as Obj).deletionGracePeriodSeconds).toBe(30);
  });
});

describe('default garbage collection policy', () => {
  it('orphans the dependents of a batch/v1 Job deleted without options, as Kubernetes does for back compatibility', async () => {
    const { json } = await testServer();
    const JOBS = '/apis/batch/v1/namespaces/default/jobs';
    const created = await json('POST', JOBS, {
      metadata: { name: 'j' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    expect(created.status).toBe(201);
    const del = await json('DELETE', `${JOBS}/j`);
    expect(meta(del.body).finalizers).toEqual(['orphan']);
    expect((await json('POST', DEPLOY, deployment('d'))).status).toBe(201);
    expect((await json('DELETE', `${DEPLOY}/d`)).status).toBe(200);
    expect((await json('GET', `${DEPLOY}/d`)).status).toBe(404);
  });
});
