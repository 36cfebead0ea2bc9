// The facts of pkg/controller/replicaset/replica_set_utils_test.go (v1.32): TestCalculateStatus,
// TestCalculateStatusConditions, and replica_set_test.go's TestGetCondition / TestSetCondition /
// TestRemoveCondition.
import { describe, expect, it } from 'vitest';
import type { ReplicaSet, ReplicaSetStatus } from '../../api/types/apps/v1.js';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import { calculateStatus, getCondition, removeCondition, setCondition } from './replica-set-utils.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

/** newReplicaSet: the selector given, the template always labelled name=foo, type=production. */
function newReplicaSet(replicas: number, labels: Record<string, string>, minReadySeconds = 0): ReplicaSet {
  return {
    metadata: { name: 'foobar', namespace: 'default', uid: 'rs-uid', generation: 1 },
    spec: {
      replicas,
      minReadySeconds,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels: { name: 'foo', type: 'production' } },
        spec: { containers: [{ name: 'c', image: 'foo/bar' }] },
      },
    },
  };
}

/** newPod: Running pods are Ready (without a transition time, as the Go test's). */
function newPod(name: string, labels: Record<string, string>, phase: PodPhase): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `${name}-uid`, labels },
    status: { phase, ...(phase === 'Running' ? { conditions: [{ type: 'Ready', status: 'True' }] } : {}) },
  };
}

const labelMap = { name: 'foo' };
const fullLabelMap = { name: 'foo', type: 'production' };

describe('calculateStatus (TestCalculateStatus)', () => {
  const notFullyLabelled = newReplicaSet(1, labelMap);
  const fullyLabelled = newReplicaSet(2, fullLabelMap);
  const longMinReadySeconds = newReplicaSet(1, fullLabelMap, 3600);
  const counts = (
    replicas: number,
    fullyLabeledReplicas: number,
    readyReplicas: number,
    availableReplicas: number,
  ) => ({
    replicas,
    fullyLabeledReplicas,
    readyReplicas,
    availableReplicas,
  });
  const cases: Array<[string, ReplicaSet, Pod[], ReplicaSetStatus]> = [
    ['1 fully labelled pod', fullyLabelled, [newPod('pod1', fullLabelMap, 'Running')], counts(1, 1, 1, 1)],
    ['1 not fully labelled pod', notFullyLabelled, [newPod('pod1', labelMap, 'Running')], counts(1, 0, 1, 1)],
    [
      '2 fully labelled pods',
      fullyLabelled,
      [newPod('pod1', fullLabelMap, 'Running'), newPod('pod2', fullLabelMap, 'Running')],
      counts(2, 2, 2, 2),
    ],
    [
      '2 not fully labelled pods',
      notFullyLabelled,
      [newPod('pod1', labelMap, 'Running'), newPod('pod2', labelMap, 'Running')],
      counts(2, 0, 2, 2),
    ],
    [
      '1 fully labelled pod, 1 not fully labelled pod',
      notFullyLabelled,
      [newPod('pod1', labelMap, 'Running'), newPod('pod2', fullLabelMap, 'Running')],
      counts(2, 1, 2, 2),
    ],
    ['1 non-ready pod', fullyLabelled, [newPod('pod1', fullLabelMap, 'Pending')], counts(1, 1, 0, 0)],
    [
      '1 ready but non-available pod',
      longMinReadySeconds,
      [newPod('pod1', fullLabelMap, 'Running')],
      counts(1, 1, 1, 0),
    ],
  ];
  it.each(cases)('%s', (_name, rs, pods, expected) => {
    expect(calculateStatus(rs, pods, undefined, NOW)).toEqual(expected);
  });

  it('counts a pod available once it has been ready for minReadySeconds, strictly', () => {
    const rs = newReplicaSet(1, labelMap, 10);
    const pod = newPod('pod1', labelMap, 'Running');
    pod.status = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }],
    };
    expect(calculateStatus(rs, [pod], undefined, NOW + 10_000).availableReplicas).toBe(0);
    expect(calculateStatus(rs, [pod], undefined, NOW + 10_001).availableReplicas).toBe(1);
  });
});

describe('calculateStatus conditions (TestCalculateStatusConditions)', () => {
  const rs = newReplicaSet(2, labelMap);
  const replicaFailure = newReplicaSet(10, labelMap);
  replicaFailure.status = { replicas: 0, conditions: [{ type: 'ReplicaFailure', status: 'True' }] };
  const pods = (n: number) => Array.from({ length: n }, (_, i) => newPod(`pod${i + 1}`, labelMap, 'Running'));
  const fake = new Error('fake manageReplicasErr');
  const cases: Array<[string, ReplicaSet, Pod[], Error | undefined, unknown]> = [
    [
      'manageReplicasErr != nil && failureCond == nil, diff < 0',
      rs,
      pods(1),
      fake,
      [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'fake manageReplicasErr' }],
    ],
    [
      'manageReplicasErr != nil && failureCond == nil, diff > 0',
      rs,
      pods(3),
      fake,
      [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedDelete', message: 'fake manageReplicasErr' }],
    ],
    ['manageReplicasErr == nil && failureCond != nil', replicaFailure, pods(1), undefined, undefined],
    [
      'manageReplicasErr != nil && failureCond != nil',
      replicaFailure,
      pods(1),
      fake,
      [{ type: 'ReplicaFailure', status: 'True' }],
    ],
    ['manageReplicasErr == nil && failureCond == nil', rs, pods(1), undefined, undefined],
  ];
  it.each(cases)('%s', (_name, set, filtered, err, expected) => {
    const { conditions } = calculateStatus(set, filtered, err, NOW);
    // The transition time is the sync's; the rest must match.
    expect(conditions?.map(({ lastTransitionTime: _t, ...c }) => c)).toEqual(expected);
  });
});

describe('the ReplicaSet condition helpers (TestGetCondition, TestSetCondition, TestRemoveCondition)', () => {
  const cond = (type: string, status: 'True' | 'False', reason = '') => ({ type, status, reason });
  it('GetCondition finds a condition by type', () => {
    const status = { replicas: 0, conditions: [cond('ReplicaFailure', 'True', 'ForSomeReason')] };
    expect(getCondition(status, 'ReplicaFailure')).toEqual(cond('ReplicaFailure', 'True', 'ForSomeReason'));
    expect(getCondition(status, 'Other')).toBeUndefined();
    expect(getCondition({ replicas: 0 }, 'ReplicaFailure')).toBeUndefined();
  });

  it('SetCondition adds, replaces on a new status or reason, and keeps one with the same both', () => {
    const status: ReplicaSetStatus = { replicas: 0 };
    setCondition(status, cond('ReplicaFailure', 'True', 'ForSomeReason'));
    expect(status.conditions).toEqual([cond('ReplicaFailure', 'True', 'ForSomeReason')]);
    setCondition(status, { ...cond('ReplicaFailure', 'True', 'ForSomeReason'), message: 'kept the first' });
    expect(status.conditions).toEqual([cond('ReplicaFailure', 'True', 'ForSomeReason')]);
    setCondition(status, cond('ReplicaFailure', 'False', 'BecauseICan'));
    expect(status.conditions).toEqual([cond('ReplicaFailure', 'False', 'BecauseICan')]);
  });

  it('RemoveCondition removes by type, and nothing else', () => {
    const status: ReplicaSetStatus = { replicas: 0, conditions: [cond('ReplicaFailure', 'True', 'ForSomeReason')] };
    removeCondition(status, 'Other');
    expect(status.conditions).toHaveLength(1);
    removeCondition(status, 'ReplicaFailure');
    expect(status.conditions).toBeUndefined();
  });
});
