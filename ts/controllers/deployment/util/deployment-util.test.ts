// The facts of pkg/controller/deployment/util/deployment_util_test.go (v1.32), table by table.
import { describe, expect, it } from 'vitest';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../../api/types/apps/v1.js';
import type { PodTemplateSpec } from '../../../api/types/core/v1.js';
import { generateDeployment, generateRS } from '../testing/fixtures.js';
import {
  DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY,
  DESIRED_REPLICAS_ANNOTATION,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  equalIgnoreHash,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getActualReplicaCountForReplicaSets,
  getDeploymentCondition,
  getDeploymentsForReplicaSet,
  getNonNegativeInt32FromAnnotation,
  getReplicaCountForReplicaSets,
  getReplicaSetFraction,
  getReplicaSetProportion,
  isSaturated,
  lastRevision,
  MAX_REPLICAS_ANNOTATION,
  maxRevision,
  maxSurge,
  maxUnavailable,
  minAvailable,
  NEW_RS_AVAILABLE_REASON,
  newRSNewReplicas,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  removeDeploymentCondition,
  replicasAnnotationsNeedUpdate,
  resolveFenceposts,
  setDeploymentAnnotationsTo,
  setDeploymentCondition,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  sortByRevision,
} from './deployment-util.js';

const at = (min: number, sec = 0) => `2016-01-01T00:${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}Z`;

function rolling(replicas: number, surge: number | string, unavailable: number | string): Deployment {
  const d = generateDeployment('nginx');
  if (d.spec === undefined) throw new Error('no spec');
  d.spec.replicas = replicas;
  d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } };
  return d;
}

describe('EqualIgnoreHash', () => {
  const tpl = (
    name: string,
    node: string,
    annotations: Record<string, string>,
    labels: Record<string, string>,
  ): PodTemplateSpec => ({
    metadata: { name, annotations, labels },
    spec: { nodeName: node, containers: [] },
  });
  const H = DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY;
  const cases: Array<[string, PodTemplateSpec, PodTemplateSpec, boolean]> = [
    [
      'same spec, same labels',
      tpl('foo', 'n', {}, { [H]: 'v1', something: 'else' }),
      tpl('foo', 'n', {}, { [H]: 'v1', something: 'else' }),
      true,
    ],
    [
      'only the hash differs',
      tpl('foo', 'n', {}, { [H]: 'v1', something: 'else' }),
      tpl('foo', 'n', {}, { [H]: 'v2', something: 'else' }),
      true,
    ],
    [
      'the former has no hash',
      tpl('foo', 'n', {}, { something: 'else' }),
      tpl('foo', 'n', {}, { [H]: 'v2', something: 'else' }),
      true,
    ],
    [
      'other label, former without hash',
      tpl('foo', 'n', {}, { something: 'else' }),
      tpl('foo', 'n', {}, { [H]: 'v2' }),
      false,
    ],
    [
      'other label, latter without hash',
      tpl('foo', 'n', {}, { [H]: 'v1' }),
      tpl('foo', 'n', {}, { something: 'else' }),
      false,
    ],
    [
      'other label, same hash',
      tpl('foo', 'n', {}, { [H]: 'v1' }),
      tpl('foo', 'n', {}, { [H]: 'v1', something: 'else' }),
      false,
    ],
    [
      'different spec, same labels',
      tpl('foo', 'n', { former: 'value' }, { [H]: 'v1' }),
      tpl('foo', 'n', { latter: 'value' }, { [H]: 'v1' }),
      false,
    ],
    [
      'different spec, different hash',
      tpl('foo-1', 'n', {}, { [H]: 'v1' }),
      tpl('foo-2', 'n', {}, { [H]: 'v2' }),
      false,
    ],
    [
      'different spec, former without hash',
      tpl('foo-1', 'n1', {}, { something: 'else' }),
      tpl('foo-2', 'n2', {}, { [H]: 'v2', something: 'else' }),
      false,
    ],
    [
      'different spec, different labels',
      tpl('foo', 'n1', {}, { something: 'else' }),
      tpl('foo', 'n2', {}, { nothing: 'else' }),
      false,
    ],
  ];
  it.each(cases)('%s', (_name, a, b, expected) => {
    expect(equalIgnoreHash(a, b)).toBe(expected);
    expect(equalIgnoreHash(b, a)).toBe(expected);
    // The inputs are not changed.
    expect(a.metadata?.labels).toBeDefined();
  });

  it('reads absent, null and empty fields alike (Semantic.DeepEqual of decoded structs)', () => {
    expect(
      equalIgnoreHash({ metadata: { labels: { [H]: 'x' } }, spec: { containers: [] } }, { spec: { containers: [] } }),
    ).toBe(true);
    expect(equalIgnoreHash({ metadata: {}, spec: { containers: [], volumes: [] } }, { spec: { containers: [] } })).toBe(
      true,
    );
  });
});

