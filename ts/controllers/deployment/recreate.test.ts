// The facts of pkg/controller/deployment/recreate_test.go (v1.32).
import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../../api/types/apps/v1.js';
import type { Pod, PodPhase } from '../../api/types/core/v1.js';
import { oldPodsRunning, type PodMap, scaleDownOldReplicaSetsForRecreate } from './recreate.js';
import { fakeContext, newDeployment, newReplicaSet, rsWithStatus } from './testing/fixtures.js';

describe('scaleDownOldReplicaSetsForRecreate', () => {
  it('scales every old set to 0 and hands back the updated sets', async () => {
    const d = newDeployment('foo', 3, { selector: { foo: 'bar' } });
    const oldRSs = [newReplicaSet(d, 'foo-0', 3), newReplicaSet(d, 'foo-1', 0)];
    const dc = fakeContext();
    expect(await scaleDownOldReplicaSetsForRecreate(dc, oldRSs, d)).toBe(true);
    expect(oldRSs.map((r) => r.spec?.replicas)).toEqual([0, 0]);
    expect(dc.actions.map((a) => `${a.verb} ${a.name}`)).toEqual(['update foo-0']);
    expect(dc.events).toEqual(['Normal ScalingReplicaSet Scaled down replica set foo-0 from 3 to 0']);
  });
});

describe('oldPodsRunning', () => {
  const rsWithUID = (uid: string): ReplicaSet => {
    const r = newReplicaSet(newDeployment('foo', 1, { selector: { foo: 'bar' } }), `foo-${uid}`, 0);
    if (r.metadata) r.metadata.uid = uid;
    return r;
  };
  const pod = (phase?: PodPhase): Pod => (phase === undefined ? {} : { status: { phase } });
  const cases: Array<[string, ReplicaSet[], PodMap, boolean]> = [
    ['no old RSs', [], new Map(), false],
    [
      'old RSs with running pods',
      [rsWithUID('some-uid'), rsWithUID('other-uid')],
      new Map([
        ['some-uid', [pod(), pod()]],
        ['other-uid', [pod(), pod()]],
      ]),
      true,
    ],
    ['no pods but status replicas', [rsWithStatus('rs-1', 0, 1)], new Map(), true],
    ['no pods, no status replicas', [rsWithStatus('rs-1', 0, 0)], new Map(), false],
    [
      'only terminal pods',
      [rsWithStatus('rs-1', 0, 0)],
      new Map([['uid-1', [pod('Failed'), pod('Succeeded')]]]),
      false,
    ],
    ['an Unknown pod', [rsWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Unknown')]]]), true],
    ['a Pending pod', [rsWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Pending')]]]), true],
    ['a Running pod', [rsWithStatus('rs-1', 0, 0)], new Map([['uid-1', [pod('Running')]]]), true],
    [
      'terminal and pending pods',
      [rsWithStatus('rs-1', 0, 0)],
      new Map([
        ['uid-1', [pod('Failed'), pod('Succeeded')]],
        ['uid-2', []],
        ['uid-3', [pod('Pending')]],
      ]),
      true,
    ],
  ];
  it.each(cases)('%s', (_name, oldRSs, podMap, expected) => {
    expect(oldPodsRunning(undefined, oldRSs, podMap)).toBe(expected);
  });

  it('does not count the new set’s pods', () => {
    const newRS = rsWithUID('new');
    expect(oldPodsRunning(newRS, [], new Map([['new', [pod('Running')]]]))).toBe(false);
  });
});
