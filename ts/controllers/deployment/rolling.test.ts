// The facts of pkg/controller/deployment/rolling_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldReplicaSetsForRollingUpdate,
} from './rolling.js';
import { fakeContext, newDeployment, rs, updatedReplicaSets } from './testing/fixtures.js';

describe('reconcileNewReplicaSet', () => {
  it.each([
    // [deployment replicas, maxSurge, old replicas, new replicas, scaled to (undefined: no scale)]
    [10, 0, 10, 0, undefined],
    [10, 2, 10, 0, 2],
    [10, 2, 5, 0, 7],
    [10, 2, 10, 2, undefined],
    [10, 2, 2, 11, 10],
  ] as const)(
    'replicas %d surge %d old %d new %d → %s',
    async (replicas, surge, oldReplicas, newReplicas, expected) => {
      const newRS = rs('foo-v2', newReplicas);
      const oldRS = rs('foo-v2', oldReplicas);
      const d = newDeployment('foo', replicas, { maxSurge: surge, maxUnavailable: 0, selector: { foo: 'bar' } });
      const dc = fakeContext();
      const scaled = await reconcileNewReplicaSet(dc, [newRS, oldRS], newRS, d);
      if (expected === undefined) {
        expect(scaled).toBe(false);
        expect(dc.actions).toEqual([]);
        return;
      }
      expect(scaled).toBe(true);
      expect(dc.actions).toHaveLength(1);
      expect(updatedReplicaSets(dc)[0]?.spec?.replicas).toBe(expected);
      expect(dc.events).toEqual([
        `Normal ScalingReplicaSet Scaled ${expected > newReplicas ? 'up' : 'down'} replica set foo-v2 from ${newReplicas} to ${expected}`,
      ]);
    },
  );
});

describe('reconcileOldReplicaSets', () => {
  it.each([
    // [replicas, maxUnavailable, old, new, available old, available new, scaled old to]
    [10, 0, 10, 0, 10, 0, 9],
    [10, 2, 10, 0, 10, 0, 8],
    // unhealthy replicas of old sets are cleaned up first
    [10, 2, 10, 0, 8, 0, 8],
    // one unhealthy cleaned up and one ready scaled down
    [10, 2, 10, 0, 9, 0, 8],
    // the new set's unavailable pods stop a further scale-down
    [10, 2, 8, 2, 8, 0, undefined],
  ] as const)(
    'replicas %d maxUnavailable %d old %d new %d',
    async (replicas, mu, oldReplicas, newReplicas, oldReady, newReady, expected) => {
      const newRS = rs('foo-new', newReplicas, { foo: 'new' });
      newRS.status = { replicas: newReplicas, availableReplicas: newReady };
      const oldRS = rs('foo-old', oldReplicas, { foo: 'old' });
      oldRS.status = { replicas: oldReplicas, availableReplicas: oldReady };
      const d = newDeployment('foo', replicas, { maxSurge: 0, maxUnavailable: mu, selector: { foo: 'new' } });
      const dc = fakeContext();
      const scaled = await reconcileOldReplicaSets(dc, [oldRS, newRS], [oldRS], newRS, d);
      expect(scaled).toBe(expected !== undefined);
      if (expected !== undefined) expect(updatedReplicaSets(dc).at(-1)?.spec?.replicas).toBe(expected);
      else expect(dc.actions).toEqual([]);
    },
  );

  it('reports no scale-down, and no error, when a write fails (Go drops the error)', async () => {
    const oldRS = rs('foo-old', 10, { foo: 'old' });
    oldRS.status = { replicas: 10, availableReplicas: 10 };
    const newRS = rs('foo-new', 0, { foo: 'new' });
    const d = newDeployment('foo', 10, { maxSurge: 0, maxUnavailable: 2 });
    const dc = fakeContext();
    dc.fail = () => new Error('boom');
    expect(await reconcileOldReplicaSets(dc, [oldRS, newRS], [oldRS], newRS, d)).toBe(false);
  });
});

describe('cleanupUnhealthyReplicas', () => {
  it.each([
    // [old replicas, ready, max cleanup, cleaned]
    [10, 8, 1, 1],
    [10, 8, 3, 2],
    [10, 8, 0, 0],
    [10, 10, 3, 0],
  ] as const)('old %d ready %d max %d → %d', async (oldReplicas, ready, max, expected) => {
    const oldRS = rs('foo-v2', oldReplicas);
    oldRS.status = { replicas: oldReplicas, availableReplicas: ready };
    const d = newDeployment('foo', 10, { maxSurge: 2, maxUnavailable: 2 });
    const dc = fakeContext();
    const [sets, count] = await cleanupUnhealthyReplicas(dc, [oldRS], d, max);
    expect(count).toBe(expected);
    expect(sets[0]?.spec?.replicas).toBe(oldReplicas - expected);
  });

  it('goes through the oldest sets first', async () => {
    const a = rs('a', 3, undefined, '2016-05-20T01:00:00Z');
    a.status = { replicas: 3, availableReplicas: 1 };
    const b = rs('b', 3, undefined, '2016-05-20T00:00:00Z');
    b.status = { replicas: 3, availableReplicas: 1 };
    const dc = fakeContext();
    const [, count] = await cleanupUnhealthyReplicas(dc, [a, b], newDeployment('foo', 10), 3);
    expect(count).toBe(3);
    expect(updatedReplicaSets(dc).map((r) => [r.metadata?.name, r.spec?.replicas])).toEqual([
      ['b', 1],
      ['a', 2],
    ]);
  });
});

describe('scaleDownOldReplicaSetsForRollingUpdate', () => {
  it.each([
    // [replicas, maxUnavailable, ready, old replicas, scaled to]
    [10, 0, 10, 10, 9],
    [10, 2, 10, 10, 8],
    [10, 2, 8, 10, undefined],
    [10, 2, 10, 0, undefined],
    [10, 2, 1, 10, undefined],
  ] as const)('replicas %d maxUnavailable %d ready %d old %d', async (replicas, mu, ready, oldReplicas, expected) => {
    const oldRS = rs('foo-v2', oldReplicas);
    oldRS.status = { replicas: oldReplicas, availableReplicas: ready };
    const d = newDeployment('foo', replicas, { maxSurge: 0, maxUnavailable: mu, selector: { foo: 'bar' } });
    const dc = fakeContext();
    const scaled = await scaleDownOldReplicaSetsForRollingUpdate(dc, [oldRS], [oldRS], d);
    if (expected === undefined) {
      expect(scaled).toBe(0);
      return;
    }
    expect(scaled).toBeGreaterThan(0);
    expect(updatedReplicaSets(dc)).toHaveLength(1);
    expect(updatedReplicaSets(dc)[0]?.spec?.replicas).toBe(expected);
  });
});