describe('FindNewReplicaSet / FindOldReplicaSets', () => {
  const now = '2024-01-01T00:01:00Z';
  const later = '2024-01-01T00:02:00Z';
  const before = '2024-01-01T00:00:00Z';
  const setup = () => {
    const d = generateDeployment('nginx');
    const newRS = generateRS(d);
    (newRS.metadata?.labels ?? {})[DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY] = 'hash';
    if (newRS.metadata) newRS.metadata.creationTimestamp = later;
    const newRSDup = generateRS(d);
    (newRSDup.metadata?.labels ?? {})[DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY] = 'different-hash';
    if (newRSDup.metadata) newRSDup.metadata.creationTimestamp = now;
    const oldD = generateDeployment('nginx');
    const c = oldD.spec?.template.spec?.containers[0];
    if (c) c.name = 'nginx-old-1';
    const oldRS = generateRS(oldD);
    if (oldRS.metadata) oldRS.metadata.creationTimestamp = before;
    return { d, newRS, newRSDup, oldRS };
  };

  it('finds the set with the same template but another hash, the oldest of several, or none', () => {
    const { d, newRS, newRSDup, oldRS } = setup();
    expect(findNewReplicaSet(d, [newRS, oldRS])).toBe(newRS);
    expect(findNewReplicaSet(d, [newRS, oldRS, newRSDup])).toBe(newRSDup);
    expect(findNewReplicaSet(d, [oldRS])).toBeUndefined();
  });

  it('splits old sets into all and those with replicas', () => {
    const { d, newRS, newRSDup, oldRS } = setup();
    if (newRS.spec) newRS.spec.replicas = 1;
    expect(findOldReplicaSets(d, [newRS, oldRS])).toEqual([[], [oldRS]]);
    expect(findOldReplicaSets(d, [oldRS])).toEqual([[], [oldRS]]);
    // Only the oldest of two new-looking sets is the new one.
    expect(findOldReplicaSets(d, [oldRS, newRS, newRSDup])).toEqual([[newRS], [oldRS, newRS]]);
    expect(findOldReplicaSets(d, [newRS])).toEqual([[], []]);
  });
});

describe('GetReplicaCountForReplicaSets', () => {
  it('sums spec and status replicas', () => {
    const rs1 = generateRS(generateDeployment('foo'));
    rs1.spec = { ...(rs1.spec ?? { selector: {} }), replicas: 1 };
    rs1.status = { replicas: 2 };
    const rs2 = generateRS(generateDeployment('bar'));
    rs2.spec = { ...(rs2.spec ?? { selector: {} }), replicas: 2 };
    rs2.status = { replicas: 3 };
    expect(getReplicaCountForReplicaSets([rs1])).toBe(1);
    expect(getActualReplicaCountForReplicaSets([rs1])).toBe(2);
    expect(getReplicaCountForReplicaSets([rs1, rs2, undefined])).toBe(3);
    expect(getActualReplicaCountForReplicaSets([rs1, rs2, undefined])).toBe(5);
  });
});

