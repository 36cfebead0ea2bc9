// The facts of pkg/controller/statefulset/stateful_set_utils_test.go (v1.32): names and
// ordinals, identity and storage, the claims' labels, the retention policy's owner references
// (TestIsClaimOwnerUpToDate's full product, TestClaimOwnerUpToDateEdgeCases), the versioned pods
// of a partition, ApplyRevision.
import { describe, expect, it } from 'vitest';
import type { OwnerReference } from '../../api/meta.js';
import type { StatefulSet } from '../../api/types/apps/v1.js';
import type { PersistentVolumeClaim, Pod } from '../../api/types/core/v1.js';
import {
  applyRevision,
  completeRollingUpdate,
  getParentNameAndOrdinal,
  getPersistentVolumeClaims,
  getPodRevision,
  hasStaleOwnerRef,
  identityMatches,
  isClaimOwnerUpToDate,
  isMemberOf,
  newRevision,
  newStatefulSetPod,
  newVersionedStatefulSetPod,
  POD_KIND,
  STATEFUL_SET_KIND,
  sortAscendingOrdinal,
  sortOverlappingStatefulSets,
  storageMatches,
  updateClaimOwnerRefForSetAndPod,
  updateIdentity,
  updateStorage,
} from './stateful-set-utils.js';

/** newStatefulSet(replicas): the Go tests' `foo` set with a `datadir` claim and a `home` host path. */
type Set = StatefulSet & { spec: NonNullable<StatefulSet['spec']> };
function newStatefulSet(replicas: number, name = 'foo'): Set {
  return {
    metadata: { name, namespace: 'default', uid: 'test', annotations: { note: 'x' } },
    spec: {
      replicas,
      selector: { matchLabels: { foo: 'bar' } },
      serviceName: 'governingsvc',
      template: {
        metadata: { labels: { foo: 'bar' } },
        spec: {
          containers: [{ name: 'nginx', image: 'nginx', volumeMounts: [{ name: 'datadir', mountPath: '/tmp/' }] }],
          volumes: [{ name: 'home', hostPath: { path: '/tmp/home' } }],
        },
      },
      volumeClaimTemplates: [{ metadata: { name: 'datadir' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      updateStrategy: { type: 'RollingUpdate' },
    },
  };
}

describe('names and ordinals', () => {
  it('getParentNameAndOrdinal (TestGetParentNameAndOrdinal)', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    expect(getParentNameAndOrdinal(pod)).toEqual(['foo', 1]);
    pod.metadata = { ...pod.metadata, name: `${pod.metadata?.name}-bar` };
    expect(getParentNameAndOrdinal(pod)).toEqual(['', -1]);
    expect(getParentNameAndOrdinal({ metadata: { name: 'a-b-12' } })).toEqual(['a-b', 12]);
    // Past int32: ParseInt fails, the parent stays.
    expect(getParentNameAndOrdinal({ metadata: { name: 'foo-99999999999' } })).toEqual(['foo', -1]);
  });

  it('isMemberOf (TestIsMemberOf)', () => {
    const set = newStatefulSet(3);
    const set2 = newStatefulSet(3, 'foo2');
    const pod = newStatefulSetPod(set, 1);
    expect(isMemberOf(set, pod)).toBe(true);
    expect(isMemberOf(set2, pod)).toBe(false);
  });

  it('ascendingOrdinal and overlappingStatefulSets sort as Go does', () => {
    const set = newStatefulSet(10);
    const pods = [5, 3, 9, 0, 1].map((i) => newStatefulSetPod(set, i));
    expect(sortAscendingOrdinal(pods).map((p) => p.metadata?.name)).toEqual([
      'foo-0',
      'foo-1',
      'foo-3',
      'foo-5',
      'foo-9',
    ]);
    const sets = [3, 1, 2].map((i) => {
      const s = newStatefulSet(1, `ss-${i}`);
      s.metadata = { ...s.metadata, creationTimestamp: new Date(1000 * i).toISOString() };
      return s;
    });
    const tie = newStatefulSet(1, 'ss-0');
    tie.metadata = { ...tie.metadata, creationTimestamp: new Date(1000).toISOString() };
    expect(sortOverlappingStatefulSets([...sets, tie]).map((s) => s.metadata?.name)).toEqual([
      'ss-0',
      'ss-1',
      'ss-2',
      'ss-3',
    ]);
  });
});

describe('identity and storage', () => {
  it('identityMatches (TestIdentityMatches)', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    expect(identityMatches(set, pod)).toBe(true);
    expect(identityMatches(set, { ...pod, metadata: { ...pod.metadata, name: 'foo-1-bar' } })).toBe(false);
    expect(identityMatches(set, { ...pod, metadata: { ...pod.metadata, namespace: '' } })).toBe(false);
    const noLabel = structuredClone(pod);
    delete noLabel.metadata?.labels?.['statefulset.kubernetes.io/pod-name'];
    expect(identityMatches(set, noLabel)).toBe(false);
  });

  it('a new pod: identity, hostname, subdomain, pod-index, claim volume first (TestNewPodControllerRef)', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 2);
    expect(pod.metadata?.name).toBe('foo-2');
    expect(pod.metadata?.generateName).toBeUndefined();
    expect(pod.metadata?.labels).toEqual({
      foo: 'bar',
      'statefulset.kubernetes.io/pod-name': 'foo-2',
      'apps.kubernetes.io/pod-index': '2',
    });
    expect(pod.spec?.hostname).toBe('foo-2');
    expect(pod.spec?.subdomain).toBe('governingsvc');
    expect(pod.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: 'foo',
        uid: 'test',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(pod.spec?.volumes).toEqual([
      { name: 'datadir', persistentVolumeClaim: { claimName: 'datadir-foo-2' } },
      { name: 'home', hostPath: { path: '/tmp/home' } },
    ]);
  });

  it('updateIdentity repairs name, namespace and labels (TestUpdateIdentity)', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    pod.metadata = { ...pod.metadata, namespace: '' };
    delete pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'];
    expect(identityMatches(set, pod)).toBe(false);
    updateIdentity(set, pod);
    expect(identityMatches(set, pod)).toBe(true);
  });

  it('storageMatches and updateStorage (TestStorageMatches, TestUpdateStorage)', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    expect(storageMatches(set, pod)).toBe(true);
    const wrong = structuredClone(pod);
    (wrong.spec?.volumes ?? [])[0] = { name: 'datadir', hostPath: { path: '/tmp' } };
    expect(storageMatches(set, wrong)).toBe(false);
    const missing = structuredClone(pod);
    if (missing.spec !== undefined) missing.spec.volumes = [];
    expect(storageMatches(set, missing)).toBe(false);
    updateStorage(set, missing);
    expect(storageMatches(set, missing)).toBe(true);
    updateStorage(set, wrong);
    expect(storageMatches(set, wrong)).toBe(true);
    expect(wrong.spec?.volumes?.map((v) => v.name)).toEqual(['datadir', 'home']);
    expect(storageMatches(set, { metadata: { name: 'foo' } } as Pod)).toBe(false);
  });

  it('claims are named <template>-<set>-<ordinal> with the selector labels added (TestGetPersistentVolumeClaims)', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    expect([...getPersistentVolumeClaims(set, pod).entries()]).toEqual([
      [
        'datadir',
        {
          metadata: { name: 'datadir-foo-1', namespace: 'default', labels: { foo: 'bar' } },
          spec: { accessModes: ['ReadWriteOnce'] },
        },
      ],
    ]);
    const labelled = newStatefulSet(3);
    labelled.spec.volumeClaimTemplates = [{ metadata: { name: 'datadir', labels: { foo: 'other', a: 'b' } } }];
    expect(getPersistentVolumeClaims(labelled, pod).get('datadir')?.metadata?.labels).toEqual({ foo: 'bar', a: 'b' });
  });
});

