// pods/<name>/eviction against a real test apiserver: the facts of
// pkg/registry/core/pod/storage/eviction_test.go (v1.32) — TestEviction, TestEvictionIgnorePDB,
// TestEvictionWithDeleteOptions, TestEvictionPDBStatus, TestAddConditionAndDelete — with the PDBs'
// status written by the test (no disruption controller runs here), the answers exact.
import { describe, expect, it } from 'vitest';
import type { Status } from '../../../../api/meta.js';
import type { Pod, PodPhase } from '../../../../api/types/core/v1.js';
import type { Condition } from '../../../../api/types/meta/v1.js';
import type { PodDisruptionBudget } from '../../../../api/types/policy/v1.js';
import { testServer } from '../../../testing/test-server.js';

type Server = Awaited<ReturnType<typeof testServer>>;

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const PDBS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;

const eviction = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name, namespace: NS },
  ...extra,
});

interface PodState {
  phase?: PodPhase;
  ready?: boolean;
}

/** A pod labelled a=true, its status as given (Pending, as the apiserver makes it, when none). */
async function newPod(s: Server, name: string, state: PodState = { phase: 'Running' }): Promise<Pod> {
  const created = await s.json('POST', PODS, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { a: 'true' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: 'foo' },
  });
  expect(created.status).toBe(201);
  if (state.phase === undefined) return created.body as Pod;
  const pod = created.body as Pod;
  pod.status = {
    phase: state.phase,
    ...(state.ready === undefined ? {} : { conditions: [{ type: 'Ready', status: state.ready ? 'True' : 'False' }] }),
  };
  const res = await s.json('PUT', `${PODS}/${name}/status`, pod);
  expect(res.status).toBe(200);
  return res.body as Pod;
}

interface PdbStatus {
  disruptionsAllowed?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  disruptedPods?: Record<string, string>;
  conditions?: Condition[];
}

/** A PDB selecting a=true whose status (observedGeneration 1, unless `observed` says) the test writes. */
async function newPdb(
  s: Server,
  name: string,
  status: PdbStatus,
  spec: Record<string, unknown> = {},
  observed = 1,
): Promise<PodDisruptionBudget> {
  const created = await s.json('POST', PDBS, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name },
    spec: { selector: { matchLabels: { a: 'true' } }, ...spec },
  });
  expect(created.status).toBe(201);
  const pdb = created.body as PodDisruptionBudget;
  pdb.status = {
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
    observedGeneration: observed,
    ...status,
  };
  const res = await s.json('PUT', `${PDBS}/${name}/status`, pdb);
  expect(res.status).toBe(200);
  return res.body as PodDisruptionBudget;
}

const podGone = async (s: Server, name: string) =>
  (await s.storage.get(`/registry/pods/${NS}/${name}`, { ignoreNotFound: true })) === undefined;

const evict = (s: Server, name: string, extra: Record<string, unknown> = {}, query = '') =>
  s.json('POST', `${PODS}/${name}/eviction${query}`, eviction(name, extra));

const tooMany = (message: string, retryAfterSeconds?: number) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: "Cannot evict pod as it would violate the pod's disruption budget.",
  reason: 'TooManyRequests',
  details: {
    causes: [{ reason: 'DisruptionBudget', message }],
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  },
  code: 429,
});