describe('ResolveFenceposts', () => {
  it.each([
    ['0%', '0%', 0, 0, 1],
    ['39%', '39%', 10, 4, 3],
    [undefined, '39%', 10, 0, 3],
    ['39%', undefined, 10, 4, 0],
    [undefined, undefined, 10, 0, 1],
    [2, 0, 10, 2, 0],
  ] as const)('surge %s unavailable %s of %d → %d:%d', (surge, unavailable, desired, s, u) => {
    expect(resolveFenceposts(surge, unavailable, desired)).toEqual([s, u]);
  });
  it('refuses what is not a percentage', () => {
    expect(() => resolveFenceposts('oops', '39%', 10)).toThrow('invalid value for IntOrString');
    expect(() => resolveFenceposts('55%', 'urg', 10)).toThrow('invalid value for IntOrString');
    // MaxSurge and MaxUnavailable drop the error: 0.
    expect(maxSurge(rolling(10, 'oops', '39%'))).toBe(0);
    expect(maxUnavailable(rolling(10, 'oops', '39%'))).toBe(0);
  });
});

describe('NewRSNewReplicas', () => {
  it.each([
    ['can not scale up - to newRSReplicas', 'RollingUpdate', 1, 5, 1, 5],
    ['scale up - to depReplicas', 'RollingUpdate', 6, 2, 10, 6],
    ['recreate - to depReplicas', 'Recreate', 3, 1, 1, 3],
  ] as const)('%s', (_n, type, depReplicas, newRSReplicas, surge, expected) => {
    const d = generateDeployment('nginx');
    if (d.spec === undefined) throw new Error('no spec');
    d.spec.replicas = depReplicas;
    d.spec.strategy = { type, rollingUpdate: { maxUnavailable: 1, maxSurge: surge } };
    const newRS = generateRS(d);
    if (newRS.spec) newRS.spec.replicas = newRSReplicas;
    const rs5 = generateRS(d);
    if (rs5.spec) rs5.spec.replicas = 5;
    expect(newRSNewReplicas(d, [rs5], newRS)).toBe(expected);
  });
});

describe('conditions', () => {
  const progressing = () => ({ type: 'Progressing', status: 'False', reason: 'ForSomeReason' });
  const progressing2 = () => ({ type: 'Progressing', status: 'True', reason: 'BecauseItIs' });
  const available = () => ({ type: 'Available', status: 'True', reason: 'AwesomeController' });
  const status = (): DeploymentStatus => ({ conditions: [progressing(), available()] });

  it('GetDeploymentCondition', () => {
    expect(getDeploymentCondition(status(), 'Available')).toEqual(available());
    expect(getDeploymentCondition({}, 'Available')).toBeUndefined();
    expect(getDeploymentCondition(status(), 'ReplicaFailure')).toBeUndefined();
  });

  it('SetDeploymentCondition: added, replaced, or left when unchanged', () => {
    const s1: DeploymentStatus = {};
    setDeploymentCondition(s1, available());
    expect(s1.conditions).toEqual([available()]);
    const s2: DeploymentStatus = { conditions: [progressing()] };
    setDeploymentCondition(s2, progressing());
    expect(s2.conditions).toEqual([progressing()]);
    const s3: DeploymentStatus = { conditions: [progressing()] };
    setDeploymentCondition(s3, available());
    expect(s3.conditions).toEqual([progressing(), available()]);
    const s4: DeploymentStatus = { conditions: [progressing()] };
    setDeploymentCondition(s4, progressing2());
    expect(s4.conditions).toEqual([progressing2()]);
  });

  it('SetDeploymentCondition keeps lastTransitionTime when only the reason changes', () => {
    const s: DeploymentStatus = {
      conditions: [{ ...progressing2(), lastTransitionTime: at(1), lastUpdateTime: at(1) }],
    };
    setDeploymentCondition(s, {
      type: 'Progressing',
      status: 'True',
      reason: 'Other',
      lastTransitionTime: at(5),
      lastUpdateTime: at(5),
    });
    expect(s.conditions).toEqual([
      { type: 'Progressing', status: 'True', reason: 'Other', lastTransitionTime: at(1), lastUpdateTime: at(5) },
    ]);
  });

  it('RemoveDeploymentCondition', () => {
    const s1 = status();
    removeDeploymentCondition(s1, 'Available');
    expect(s1.conditions).toEqual([progressing()]);
    const s2: DeploymentStatus = {};
    removeDeploymentCondition(s2, 'Available');
    expect(s2.conditions).toBeUndefined();
    const s3 = status();
    removeDeploymentCondition(s3, 'ReplicaFailure');
    expect(s3.conditions).toEqual([progressing(), available()]);
  });
});