describe('retention policy owner references', () => {
  const retain = 'Retain';
  const del = 'Delete';
  const cases = [
    { name: 'retain', scaled: retain, deleted: retain, podRef: false, setRef: false, replicas: 0, ordinal: 0 },
    { name: 'on SS delete', scaled: retain, deleted: del, podRef: false, setRef: true, replicas: 0, ordinal: 0 },
    {
      name: 'on scaledown only, condemned',
      scaled: del,
      deleted: retain,
      podRef: true,
      setRef: false,
      replicas: 2,
      ordinal: 2,
    },
    {
      name: 'on scaledown only, remains',
      scaled: del,
      deleted: retain,
      podRef: false,
      setRef: false,
      replicas: 2,
      ordinal: 1,
    },
    { name: 'on both, condemned', scaled: del, deleted: del, podRef: true, setRef: false, replicas: 2, ordinal: 2 },
    { name: 'on both, remains', scaled: del, deleted: del, podRef: false, setRef: true, replicas: 2, ordinal: 1 },
  ];
  const fixture = (scaled: string, deleted: string, replicas: number, ordinal: number) => {
    const set: StatefulSet = {
      metadata: { name: 'stateful-set', uid: 'ss-456' },
      spec: {
        replicas,
        selector: {},
        serviceName: '',
        template: {},
        persistentVolumeClaimRetentionPolicy: { whenScaled: scaled, whenDeleted: deleted },
      },
    };
    const pod: Pod = { metadata: { name: `pod-${ordinal}`, uid: 'pod-123' } };
    return { set, pod };
  };
  const podRef = (name: string): OwnerReference => ({
    apiVersion: 'v1',
    kind: 'Pod',
    name,
    uid: 'pod-123',
    controller: true,
    blockOwnerDeletion: true,
  });
  const setRef: OwnerReference = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    name: 'stateful-set',
    uid: 'ss-456',
    controller: true,
    blockOwnerDeletion: true,
  };
  const others: OwnerReference[] = [
    { name: 'rand1', apiVersion: 'v1', kind: 'Pod', uid: 'rand1-uid' },
    { name: 'rand2', apiVersion: 'v1', kind: 'Pod', uid: 'rand2-uid' },
  ];

  for (const tc of cases) {
    it(`isClaimOwnerUpToDate: ${tc.name}, with and without each reference (TestIsClaimOwnerUpToDate)`, () => {
      for (const useOthers of [false, true]) {
        for (const withPod of [false, true]) {
          for (const withSet of [false, true]) {
            const { set, pod } = fixture(tc.scaled, tc.deleted, tc.replicas, tc.ordinal);
            const refs = [
              ...(withPod ? [podRef(pod.metadata?.name ?? '')] : []),
              ...(withSet ? [setRef] : []),
              ...(useOthers ? others : []),
            ];
            const claim: PersistentVolumeClaim = { metadata: { name: 'target-claim', ownerReferences: refs } };
            const want = withPod === tc.podRef && withSet === tc.setRef;
            expect(
              isClaimOwnerUpToDate(claim, set, pod),
              `${tc.name} pod=${withPod} set=${withSet} others=${useOthers}`,
            ).toBe(want);
            // updateClaimOwnerRefForSetAndPod makes every one of them up to date, the others kept.
            updateClaimOwnerRefForSetAndPod(claim, set, pod);
            expect(isClaimOwnerUpToDate(claim, set, pod)).toBe(true);
            expect(claim.metadata?.ownerReferences?.filter((r) => r.uid.startsWith('rand'))).toEqual(
              useOthers ? others : [],
            );
          }
        }
      }
    });
  }

  it('edge cases: non-controller, stale and unexpected controllers (TestClaimOwnerUpToDateEdgeCases)', () => {
    const both = { whenScaled: del, whenDeleted: del };
    const onDelete = { whenScaled: retain, whenDeleted: del };
    const edge: Array<{ name: string; refs: OwnerReference[]; policy: typeof both; match: boolean }> = [
      {
        name: 'normal controller, pod',
        refs: [{ name: 'pod-1', apiVersion: 'v1', kind: 'Pod', uid: 'pod-123', controller: true }],
        policy: both,
        match: true,
      },
      {
        name: 'non-controller, pod',
        refs: [{ name: 'pod-1', apiVersion: 'v1', kind: 'Pod', uid: 'pod-123' }],
        policy: both,
        match: false,
      },
      {
        name: 'stale controller, pod',
        refs: [{ name: 'pod-1', apiVersion: 'v1', kind: 'Pod', uid: 'pod-stale', controller: true }],
        policy: both,
        match: true,
      },
      {
        name: 'unexpected controller, pod',
        refs: [
          { name: 'pod-1', apiVersion: 'v1', kind: 'Pod', uid: 'pod-123', controller: true },
          { name: 'Random', apiVersion: 'v1', kind: 'Pod', uid: 'random', controller: true },
        ],
        policy: both,
        match: false,
      },
      {
        name: 'normal controller, set',
        refs: [{ name: 'stateful-set', apiVersion: 'apps/v1', kind: 'StatefulSet', uid: 'ss-456', controller: true }],
        policy: onDelete,
        match: true,
      },
      {
        name: 'non-controller, set',
        refs: [{ name: 'stateful-set', apiVersion: 'appsv1', kind: 'StatefulSet', uid: 'ss-456' }],
        policy: onDelete,
        match: false,
      },
      {
        name: 'stale controller, set',
        refs: [
          { name: 'stateful-set', apiVersion: 'apps/v1', kind: 'StatefulSet', uid: 'set-stale', controller: true },
        ],
        policy: onDelete,
        match: true,
      },
      {
        name: 'unexpected controller, set',
        refs: [
          { name: 'stateful-set', apiVersion: 'apps/v1', kind: 'StatefulSet', uid: 'ss-456', controller: true },
          { name: 'Random', apiVersion: 'apps/v1', kind: 'StatefulSet', uid: 'random', controller: true },
        ],
        policy: onDelete,
        match: false,
      },
    ];
    for (const tc of edge) {
      const { set, pod } = fixture(tc.policy.whenScaled, tc.policy.whenDeleted, 1, 1);
      const claim: PersistentVolumeClaim = { metadata: { name: 'target-claim', ownerReferences: tc.refs } };
      expect(isClaimOwnerUpToDate(claim, set, pod), tc.name).toBe(tc.match);
    }
  });

  it('hasStaleOwnerRef (TestHasStaleOwnerRef)', () => {
    const claim: PersistentVolumeClaim = {
      metadata: { ownerReferences: [{ name: 'foo', apiVersion: 'v1', kind: 'Pod', uid: 'old' }] },
    };
    expect(hasStaleOwnerRef(claim, { metadata: { name: 'foo', uid: 'new' } }, POD_KIND)).toBe(true);
    expect(hasStaleOwnerRef(claim, { metadata: { name: 'foo', uid: 'old' } }, POD_KIND)).toBe(false);
    expect(hasStaleOwnerRef(claim, { metadata: { name: 'bar', uid: 'x' } }, POD_KIND)).toBe(false);
    expect(hasStaleOwnerRef(claim, { metadata: { name: 'foo', uid: 'new' } }, STATEFUL_SET_KIND)).toBe(false);
  });
});

