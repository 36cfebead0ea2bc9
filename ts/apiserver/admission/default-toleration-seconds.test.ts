import { describe, expect, it } from 'vitest';
import { admissionServer, pod } from './testing/admission-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read and edit response documents freely
type Obj = Record<string, any>;

const NOT_READY = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const UNREACHABLE = {
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};

describe('DefaultTolerationSeconds', () => {
  it("adds the not-ready and unreachable NoExecute tolerations for 300 s after the pod's own", async () => {
    const s = await admissionServer();
    const own = { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' };
    const { status, body } = await s.json('POST', '/api/v1/namespaces/default/pods', pod('p', { tolerations: [own] }));
    expect(status).toBe(201);
    expect((body.spec as Obj).tolerations).toEqual([own, NOT_READY, UNREACHABLE]);
  });

  it("keeps a pod's own toleration of either taint, and adds none when an empty key tolerates everything", async () => {
    const s = await admissionServer();
    const mine = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 60,
    };
    const a = await s.json('POST', '/api/v1/namespaces/default/pods', pod('a', { tolerations: [mine] }));
    expect((a.body.spec as Obj).tolerations).toEqual([mine, NOT_READY]);
    const all = { operator: 'Exists' };
    const b = await s.json('POST', '/api/v1/namespaces/default/pods', pod('b', { tolerations: [all] }));
    expect((b.body.spec as Obj).tolerations).toEqual([all]);
  });

  it('is off when disabled', async () => {
    const s = await admissionServer({ disable: ['DefaultTolerationSeconds'] });
    const { body } = await s.json('POST', '/api/v1/namespaces/default/pods', pod('p'));
    expect((body.spec as Obj).tolerations).toBeUndefined();
  });
});