describe('DeploymentComplete', () => {
  const d = (desired: number, current: number, updated: number, avail: number, mu: number, ms: number): Deployment => {
    const x = rolling(desired, ms, mu);
    x.status = { replicas: current, updatedReplicas: updated, availableReplicas: avail };
    return x;
  };
  it.each([
    ['min but not all pods available', d(5, 5, 5, 4, 1, 0), false],
    ['min availability not honored', d(5, 5, 5, 3, 1, 0), false],
    ['complete', d(5, 5, 5, 5, 0, 0), true],
    ['all available but not updated', d(5, 5, 4, 5, 0, 0), false],
    ['still running old pods', d(1, 2, 1, 1, 0, 1), false],
    ['one replica never comes up', d(1, 1, 1, 0, 1, 1), false],
  ])('%s', (_n, x, expected) => {
    expect(deploymentComplete(x, x.status ?? {})).toBe(expected);
  });
  it('needs the generation observed', () => {
    const x = d(5, 5, 5, 5, 0, 0);
    if (x.metadata) x.metadata.generation = 2;
    expect(deploymentComplete(x, { ...x.status, observedGeneration: 1 })).toBe(false);
    expect(deploymentComplete(x, { ...x.status, observedGeneration: 2 })).toBe(true);
  });
});

describe('DeploymentProgressing', () => {
  const st = (replicas: number, updatedReplicas: number, readyReplicas: number, availableReplicas: number) => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  it.each([
    ['updated pods', st(10, 4, 4, 4), st(10, 6, 4, 4), true],
    ['not progressing', st(10, 4, 4, 4), st(10, 4, 4, 4), false],
    ['old pods removed', st(10, 4, 6, 6), st(8, 4, 6, 6), true],
    ['less new pods', st(10, 7, 3, 3), st(10, 6, 3, 3), false],
    ['less overall but more new pods', st(10, 4, 7, 7), st(8, 8, 5, 5), true],
    ['more ready pods', st(10, 10, 9, 8), st(10, 10, 10, 8), true],
    ['more available pods', st(10, 10, 10, 9), st(10, 10, 10, 10), true],
  ])('%s', (_n, old, cur, expected) => {
    expect(deploymentProgressing({ status: old }, cur)).toBe(expected);
  });
});

describe('DeploymentTimedOut', () => {
  const d = (reason: string, pds: number | undefined, from: string | undefined): Deployment => ({
    spec: {
      selector: {},
      template: {},
      ...(pds === undefined ? {} : { progressDeadlineSeconds: pds }),
    },
    status: {
      conditions: [
        { type: 'Progressing', status: 'True', reason, ...(from === undefined ? {} : { lastUpdateTime: from }) },
      ],
    },
  });
  it.each([
    ['no progressDeadlineSeconds', d('', undefined, at(1, 9)), at(1, 20), false],
    ['infinite progressDeadlineSeconds', d('', 2147483647, at(1, 9)), at(1, 20), false],
    ['10s, 11s passed', d('', 10, at(1, 9)), at(1, 20), true],
    ['10s, 9s passed', d('', 10, at(1, 11)), at(1, 20), false],
    ['10s, exactly 10s passed (Before is strict)', d('', 10, at(1, 10)), at(1, 20), false],
    ['a complete deployment', d(NEW_RS_AVAILABLE_REASON, 10, undefined), at(1, 20), false],
    ['already timed out', d('ProgressDeadlineExceeded', 10, at(1, 19)), at(1, 20), true],
  ])('%s', (_n, x, now, expected) => {
    expect(deploymentTimedOut(x, x.status ?? {}, Date.parse(now))).toBe(expected);
  });
});

