// The facts of pkg/controller/deployment/progress_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import type { Deployment, DeploymentCondition, ReplicaSet } from '../../api/types/apps/v1.js';
import { getReplicaFailures, requeueStuckDeployment, syncRolloutStatus } from './progress.js';
import { fakeContext, rsWithStatus } from './testing/fixtures.js';
import {
  getDeploymentCondition,
  NEW_RS_AVAILABLE_REASON,
  REPLICA_SET_UPDATED_REASON,
  TIMED_OUT_REASON,
} from './util/deployment-util.js';

/** currentDeployment: Recreate, observed, the status and conditions given. */
function currentDeployment(
  pds: number | undefined,
  replicas: number,
  statusReplicas: number,
  updated: number,
  available: number,
  conditions?: DeploymentCondition[],
): Deployment {
  return {
    metadata: { name: 'progress-test', namespace: 'default' },
    spec: {
      ...(pds === undefined ? {} : { progressDeadlineSeconds: pds }),
      replicas,
      strategy: { type: 'Recreate' },
      selector: {},
      template: {},
    },
    status: {
      replicas: statusReplicas,
      updatedReplicas: updated,
      availableReplicas: available,
      ...(conditions === undefined ? {} : { conditions }),
    },
  };
}

const status = (replicas: number, updatedReplicas: number, availableReplicas: number) => ({
  replicas,
  updatedReplicas,
  availableReplicas,
});

