// The facts of pkg/controller/deployment/sync_test.go (v1.32), and of getNewReplicaSet.
import { describe, expect, it } from 'vitest';
import { newAlreadyExists } from '../../api/status.js';
import type { Deployment, ReplicaSet } from '../../api/types/apps/v1.js';
import {
  calculateStatus,
  checkPausedConditions,
  cleanupDeployment,
  getNewReplicaSet,
  scale,
  statusEqual,
} from './sync.js';
import { fakeContext, newDeployment, rs, rsWithStatus } from './testing/fixtures.js';
import {
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  maxSurge,
  REVISION_ANNOTATION,
  setReplicasAnnotations,
} from './util/deployment-util.js';
import { computeHash } from './util/hash.js';

const newTimestamp = '2016-05-20T02:00:00Z';
const oldTimestamp = '2016-05-20T01:00:00Z';
const olderTimestamp = '2016-05-20T00:00:00Z';

describe('scale (TestScale)', () => {
  const nd = (replicas: number, surge?: number, unavailable?: number) =>
    newDeployment('foo', replicas, {
      ...(surge === undefined ? {} : { maxSurge: surge }),
      ...(unavailable === undefined ? {} : { maxUnavailable: unavailable }),
    });
  const updatedTemplate = (replicas: number) => {
    const d = newDeployment('foo', replicas, { selector: { foo: 'bar' } });
    const labels = d.spec?.template.metadata?.labels;
    if (labels) labels.another = 'label';
    return d;
  };
  interface Case {
    name: string;
    d: Deployment;
    old: Deployment;
    newRS?: [string, number, string];
    oldRSs: Array<[string, number, string]>;
    expectedNew?: number;
    expectedOld: number[];
    wasntUpdated?: string[];
    desired?: Record<string, number>;
    brokenNew?: boolean;
  }
  const cases: Case[] = [
    {
      name: 'normal scaling event: 10 -> 12',
      d: nd(12),
      old: nd(10),
      newRS: ['foo-v1', 10, newTimestamp],
      oldRSs: [],
      expectedNew: 12,
      expectedOld: [],
    },
    {
      name: 'normal scaling event: 10 -> 5',
      d: nd(5),
      old: nd(10),
      newRS: ['foo-v1', 10, newTimestamp],
      oldRSs: [],
      expectedNew: 5,
      expectedOld: [],
    },
    {
      name: 'proportional scaling: 5 -> 10',
      d: nd(10),
      old: nd(5),
      newRS: ['foo-v2', 2, newTimestamp],
      oldRSs: [['foo-v1', 3, oldTimestamp]],
      expectedNew: 4,
      expectedOld: [6],
    },
    {
      name: 'proportional scaling: 5 -> 3',
      d: nd(3),
      old: nd(5),
      newRS: ['foo-v2', 2, newTimestamp],
      oldRSs: [['foo-v1', 3, oldTimestamp]],
      expectedNew: 1,
      expectedOld: [2],
    },
    {
      name: 'proportional scaling: 9 -> 4',
      d: nd(4),
      old: nd(9),
      newRS: ['foo-v2', 8, newTimestamp],
      oldRSs: [['foo-v1', 1, oldTimestamp]],
      expectedNew: 4,
      expectedOld: [0],
    },
    {
      name: 'proportional scaling: 7 -> 10',
      d: nd(10),
      old: nd(7),
      newRS: ['foo-v3', 2, newTimestamp],
      oldRSs: [
        ['foo-v2', 3, oldTimestamp],
        ['foo-v1', 2, olderTimestamp],
      ],
      expectedNew: 3,
      expectedOld: [4, 3],
    },
    {
      name: 'proportional scaling: 13 -> 8',
      d: nd(8),
      old: nd(13),
      newRS: ['foo-v3', 2, newTimestamp],
      oldRSs: [
        ['foo-v2', 8, oldTimestamp],
        ['foo-v1', 3, olderTimestamp],
      ],
      expectedNew: 1,
      expectedOld: [5, 2],
    },
    {
      name: 'leftover distribution: 3 -> 4 (the new set scales up)',
      d: nd(4),
      old: nd(3),
      newRS: ['foo-v3', 1, newTimestamp],
      oldRSs: [
        ['foo-v2', 1, oldTimestamp],
        ['foo-v1', 1, olderTimestamp],
      ],
      expectedNew: 2,
      expectedOld: [1, 1],
    },
    {
      name: 'leftover distribution: 3 -> 2 (the oldest scales down)',
      d: nd(2),
      old: nd(3),
      newRS: ['foo-v3', 1, newTimestamp],
      oldRSs: [
        ['foo-v2', 1, oldTimestamp],
        ['foo-v1', 1, olderTimestamp],
      ],
      expectedNew: 1,
      expectedOld: [1, 0],
    },
    {
      name: 'proportional scaling (no new rs): 4 -> 5',
      d: nd(5),
      old: nd(4),
      oldRSs: [
        ['foo-v2', 2, oldTimestamp],
        ['foo-v1', 2, olderTimestamp],
      ],
      expectedOld: [3, 2],
    },
    {
      name: 'proportional scaling: 6 -> 0',
      d: nd(0),
      old: nd(6),
      newRS: ['foo-v3', 3, newTimestamp],
      oldRSs: [
        ['foo-v2', 2, oldTimestamp],
        ['foo-v1', 1, olderTimestamp],
      ],
      expectedNew: 0,
      expectedOld: [0, 0],
    },
    {
      name: 'proportional scaling: 0 -> 6',
      d: nd(6),
      old: nd(6),
      newRS: ['foo-v3', 0, newTimestamp],
      oldRSs: [
        ['foo-v2', 0, oldTimestamp],
        ['foo-v1', 0, olderTimestamp],
      ],
      expectedNew: 6,
      expectedOld: [0, 0],
      wasntUpdated: ['foo-v2', 'foo-v1'],
    },
    {
      name: 'failed rs update',
      d: nd(5),
      old: nd(5),
      newRS: ['foo-v3', 2, newTimestamp],
      oldRSs: [
        ['foo-v2', 1, oldTimestamp],
        ['foo-v1', 1, olderTimestamp],
      ],
      expectedNew: 2,
      expectedOld: [2, 1],
      wasntUpdated: ['foo-v3', 'foo-v1'],
      desired: { 'foo-v2': 3 },
    },
    {
      name: 'deployment with surge pods',
      d: nd(20, 2),
      old: nd(10, 2),
      newRS: ['foo-v2', 6, newTimestamp],
      oldRSs: [['foo-v1', 6, oldTimestamp]],
      expectedNew: 11,
      expectedOld: [11],
    },
    {
      name: 'change both surge and size',
      d: nd(50, 6),
      old: nd(10, 3),
      newRS: ['foo-v2', 5, newTimestamp],
      oldRSs: [['foo-v1', 8, oldTimestamp]],
      expectedNew: 22,
      expectedOld: [34],
    },
    {
      name: 'change both size and template',
      d: updatedTemplate(14),
      old: newDeployment('foo', 10, { selector: { foo: 'bar' } }),
      oldRSs: [
        ['foo-v2', 7, newTimestamp],
        ['foo-v1', 3, oldTimestamp],
      ],
      expectedOld: [10, 4],
    },
    {
      name: 'saturated but broken new replica set does not affect old pods',
      d: nd(2, 1, 1),
      old: nd(2, 1, 1),
      newRS: ['foo-v2', 2, newTimestamp],
      oldRSs: [['foo-v1', 1, oldTimestamp]],
      expectedNew: 2,
      expectedOld: [1],
      brokenNew: true,
    },
  ];
  it.each(cases)('$name', async (c) => {
    const annotate = (r: ReplicaSet) => {
      const desired = c.desired?.[r.metadata?.name ?? ''] ?? c.old.spec?.replicas ?? 0;
      setReplicasAnnotations(r, desired, desired + maxSurge(c.old));
      return r;
    };
    const newRS = c.newRS === undefined ? undefined : annotate(rs(c.newRS[0], c.newRS[1], undefined, c.newRS[2]));
    if (newRS !== undefined && c.brokenNew === true) newRS.status = { replicas: 2, availableReplicas: 0 };
    const oldRSs = c.oldRSs.map(([n, r, t]) => annotate(rs(n, r, undefined, t)));
    const names = oldRSs.map((r) => r.metadata?.name ?? '');
    const dc = fakeContext();
    await scale(dc, c.d, newRS, oldRSs);
    const sizes = new Map<string, number>();
    if (newRS !== undefined) sizes.set(newRS.metadata?.name ?? '', newRS.spec?.replicas ?? 0);
    for (const r of oldRSs) sizes.set(r.metadata?.name ?? '', r.spec?.replicas ?? 0);
    for (const u of dc.actions) {
      const name = u.name;
      if (!(c.wasntUpdated ?? []).includes(name)) sizes.set(name, (u.object as ReplicaSet).spec?.replicas ?? 0);
    }
    if (newRS !== undefined && c.expectedNew !== undefined)
      expect(sizes.get(newRS.metadata?.name ?? '')).toBe(c.expectedNew);
    expect(names.map((n) => sizes.get(n))).toEqual(c.expectedOld);
  });

  it('writes the new desired and max replicas annotations on every set it scales', async () => {
    const newRS = rs('foo-v2', 2, undefined, newTimestamp);
    const oldRS = rs('foo-v1', 3, undefined, oldTimestamp);
    for (const r of [newRS, oldRS]) setReplicasAnnotations(r, 5, 5);
    const dc = fakeContext();
    await scale(dc, newDeployment('foo', 10), newRS, [oldRS]);
    for (const a of dc.actions) {
      expect((a.object as ReplicaSet).metadata?.annotations).toMatchObject({
        [DESIRED_REPLICAS_ANNOTATION]: '10',
        [MAX_REPLICAS_ANNOTATION]: '10',
      });
    }
    expect(dc.events.sort()).toEqual([
      'Normal ScalingReplicaSet Scaled up replica set foo-v1 from 3 to 6',
      'Normal ScalingReplicaSet Scaled up replica set foo-v2 from 2 to 4',
    ]);
  });
});