describe('MaxUnavailable / MinAvailable / MaxSurge', () => {
  it.each([
    [10, 5, 5],
    [10, 10, 10],
    [5, 10, 5],
    [0, 10, 0],
    [10, '50%', 5],
    [10, '100%', 10],
    [5, '100%', 5],
  ] as const)('replicas %d maxUnavailable %s → %d', (replicas, mu, expected) => {
    expect(maxUnavailable(rolling(replicas, 1, mu))).toBe(expected);
  });
  it.each([
    [10, 5, 5],
    [10, 10, 0],
    [5, 10, 0],
    [0, 10, 0],
    [10, '60%', 4],
    [10, '100%', 0],
    [5, '100%', 0],
  ] as const)('replicas %d maxUnavailable %s → minAvailable %d', (replicas, mu, expected) => {
    expect(minAvailable(rolling(replicas, 1, mu))).toBe(expected);
  });
  it('is 0 for Recreate; surge rounds up, unavailable down', () => {
    const r = generateDeployment('nginx');
    if (r.spec) r.spec.strategy = { type: 'Recreate' };
    expect(maxUnavailable(r)).toBe(0);
    expect(minAvailable(r)).toBe(0);
    expect(maxSurge(r)).toBe(0);
    expect(maxSurge(rolling(10, '25%', '25%'))).toBe(3);
    expect(maxUnavailable(rolling(10, '25%', '25%'))).toBe(2);
    expect(maxUnavailable(rolling(3, 0, 0))).toBe(1);
  });
});

describe('annotations', () => {
  it.each([
    ['invalid empty', undefined, 0, false],
    ['invalid', 'invalid', 0, false],
    ['invalid negative', '-1', 0, false],
    ['valid zero', '0', 0, true],
    ['valid', '13', 13, true],
    ['valid max', '2147483647', 2147483647, true],
    ['out of range', '2147483648', 0, false],
    ['out of range 2', '4294967296', 0, false],
  ])('getNonNegativeInt32FromAnnotation: %s', (_n, value, expected, valid) => {
    const rs = generateRS(generateDeployment('nginx'));
    if (rs.metadata) rs.metadata.annotations = { ...(value === undefined ? {} : { test: value }), foo: '2' };
    expect(getNonNegativeInt32FromAnnotation(rs, 'test')).toEqual([expected, valid]);
  });

  it('SetNewReplicaSetAnnotations raises the revision and keeps a history within its length limit', () => {
    const d = generateDeployment('nginx');
    const rs = generateRS(d);
    (d.metadata?.annotations ?? {})[REVISION_ANNOTATION] = '1';
    for (let i = 10; i < 20; i++) {
      const next = String(i + 1);
      setNewReplicaSetAnnotations(d, rs, next, true, 5);
      if (i >= 12) expect(rs.metadata?.annotations?.[REVISION_HISTORY_ANNOTATION]).toBe(`${i - 1},${i}`);
      expect(rs.metadata?.annotations?.[REVISION_ANNOTATION]).toBe(next);
    }
  });

  it('SetNewReplicaSetAnnotations copies annotations but the skipped ones; a lower revision is kept', () => {
    const d = generateDeployment('nginx');
    d.metadata = {
      ...d.metadata,
      annotations: {
        team: 'a',
        [REVISION_ANNOTATION]: '9',
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
        [DESIRED_REPLICAS_ANNOTATION]: '7',
      },
    };
    const rs = generateRS(d);
    if (rs.metadata) rs.metadata.annotations = { [REVISION_ANNOTATION]: '4' };
    expect(setNewReplicaSetAnnotations(d, rs, '3', false, 2000)).toBe(true);
    expect(rs.metadata?.annotations).toEqual({
      team: 'a',
      [REVISION_ANNOTATION]: '4',
      [DESIRED_REPLICAS_ANNOTATION]: '1',
      [MAX_REPLICAS_ANNOTATION]: '1',
    });
    // Nothing more to change.
    expect(setNewReplicaSetAnnotations(d, rs, '3', true, 2000)).toBe(false);
    // A revision that is not a number stops it.
    if (rs.metadata?.annotations) rs.metadata.annotations[REVISION_ANNOTATION] = 'x';
    expect(setNewReplicaSetAnnotations(d, rs, '5', true, 2000)).toBe(false);
  });

  it('SetDeploymentAnnotationsTo keeps the skipped annotations and takes the rest from the set', () => {
    const d = generateDeployment('nginx');
    d.metadata = { ...d.metadata, annotations: { [REVISION_ANNOTATION]: '3', mine: 'x' } };
    const rs = generateRS(d);
    if (rs.metadata) rs.metadata.annotations = { [REVISION_ANNOTATION]: '1', theirs: 'y' };
    setDeploymentAnnotationsTo(d, rs);
    expect(d.metadata.annotations).toEqual({ [REVISION_ANNOTATION]: '3', theirs: 'y' });
  });

  it('SetReplicasAnnotations, then IsSaturated', () => {
    const d = generateDeployment('nginx');
    const rs = generateRS(d);
    expect(setReplicasAnnotations(rs, 10, 11)).toBe(true);
    expect(rs.metadata?.annotations).toMatchObject({
      [DESIRED_REPLICAS_ANNOTATION]: '10',
      [MAX_REPLICAS_ANNOTATION]: '11',
    });
    expect(setReplicasAnnotations(rs, 10, 11)).toBe(false);
    if (rs.metadata?.annotations) rs.metadata.annotations[DESIRED_REPLICAS_ANNOTATION] = '1';
    rs.status = { replicas: 1, availableReplicas: 1 };
    if (rs.spec) rs.spec.replicas = 1;
    expect(isSaturated(d, rs)).toBe(true);
    rs.status = { replicas: 1, availableReplicas: 0 };
    expect(isSaturated(d, rs)).toBe(false);
    expect(isSaturated(d, undefined)).toBe(false);
  });

  it.each([
    ['annotations nil', undefined, true],
    ['desiredReplicas update', { [DESIRED_REPLICAS_ANNOTATION]: '8', [MAX_REPLICAS_ANNOTATION]: '20' }, true],
    ['maxReplicas update', { [DESIRED_REPLICAS_ANNOTATION]: '10', [MAX_REPLICAS_ANNOTATION]: '16' }, true],
    ["needn't update", { [DESIRED_REPLICAS_ANNOTATION]: '10', [MAX_REPLICAS_ANNOTATION]: '20' }, false],
  ])('ReplicasAnnotationsNeedUpdate: %s', (_n, annotations, expected) => {
    const rs: ReplicaSet = {
      metadata: { name: 'hello', namespace: 'test', ...(annotations === undefined ? {} : { annotations }) },
      spec: { selector: { matchLabels: { foo: 'bar' } } },
    };
    expect(replicasAnnotationsNeedUpdate(rs, 10, 20)).toBe(expected);
  });
});