describe('eviction with PodDisruptionBudgets (TestEviction)', () => {
  it('refuses a running pod when no disruption is allowed: 429 with the budget cause, the pod kept', async () => {
    const s = await testServer();
    await newPod(s, 't1');
    await newPdb(s, 'foo', { disruptionsAllowed: 0 });
    const res = await evict(s, 't1', { deleteOptions: { gracePeriodSeconds: 0 } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual(tooMany('The disruption budget foo needs 0 healthy pods and has 0 currently'));
    expect(await podGone(s, 't1')).toBe(false);
  });

  it('deletes pending, succeeded and failed pods whatever the budget says (canIgnorePDB)', async () => {
    const s = await testServer();
    await newPdb(s, 'foo', { disruptionsAllowed: 0 });
    await newPod(s, 'pending', {});
    await newPod(s, 'succeeded', { phase: 'Succeeded' });
    await newPod(s, 'failed', { phase: 'Failed' });
    for (const name of ['pending', 'succeeded', 'failed']) {
      const res = await evict(s, name, { deleteOptions: { gracePeriodSeconds: 0 } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      expect(await podGone(s, name)).toBe(true);
    }
    // No disruption was taken from the budget for them.
    const pdb = (await s.json('GET', `${PDBS}/foo`)).body as PodDisruptionBudget;
    expect(pdb.status?.disruptedPods).toBeUndefined();
  });

  it('deletes a pod the budget allows, and one no budget selects', async () => {
    const s = await testServer();
    await newPod(s, 't8', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 3 });
    expect((await evict(s, 't8', { deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect(await podGone(s, 't8')).toBe(true);

    const other = await testServer();
    await other.json('POST', `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`, {
      metadata: { name: 'foo' },
      spec: { selector: { matchLabels: { a: 'false' } } },
    });
    await newPod(other, 't5');
    expect((await evict(other, 't5', { deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect(await podGone(other, 't5')).toBe(true);
  });

  it('an empty selector selects every pod of the namespace', async () => {
    const s = await testServer();
    await newPod(s, 't9', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 0 }, { selector: {} });
    const res = await evict(s, 't9', { deleteOptions: { gracePeriodSeconds: 0 } });
    expect(res.status).toBe(429);
    expect(await podGone(s, 't9')).toBe(false);
  });

  it('answers a pod two budgets select with a 201 carrying a Failure Status of code 500', async () => {
    const s = await testServer();
    await newPod(s, 't2', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 1 });
    await newPdb(s, 'bar', { disruptionsAllowed: 1 });
    const res = await evict(s, 't2');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    });
    expect(await podGone(s, 't2')).toBe(false);
  });

  it('answers a budget whose status lags its spec with the "still being processed" 429', async () => {
    const s = await testServer();
    await newPod(s, 't3', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 1 }, {}, 0);
    const res = await evict(s, 't3');
    expect(res.status).toBe(429);
    expect(res.body).toEqual(tooMany('The disruption budget foo is still being processed by the server.', 10));
  });

  it('refuses with 403 a negative count and a disruptedPods map past 2000', async () => {
    const s = await testServer();
    await newPod(s, 't4', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: -1 });
    const negative = await evict(s, 't4');
    expect(negative.status).toBe(403);
    expect(negative.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'poddisruptionbudget.policy "foo" is forbidden: pdb disruptions allowed is negative',
      reason: 'Forbidden',
      details: { name: 'foo', group: 'policy', kind: 'poddisruptionbudget' },
      code: 403,
    });

    const big = await testServer();
    await newPod(big, 't4', { phase: 'Running', ready: true });
    const disruptedPods = Object.fromEntries(
      Array.from({ length: 2001 }, (_, i) => [`p${i}`, '2025-01-01T00:00:00Z'] as const),
    );
    await newPdb(big, 'foo', { disruptionsAllowed: 1, disruptedPods });
    const res = await evict(big, 't4');
    expect(res.status).toBe(403);
    expect((res.body as Status).message).toBe(
      'poddisruptionbudget.policy "foo" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  });
});

describe('unhealthy pods (TestEvictionIgnorePDB, unhealthyPodEvictionPolicy)', () => {
  it('IfHealthyBudget (the default): an unready pod goes when the budget is met, without a decrement', async () => {
    const s = await testServer();
    await newPod(s, 't8', { phase: 'Running', ready: false });
    await newPdb(s, 'foo', { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 });
    expect((await evict(s, 't8', { deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect(await podGone(s, 't8')).toBe(true);
    const pdb = (await s.json('GET', `${PDBS}/foo`)).body as PodDisruptionBudget;
    expect(pdb.status?.disruptionsAllowed).toBe(0);
    expect(pdb.status?.disruptedPods).toBeUndefined();
  });

  it('IfHealthyBudget: an unready pod of a budget not met is refused', async () => {
    const s = await testServer();
    await newPod(s, 't8', { phase: 'Running', ready: false });
    await newPdb(
      s,
      'foo',
      { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 },
      {
        unhealthyPodEvictionPolicy: 'IfHealthyBudget',
      },
    );
    const res = await evict(s, 't8');
    expect(res.status).toBe(429);
    expect(res.body).toEqual(tooMany('The disruption budget foo needs 2 healthy pods and has 1 currently'));
  });

  it('AlwaysAllow: an unready pod goes whatever the budget says; a ready one is still guarded', async () => {
    const s = await testServer();
    await newPod(s, 'unready', { phase: 'Running', ready: false });
    await newPod(s, 'ready', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 0 }, { unhealthyPodEvictionPolicy: 'AlwaysAllow' });
    expect((await evict(s, 'unready', { deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect(await podGone(s, 'unready')).toBe(true);
    expect((await evict(s, 'ready')).status).toBe(429);
  });

  it('a terminating pod is deleted without a budget check (canIgnorePDB)', async () => {
    const s = await testServer();
    await newPod(s, 't6', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 0 });
    // A graceful delete marks it; the eviction finishes it.
    expect((await s.json('DELETE', `${PODS}/t6`, { gracePeriodSeconds: 30 })).status).toBe(200);
    expect((await evict(s, 't6', { deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect(await podGone(s, 't6')).toBe(true);
  });
});

describe('the budget and the pod written (TestEvictionPDBStatus, TestAddConditionAndDelete)', () => {
  it('takes one disruption, enters the pod in disruptedPods, and sets InsufficientPods at 0', async () => {
    const s = await testServer();
    await newPod(s, 'foo-1', { phase: 'Running', ready: true });
    await newPod(s, 'foo-2', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', {
      disruptionsAllowed: 1,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          reason: 'SufficientPods',
          message: '',
          lastTransitionTime: '2024-12-31T00:00:00Z',
          observedGeneration: 1,
        },
      ],
    });
    // A graceful eviction: the pod stays, marked, with the DisruptionTarget condition.
    expect((await evict(s, 'foo-1', { deleteOptions: {} })).status).toBe(201);
    const pdb = (await s.json('GET', `${PDBS}/foo`)).body as PodDisruptionBudget;
    expect(pdb.status?.disruptionsAllowed).toBe(0);
    expect(pdb.status?.disruptedPods).toEqual({ 'foo-1': '2025-01-01T00:00:00Z' });
    expect(pdb.status?.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        lastTransitionTime: '2025-01-01T00:00:00Z',
        observedGeneration: 1,
      },
    ]);
    // Written as kube-apiserver's loopback client writes it.
    expect((pdb.metadata?.managedFields ?? []).map((f) => [f.manager, f.operation, f.subresource])).toContainEqual([
      'kube-apiserver',
      'Update',
      'status',
    ]);
    const pod = (await s.json('GET', `${PODS}/foo-1`)).body as Pod;
    expect(pod.metadata?.deletionTimestamp).toBeDefined();
    expect(pod.status?.conditions).toContainEqual({
      type: 'DisruptionTarget',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: '2025-01-01T00:00:00Z',
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    });
    // The second pod: no disruption left.
    expect((await evict(s, 'foo-2')).status).toBe(429);
  });

  it('keeps SufficientPods while disruptions remain', async () => {
    const s = await testServer();
    await newPod(s, 'foo-1', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', {
      disruptionsAllowed: 3,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          reason: 'SufficientPods',
          message: '',
          lastTransitionTime: '2024-12-31T00:00:00Z',
          observedGeneration: 1,
        },
      ],
    });
    expect((await evict(s, 'foo-1')).status).toBe(201);
    const pdb = (await s.json('GET', `${PDBS}/foo`)).body as PodDisruptionBudget;
    expect(pdb.status?.disruptionsAllowed).toBe(2);
    expect(pdb.status?.conditions?.[0]?.reason).toBe('SufficientPods');
  });

  it('checks uid and resourceVersion preconditions against the latest pod: 409 with the exact message', async () => {
    const s = await testServer();
    const pod = await newPod(s, 'p', { phase: 'Running', ready: true });
    const uid = await evict(s, 'p', { deleteOptions: { preconditions: { uid: 'other' } } });
    expect(uid.status).toBe(409);
    expect(uid.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Operation cannot be fulfilled on Pod "p": the UID in the precondition (other) does not match the UID in record (${pod.metadata?.uid}). The object might have been deleted and then recreated`,
      reason: 'Conflict',
      details: { name: 'p', kind: 'Pod' },
      code: 409,
    });
    const rv = await evict(s, 'p', { deleteOptions: { preconditions: { resourceVersion: '1' } } });
    expect(rv.status).toBe(409);
    expect((rv.body as Status).message).toBe(
      `Operation cannot be fulfilled on Pod "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${pod.metadata?.resourceVersion}). The object might have been modified`,
    );
    // The right version: the condition's write moves it, and the delete follows it.
    const ok = await evict(s, 'p', {
      deleteOptions: {
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata?.uid, resourceVersion: pod.metadata?.resourceVersion },
      },
    });
    expect(ok.status).toBe(201);
    expect(await podGone(s, 'p')).toBe(true);
  });
});

describe('eviction options (TestEvictionWithDeleteOptions)', () => {
  it('a dry run, from the request or the Eviction, writes neither the pod nor the budget', async () => {
    const s = await testServer();
    await newPod(s, 'p', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 1 });
    const rev = await s.storage.currentRevision();
    expect((await evict(s, 'p', {}, '?dryRun=All')).status).toBe(201);
    expect((await evict(s, 'p', { deleteOptions: { dryRun: ['All'] } })).status).toBe(201);
    expect((await evict(s, 'p', { deleteOptions: { dryRun: ['All'] } }, '?dryRun=All')).status).toBe(201);
    expect(await s.storage.currentRevision()).toBe(rev);
  });

  it('a dry run is still refused by a budget that allows nothing', async () => {
    const s = await testServer();
    await newPod(s, 'p', { phase: 'Running', ready: true });
    await newPdb(s, 'foo', { disruptionsAllowed: 0 });
    expect((await evict(s, 'p', {}, '?dryRun=All')).status).toBe(429);
  });

  it('refuses ignoreStoreReadErrorWithClusterBreakingPotential with a 422', async () => {
    const s = await testServer();
    await newPod(s, 'p', { phase: 'Running', ready: true });
    const res = await evict(s, 'p', { deleteOptions: { ignoreStoreReadErrorWithClusterBreakingPotential: true } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Eviction.policy "p" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option',
      reason: 'Invalid',
      details: {
        name: 'p',
        group: 'policy',
        kind: 'Eviction',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: true: can not be set for pod eviction, try after removing the option',
            field: 'deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential',
          },
        ],
      },
      code: 422,
    });
    expect(await podGone(s, 'p')).toBe(false);
  });
});