describe('cleanupDeployment', () => {
  const deleted = () => {
    const r = rsWithStatus('foo-1', 0, 0);
    if (r.metadata) r.metadata.deletionTimestamp = newTimestamp;
    return r;
  };
  it.each([
    [[rsWithStatus('foo-1', 0, 0), rsWithStatus('foo-2', 0, 0), rsWithStatus('foo-3', 0, 0)], 1, 2],
    // only sets with spec and status replicas 0
    [
      [
        rsWithStatus('foo-1', 0, 0),
        rsWithStatus('foo-2', 0, 1),
        rsWithStatus('foo-3', 1, 0),
        rsWithStatus('foo-4', 1, 1),
      ],
      0,
      1,
    ],
    [[rsWithStatus('foo-1', 0, 0), rsWithStatus('foo-2', 0, 0)], 0, 2],
    [[rsWithStatus('foo-1', 1, 1), rsWithStatus('foo-2', 1, 1)], 0, 0],
    [[deleted()], 0, 0],
    [[rsWithStatus('foo-1', 0, 0), rsWithStatus('foo-2', 0, 0), rsWithStatus('foo-3', 0, 0)], 2147483647, 0],
  ])('%#: limit %d → %d deletions', async (oldRSs, limit, expected) => {
    const dc = fakeContext();
    await cleanupDeployment(
      dc,
      oldRSs,
      newDeployment('foo', 1, { revisionHistoryLimit: limit, selector: { foo: 'bar' } }),
    );
    expect(dc.actions.filter((a) => a.verb === 'delete')).toHaveLength(expected);
  });

  it('skips a set whose generation is not observed yet', async () => {
    const r = rsWithStatus('foo-1', 0, 0);
    if (r.metadata) r.metadata.generation = 2;
    const dc = fakeContext();
    await cleanupDeployment(dc, [r], newDeployment('foo', 1, { revisionHistoryLimit: 0 }));
    expect(dc.actions).toEqual([]);
  });

  const withRevision = (name: string, replicas: number, minutes: number, revision: string): ReplicaSet => {
    const r = rs(
      name,
      replicas,
      { foo: 'bar' },
      new Date(Date.parse(newTimestamp) + minutes * 60_000).toISOString().replace('.000Z', 'Z'),
    );
    if (revision !== '' && r.metadata) r.metadata.annotations = { [REVISION_ANNOTATION]: revision };
    r.status = { replicas };
    return r;
  };
  it.each([
    ['rs1 < rs2: delete rs1', [withRevision('foo-1', 0, -1, '1'), withRevision('foo-2', 0, 0, '2')], 1, ['foo-1']],
    ['rs2 < rs1: delete rs2', [withRevision('foo-1', 0, -1, '2'), withRevision('foo-2', 0, 0, '1')], 1, ['foo-2']],
    [
      'rs2 without revision: delete rs2',
      [withRevision('foo-1', 0, -1, '1'), withRevision('foo-2', 0, 0, '')],
      1,
      ['foo-2'],
    ],
    [
      'rs1 without revision: delete rs1',
      [withRevision('foo-1', 0, -1, ''), withRevision('foo-2', 0, 0, '2')],
      1,
      ['foo-1'],
    ],
    [
      'rs1 has replicas: delete rs2',
      [withRevision('foo-1', 1, -1, '1'), withRevision('foo-2', 0, 0, '2'), withRevision('foo-3', 0, 1, '3')],
      1,
      ['foo-2'],
    ],
    [
      'rs1 and rs2 have replicas: none',
      [withRevision('foo-1', 1, -1, '1'), withRevision('foo-2', 1, 0, '2'), withRevision('foo-3', 0, 1, '3')],
      1,
      [],
    ],
    [
      'rs2 < rs4 < rs1 < rs3: delete rs2 and rs4',
      [
        withRevision('foo-1', 0, -1, '3'),
        withRevision('foo-2', 0, 0, '1'),
        withRevision('foo-3', 0, 1, '4'),
        withRevision('foo-4', 0, 2, '2'),
      ],
      2,
      ['foo-2', 'foo-4'],
    ],
  ] as const)('order (TestDeploymentController_cleanupDeploymentOrder): %s', async (_n, oldRSs, limit, expected) => {
    const dc = fakeContext();
    await cleanupDeployment(
      dc,
      [...oldRSs],
      newDeployment('foo', 1, { revisionHistoryLimit: limit, selector: { foo: 'bar' } }),
    );
    expect(
      dc.actions
        .filter((a) => a.verb === 'delete')
        .map((a) => a.name)
        .sort(),
    ).toEqual([...expected]);
  });
});