describe('revisions', () => {
  const rev = (v: string | undefined, name = 'rs', created = at(0)): ReplicaSet => ({
    metadata: {
      name,
      creationTimestamp: created,
      ...(v === undefined ? {} : { annotations: { [REVISION_ANNOTATION]: v } }),
    },
    spec: { selector: {} },
  });
  it('MaxRevision and LastRevision skip what does not parse', () => {
    expect(maxRevision([rev('3'), rev('x'), rev('7'), undefined, rev(undefined)])).toBe(7);
    expect(lastRevision([rev('3'), rev('x'), rev('7'), rev('5')])).toBe(5);
    expect(lastRevision([rev('3')])).toBe(0);
  });
  it('ReplicaSetsByRevision: by revision, by creation when one does not parse', () => {
    const sorted = sortByRevision([rev('10', 'c'), rev('2', 'b'), rev('3', 'a')]);
    expect(sorted.map((r) => r.metadata?.name)).toEqual(['b', 'a', 'c']);
  });
});

describe('GetDeploymentsForReplicaSet', () => {
  const ds: Deployment[] = [0, 1, 2].map((i) => ({
    metadata: { name: `deployment-${i}`, namespace: 'test' },
    spec: { selector: { matchLabels: { app: `test-${i}` } }, template: {} },
  }));
  const rs = (i: number): ReplicaSet => ({
    metadata: { namespace: 'test', name: `rs-${i}`, labels: { app: `test-${i}`, label: `label-${i}` } },
    spec: { selector: {} },
  });
  it('matches by selector; none for unmatched, unlabelled, or an empty selector', () => {
    expect(getDeploymentsForReplicaSet(ds, rs(0))).toEqual([ds[0]]);
    expect(getDeploymentsForReplicaSet(ds, rs(2))).toEqual([ds[2]]);
    expect(getDeploymentsForReplicaSet(ds, rs(3))).toEqual([]);
    expect(
      getDeploymentsForReplicaSet(ds, { metadata: { namespace: 'test', name: 'x' }, spec: { selector: {} } }),
    ).toEqual([]);
    const all: Deployment = { metadata: { name: 'all', namespace: 'test' }, spec: { selector: {}, template: {} } };
    expect(getDeploymentsForReplicaSet([all], rs(0))).toEqual([]);
  });
});