describe('revisions and versioned pods', () => {
  it('ApplyRevision restores the template of a revision (TestCreateApplyRevision)', () => {
    const set = newStatefulSet(1);
    const revision = newRevision(set, 1, 0);
    expect(revision.metadata?.name).toMatch(/^foo-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(revision.metadata?.labels?.['controller.kubernetes.io/hash']).toBe(revision.metadata?.name?.slice(4));
    expect(revision.metadata?.annotations).toEqual({ note: 'x' });
    const changed = structuredClone(set);
    (changed.spec.template.spec?.containers ?? [])[0] = { name: 'nginx', image: 'foo' };
    const restored = applyRevision(changed, revision);
    expect(restored.spec?.template).toEqual(set.spec.template);
    expect(newRevision(changed, 2, 0).metadata?.name).not.toBe(revision.metadata?.name);
    // The collision count salts the name.
    expect(newRevision(set, 1, 1).metadata?.name).not.toBe(revision.metadata?.name);
  });

  it('below the partition pods are made at the current revision, from it up at the update one', () => {
    const current = newStatefulSet(5);
    current.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 3 } };
    const update = structuredClone(current);
    (update.spec.template.spec?.containers ?? [])[0] = { name: 'nginx', image: 'nginx:2' };
    const made = [0, 1, 2, 3, 4].map((i) => newVersionedStatefulSetPod(current, update, 'cur', 'upd', i));
    expect(made.map(getPodRevision)).toEqual(['cur', 'cur', 'cur', 'upd', 'upd']);
    expect(made.map((p) => p.spec?.containers[0]?.image)).toEqual(['nginx', 'nginx', 'nginx', 'nginx:2', 'nginx:2']);
    // With the start ordinal, the partition counts from it.
    current.spec.ordinals = { start: 10 };
    expect(getPodRevision(newVersionedStatefulSetPod(current, update, 'cur', 'upd', 12))).toBe('cur');
    expect(getPodRevision(newVersionedStatefulSetPod(current, update, 'cur', 'upd', 13))).toBe('upd');
  });

  it('completeRollingUpdate makes the update revision current once all are updated and ready', () => {
    const set = newStatefulSet(3);
    const status = {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      currentReplicas: 0,
      currentRevision: 'a',
      updateRevision: 'b',
    };
    completeRollingUpdate(set, status);
    expect(status).toMatchObject({ currentReplicas: 3, currentRevision: 'b' });
    const notReady = {
      replicas: 3,
      readyReplicas: 2,
      updatedReplicas: 3,
      currentReplicas: 0,
      currentRevision: 'a',
      updateRevision: 'b',
    };
    completeRollingUpdate(set, notReady);
    expect(notReady.currentRevision).toBe('a');
    set.spec.updateStrategy = { type: 'OnDelete' };
    completeRollingUpdate(set, status);
    const onDelete = {
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      currentReplicas: 0,
      currentRevision: 'a',
      updateRevision: 'b',
    };
    completeRollingUpdate(set, onDelete);
    expect(onDelete.currentRevision).toBe('a');
  });
});