describe('requeueStuckDeployment', () => {
  const failed: DeploymentCondition[] = [{ type: 'Progressing', status: 'False', reason: TIMED_OUT_REASON }];
  const stuck: DeploymentCondition[] = [
    { type: 'Progressing', status: 'True', lastUpdateTime: '2017-02-15T18:49:00Z' },
  ];
  it.each([
    ['no progressDeadlineSeconds', currentDeployment(undefined, 4, 3, 3, 2), status(3, 3, 2), undefined, -1],
    ['infinite progressDeadlineSeconds', currentDeployment(2147483647, 4, 3, 3, 2), status(3, 3, 2), undefined, -1],
    ['no Progressing condition', currentDeployment(60, 4, 3, 3, 2), status(3, 3, 2), undefined, -1],
    ['complete', currentDeployment(60, 3, 3, 3, 3), status(3, 3, 3), undefined, -1],
    ['already failed', currentDeployment(60, 3, 3, 3, 0, failed), status(3, 3, 0), undefined, -1],
    ['stuck - 30s', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:49:30Z', 30_000],
    ['stuck - 1s', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:49:59Z', 1000],
    [
      'less than a second → now',
      currentDeployment(60, 3, 3, 3, 1, stuck),
      status(3, 3, 1),
      '2017-02-15T18:49:59.001Z',
      0,
    ],
    ['now', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:50:00Z', 0],
    ['1s after the deadline', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:50:01Z', 0],
    ['60s after the deadline', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:51:00Z', 0],
  ] as const)('%s', (_n, d, st, now, expected) => {
    const dc = fakeContext(now === undefined ? Date.parse('2017-02-15T18:49:00Z') : Date.parse(now));
    expect(requeueStuckDeployment(dc, d, st)).toBe(expected);
    if (expected > 0) expect(dc.requeues).toEqual([{ key: 'default/progress-test', ms: expected + 1000 }]);
    if (expected === 0) expect(dc.requeues).toEqual([{ key: 'default/progress-test', ms: 'rate-limited' }]);
    if (expected < 0) expect(dc.requeues).toEqual([]);
  });
});

describe('syncRolloutStatus', () => {
  const testTime = '2017-02-15T18:49:00Z';
  const failedTimedOut = (): DeploymentCondition => ({
    type: 'Progressing',
    status: 'False',
    reason: TIMED_OUT_REASON,
  });
  const newRSAvailable = (): DeploymentCondition => ({
    type: 'Progressing',
    status: 'True',
    reason: NEW_RS_AVAILABLE_REASON,
    lastUpdateTime: testTime,
    lastTransitionTime: testTime,
  });
  const replicaSetUpdated = (): DeploymentCondition => ({
    type: 'Progressing',
    status: 'True',
    reason: REPLICA_SET_UPDATED_REASON,
    lastUpdateTime: testTime,
    lastTransitionTime: testTime,
  });
  interface Case {
    name: string;
    d: Deployment;
    allRSs: ReplicaSet[];
    newRS?: ReplicaSet;
    expected?: { status: string; reason: string; lastUpdate?: string; lastTransition?: string };
  }
  const cases: Case[] = [
    {
      name: 'no progress deadline: the Progressing condition removed',
      d: currentDeployment(undefined, 3, 2, 2, 2, [replicaSetUpdated()]),
      allRSs: [rsWithStatus('bar', 0, 1, 1)],
      newRS: rsWithStatus('foo', 3, 2, 2),
    },
    {
      name: 'one active set, complete: left as it is',
      d: currentDeployment(60, 3, 3, 3, 3, [newRSAvailable()]),
      allRSs: [rsWithStatus('bar', 3, 3, 3)],
      expected: { status: 'True', reason: NEW_RS_AVAILABLE_REASON, lastUpdate: testTime, lastTransition: testTime },
    },
    {
      name: 'progressing: lastTransitionTime kept over Progressing=True',
      d: currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated()]),
      allRSs: [rsWithStatus('bar', 0, 1, 1)],
      newRS: rsWithStatus('foo', 3, 2, 2),
      expected: { status: 'True', reason: REPLICA_SET_UPDATED_REASON, lastTransition: testTime },
    },
    {
      name: 'progressing: everything updated over Progressing=False',
      d: currentDeployment(60, 3, 2, 2, 2, [failedTimedOut()]),
      allRSs: [rsWithStatus('bar', 0, 1, 1)],
      newRS: rsWithStatus('foo', 3, 2, 2),
      expected: { status: 'True', reason: REPLICA_SET_UPDATED_REASON },
    },
    {
      name: 'progressing: the condition created',
      d: currentDeployment(60, 3, 2, 2, 2, []),
      allRSs: [rsWithStatus('bar', 0, 1, 1)],
      newRS: rsWithStatus('foo', 3, 2, 2),
      expected: { status: 'True', reason: REPLICA_SET_UPDATED_REASON },
    },
    {
      name: 'complete: lastTransitionTime kept over Progressing=True',
      d: currentDeployment(60, 3, 3, 3, 3, [replicaSetUpdated()]),
      allRSs: [],
      newRS: rsWithStatus('foo', 3, 3, 3),
      expected: { status: 'True', reason: NEW_RS_AVAILABLE_REASON, lastTransition: testTime },
    },
    {
      name: 'complete: everything updated over Progressing=False',
      d: currentDeployment(60, 3, 3, 3, 3, [failedTimedOut()]),
      allRSs: [],
      newRS: rsWithStatus('foo', 3, 3, 3),
      expected: { status: 'True', reason: NEW_RS_AVAILABLE_REASON },
    },
    {
      name: 'complete: the condition created',
      d: currentDeployment(60, 3, 3, 3, 3, []),
      allRSs: [],
      newRS: rsWithStatus('foo', 3, 3, 3),
      expected: { status: 'True', reason: NEW_RS_AVAILABLE_REASON },
    },
    {
      name: 'complete without a new set',
      d: currentDeployment(60, 0, 3, 3, 3, [replicaSetUpdated()]),
      allRSs: [rsWithStatus('foo', 0, 0, 0)],
      expected: { status: 'True', reason: NEW_RS_AVAILABLE_REASON },
    },
    {
      name: 'timed out: past the deadline',
      d: currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated()]),
      allRSs: [],
      newRS: rsWithStatus('foo', 3, 2, 2),
      expected: { status: 'False', reason: TIMED_OUT_REASON },
    },
    {
      name: 'timed out: an existing timed-out condition is kept',
      d: currentDeployment(60, 3, 2, 2, 2, [
        { ...failedTimedOut(), lastUpdateTime: testTime, lastTransitionTime: testTime },
      ]),
      allRSs: [],
      newRS: rsWithStatus('foo', 3, 2, 2),
      expected: { status: 'False', reason: TIMED_OUT_REASON, lastUpdate: testTime, lastTransition: testTime },
    },
  ];
  it.each(cases)('$name', async (c) => {
    const dc = fakeContext(Date.parse('2017-02-15T19:00:00Z'));
    const allRSs = c.newRS === undefined ? c.allRSs : [...c.allRSs, c.newRS];
    await syncRolloutStatus(dc, allRSs, c.newRS, c.d);
    const cond = getDeploymentCondition(c.d.status, 'Progressing');
    if (c.expected === undefined) {
      expect(cond).toBeUndefined();
      return;
    }
    expect(cond).toMatchObject({ status: c.expected.status, reason: c.expected.reason });
    if (c.expected.lastUpdate !== undefined) expect(cond?.lastUpdateTime).toBe(c.expected.lastUpdate);
    if (c.expected.lastTransition !== undefined) expect(cond?.lastTransitionTime).toBe(c.expected.lastTransition);
  });

  it('messages name the new set', async () => {
    const d = currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated()]);
    const dc = fakeContext(Date.parse('2017-02-15T19:00:00Z'));
    const newRS = rsWithStatus('foo', 3, 2, 2);
    await syncRolloutStatus(dc, [newRS], newRS, d);
    expect(getDeploymentCondition(d.status, 'Progressing')?.message).toBe(
      'ReplicaSet "foo" has timed out progressing.',
    );
  });

  it('copies ReplicaFailure from the new set first, else from any set, and removes it when gone', async () => {
    const failure = (message: string) => ({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message,
      lastTransitionTime: testTime,
    });
    const oldRS = rsWithStatus('old', 1, 1, 1);
    oldRS.status = { replicas: 1, conditions: [failure('old one')] };
    const newRS = rsWithStatus('new', 1, 0, 0);
    expect(getReplicaFailures([oldRS, newRS], newRS)[0]?.message).toBe('old one');
    newRS.status = { replicas: 0, conditions: [failure('new one')] };
    expect(getReplicaFailures([oldRS, newRS], newRS)).toEqual([
      {
        type: 'ReplicaFailure',
        status: 'True',
        reason: 'FailedCreate',
        message: 'new one',
        lastUpdateTime: testTime,
        lastTransitionTime: testTime,
      },
    ]);
    const d = currentDeployment(undefined, 1, 1, 0, 1);
    const dc = fakeContext(Date.parse(testTime));
    await syncRolloutStatus(dc, [oldRS, newRS], newRS, d);
    expect(getDeploymentCondition(d.status, 'ReplicaFailure')?.message).toBe('new one');
    await syncRolloutStatus(dc, [rsWithStatus('old', 1, 1, 1)], undefined, d);
    expect(getDeploymentCondition(d.status, 'ReplicaFailure')).toBeUndefined();
  });

  it('an unchanged status is not written, and a deadline check is queued', async () => {
    const d = currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated()]);
    const newRS = rsWithStatus('foo', 3, 2, 2);
    const dc = fakeContext(Date.parse('2017-02-15T18:49:10Z'));
    // First pass: the Available condition is added.
    await syncRolloutStatus(dc, [newRS], newRS, d);
    expect(dc.actions).toHaveLength(1);
    await syncRolloutStatus(dc, [newRS], newRS, d);
    expect(dc.actions).toHaveLength(1);
    expect(dc.requeues).toEqual([{ key: 'default/progress-test', ms: 51_000 }]);
  });
});