describe('proportions', () => {
  it.each([
    ['empty deployment always scales to 0', 0, 0, 0, 10, undefined, -10],
    ['no max-replicas annotation, no status replicas', 10, 0, 0, 5, undefined, 0],
    ['max-replicas 0, no status replicas', 10, 0, 0, 5, { [MAX_REPLICAS_ANNOTATION]: '0' }, 0],
    ['scale up 1/5, annotation missing', 120, 100, 0, 50, undefined, 10],
    ['scale up 1/5, annotation 0', 120, 100, 0, 50, { [MAX_REPLICAS_ANNOTATION]: '0' }, 10],
    ['scale up 1/5', 120, 0, 0, 50, { [MAX_REPLICAS_ANNOTATION]: '100' }, 10],
    ['scale up with maxSurge', 120, 0, 10, 50, { [MAX_REPLICAS_ANNOTATION]: '110' }, 9],
    ['scale down 1/6', 10, 0, 0, 6, { [MAX_REPLICAS_ANNOTATION]: '12' }, -1],
    ['scale down with maxSurge', 100, 0, 10, 50, { [MAX_REPLICAS_ANNOTATION]: '130' }, -8],
  ])('getReplicaSetFraction: %s', (_n, dr, dsr, surge, rsr, annotations, expected) => {
    const d = rolling(dr, surge, 1);
    d.status = { replicas: dsr };
    const rs = generateRS(d);
    if (rs.metadata) {
      if (annotations === undefined) delete rs.metadata.annotations;
      else rs.metadata.annotations = annotations;
    }
    if (rs.spec) rs.spec.replicas = rsr;
    expect(getReplicaSetFraction(rs, d)).toBe(expected);
  });

  it('GetReplicaSetProportion is bounded by what is left to add or remove', () => {
    const d = rolling(120, 0, 1);
    const rs = generateRS(d);
    if (rs.metadata) rs.metadata.annotations = { [MAX_REPLICAS_ANNOTATION]: '100' };
    if (rs.spec) rs.spec.replicas = 50;
    expect(getReplicaSetProportion(rs, d, 20, 0)).toBe(10);
    expect(getReplicaSetProportion(rs, d, 20, 15)).toBe(5);
    expect(getReplicaSetProportion(rs, d, 20, 20)).toBe(0);
    expect(getReplicaSetProportion(undefined, d, 20, 0)).toBe(0);
  });
});

describe('FindActiveOrLatest', () => {
  const rs = (name: string, replicas: number, created: string): ReplicaSet => ({
    metadata: { name, creationTimestamp: created },
    spec: { replicas, selector: {} },
  });
  it('the single active set, else the new set or the newest old one, else nothing', () => {
    const a = rs('a', 0, at(1));
    const b = rs('b', 0, at(2));
    const c = rs('c', 3, at(3));
    expect(findActiveOrLatest(undefined, [])).toBeUndefined();
    expect(findActiveOrLatest(undefined, [a, b])).toBe(b);
    expect(findActiveOrLatest(a, [b])).toBe(a);
    expect(findActiveOrLatest(a, [b, c])).toBe(c);
    expect(findActiveOrLatest(rs('n', 1, at(4)), [b, c])).toBeUndefined();
  });
});