describe('getNewReplicaSet', () => {
  it('creates `<name>-<hash>` with the hash label on the set, its template and selector, and the revision', async () => {
    const d = newDeployment('web', 3, { maxSurge: 1, maxUnavailable: 0, selector: { app: 'web' } });
    const old = rs('web-old', 3, { app: 'web' }, oldTimestamp);
    if (old.metadata) old.metadata.annotations = { [REVISION_ANNOTATION]: '4' };
    if (d.metadata?.annotations) d.metadata.annotations.team = 'a';
    d.spec = { ...(d.spec ?? { selector: {}, template: {} }), minReadySeconds: 5, progressDeadlineSeconds: 600 };
    const dc = fakeContext();
    const created = await getNewReplicaSet(dc, d, [old], [old], true);
    const hash = computeHash(d.spec.template);
    expect(created?.metadata?.name).toBe(`web-${hash}`);
    const sent = dc.actions[0]?.object as ReplicaSet;
    expect(sent).toEqual({
      metadata: {
        name: `web-${hash}`,
        namespace: 'default',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: d.metadata?.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        labels: { app: 'web', 'pod-template-hash': hash },
        annotations: {
          team: 'a',
          [REVISION_ANNOTATION]: '5',
          [DESIRED_REPLICAS_ANNOTATION]: '3',
          [MAX_REPLICAS_ANNOTATION]: '4',
        },
      },
      spec: {
        // 3 old replicas + 1 surge allowed: one new replica.
        replicas: 1,
        minReadySeconds: 5,
        selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
        template: { metadata: { labels: { app: 'web', 'pod-template-hash': hash } }, spec: d.spec.template.spec },
      },
    });
    expect(dc.events).toEqual([`Normal ScalingReplicaSet Scaled up replica set web-${hash} from 0 to 1`]);
    // The Deployment gets the revision and a NewReplicaSetCreated condition.
    const status = dc.actions[1];
    expect(status?.verb).toBe('update-status');
    const written = status?.object as Deployment;
    expect(written.metadata?.annotations?.[REVISION_ANNOTATION]).toBe('5');
    expect(written.status?.conditions).toEqual([
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetCreated',
        message: `Created new replica set "web-${hash}"`,
        lastUpdateTime: newTimestamp,
        lastTransitionTime: newTimestamp,
      },
    ]);
  });

  it('a name taken by another template bumps collisionCount and fails; the next hash differs', async () => {
    const d = newDeployment('web', 1, { selector: { app: 'web' } });
    const hash = computeHash(d.spec?.template);
    const taken = rs(`web-${hash}`, 1, { app: 'web' });
    const dc = fakeContext();
    dc.cache.set(`default/web-${hash}`, taken);
    dc.fail = (a) =>
      a.verb === 'create' ? newAlreadyExists({ group: 'apps', resource: 'replicasets' }, a.name) : undefined;
    await expect(getNewReplicaSet(dc, d, [], [], true)).rejects.toThrow('already exists');
    expect(d.status?.collisionCount).toBe(1);
    const written = dc.actions[1]?.object as Deployment | undefined;
    expect(written?.status?.collisionCount).toBe(1);
    expect(computeHash(d.spec?.template, 1)).not.toBe(hash);
  });

  it('a name taken by our own set with our template (a stale cache) is that set', async () => {
    const d = newDeployment('web', 1, { selector: { app: 'web' } });
    const hash = computeHash(d.spec?.template);
    const ours: ReplicaSet = {
      metadata: {
        name: `web-${hash}`,
        namespace: 'default',
        uid: 'mine',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata?.uid ?? '', controller: true },
        ],
      },
      spec: { replicas: 1, selector: {}, template: structuredClone(d.spec?.template ?? {}) },
    };
    const dc = fakeContext();
    dc.cache.set(`default/web-${hash}`, ours);
    dc.fail = (a) =>
      a.verb === 'create' ? newAlreadyExists({ group: 'apps', resource: 'replicasets' }, a.name) : undefined;
    expect(await getNewReplicaSet(dc, d, [], [], true)).toBe(ours);
    expect(d.status?.collisionCount).toBeUndefined();
    expect(dc.events).toEqual([]);
  });

  it('another failure sets Progressing False ReplicaSetCreateError and a Warning', async () => {
    const d = newDeployment('web', 1, { selector: { app: 'web' } });
    d.spec = { ...(d.spec ?? { selector: {}, template: {} }), progressDeadlineSeconds: 600 };
    const dc = fakeContext();
    dc.fail = (a) => (a.verb === 'create' ? new Error('quota exceeded') : undefined);
    await expect(getNewReplicaSet(dc, d, [], [], true)).rejects.toThrow('quota exceeded');
    expect(d.status?.conditions?.[0]).toMatchObject({
      type: 'Progressing',
      status: 'False',
      reason: 'ReplicaSetCreateError',
    });
    expect(dc.events[0]).toMatch(
      /^Warning ReplicaSetCreateError Failed to create new replica set "web-\w+": quota exceeded$/,
    );
  });

  it('an existing new set gets the revision raised, the old one in revision-history, and minReadySeconds', async () => {
    const d = newDeployment('web', 1, { selector: { app: 'web' } });
    const existing = rs('web-abc', 1, { app: 'web' }, newTimestamp);
    existing.spec = { ...(existing.spec ?? { selector: {} }), template: structuredClone(d.spec?.template ?? {}) };
    if (existing.metadata) existing.metadata.annotations = { [REVISION_ANNOTATION]: '1' };
    const old = rs('web-old', 0, { app: 'web' }, oldTimestamp);
    if (old.metadata) old.metadata.annotations = { [REVISION_ANNOTATION]: '2' };
    const dc = fakeContext();
    await getNewReplicaSet(dc, d, [existing, old], [old], false);
    const sent = dc.actions[0]?.object as ReplicaSet;
    expect(dc.actions[0]?.verb).toBe('update');
    expect(sent.metadata?.annotations).toMatchObject({
      [REVISION_ANNOTATION]: '3',
      'deployment.kubernetes.io/revision-history': '1',
    });
  });

  it('an up-to-date new set: the Deployment gets its revision and FoundNewReplicaSet', async () => {
    const d = newDeployment('web', 1, { selector: { app: 'web' } });
    d.spec = { ...(d.spec ?? { selector: {}, template: {} }), progressDeadlineSeconds: 600 };
    const existing = rs('web-abc', 1, { app: 'web' }, newTimestamp);
    existing.spec = {
      ...(existing.spec ?? { selector: {} }),
      minReadySeconds: 0,
      template: structuredClone(d.spec.template),
    };
    if (existing.metadata) existing.metadata.annotations = { [REVISION_ANNOTATION]: '1' };
    const dc = fakeContext();
    await getNewReplicaSet(dc, d, [existing], [], false);
    expect(dc.actions.map((a) => a.verb)).toEqual(['update-status']);
    expect(d.metadata?.annotations?.[REVISION_ANNOTATION]).toBe('1');
    expect(d.status?.conditions?.[0]).toMatchObject({
      reason: 'FoundNewReplicaSet',
      message: 'Found new replica set "web-abc"',
    });
  });

  it('creates nothing when not asked to', async () => {
    const dc = fakeContext();
    expect(await getNewReplicaSet(dc, newDeployment('web', 1), [], [], false)).toBeUndefined();
    expect(dc.actions).toEqual([]);
  });
});

describe('calculateStatus and the paused conditions', () => {
  it('sums the sets, leaves zero counts out, and sets Available against replicas − maxUnavailable', () => {
    const d = newDeployment('foo', 4, { maxSurge: 1, maxUnavailable: 1 });
    if (d.metadata) d.metadata.generation = 3;
    const newRS = rsWithStatus('new', 2, 2, 2);
    const oldRS = rsWithStatus('old', 2, 2, 1);
    const now = Date.parse(newTimestamp);
    const status = calculateStatus([oldRS, newRS], newRS, d, now);
    expect(status).toEqual({
      observedGeneration: 3,
      replicas: 4,
      updatedReplicas: 2,
      availableReplicas: 3,
      unavailableReplicas: 1,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastUpdateTime: newTimestamp,
          lastTransitionTime: newTimestamp,
        },
      ],
    });
    const low = calculateStatus([rsWithStatus('new', 4, 4, 2)], undefined, d, now);
    expect(low.conditions?.[0]).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    expect(statusEqual({ replicas: 0, conditions: [] }, {})).toBe(true);
    expect(statusEqual({ collisionCount: 0 }, {})).toBe(false);
  });

  it('paused: Unknown DeploymentPaused; resumed: Unknown DeploymentResumed; nothing without a deadline', async () => {
    const d = newDeployment('foo', 1);
    d.spec = { ...(d.spec ?? { selector: {}, template: {} }), paused: true, progressDeadlineSeconds: 600 };
    const dc = fakeContext();
    await checkPausedConditions(dc, d);
    expect(d.status?.conditions?.[0]).toMatchObject({
      type: 'Progressing',
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    await checkPausedConditions(dc, d);
    expect(dc.actions).toHaveLength(1);
    d.spec.paused = false;
    await checkPausedConditions(dc, d);
    expect(d.status?.conditions?.[0]).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentResumed',
      message: 'Deployment is resumed',
    });
    const none = newDeployment('foo', 1);
    if (none.spec) none.spec.paused = true;
    await checkPausedConditions(dc, none);
    expect(none.status).toBeUndefined();
  });
});
