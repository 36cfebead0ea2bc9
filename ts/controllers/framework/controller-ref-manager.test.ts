import { describe, expect, it } from 'vitest';
import { selectorFromSet } from '../../api/labels/selector.js';
import type { ObjectMeta, OwnerReference } from '../../api/meta.js';
import { StatusError } from '../../api/status.js';
import type { Pod, ReplicationController } from '../../api/types/core/v1.js';
import {
  BaseControllerRefManager,
  deleteOwnerRefStrategicMergePatch,
  type GroupVersionKind,
  ownerRefControllerPatch,
  PodControllerRefManager,
  type PodPatcher,
  recheckDeletionTimestamp,
} from './controller-ref-manager.js';

// controller_ref_manager_test.go (v1.32)
const productionLabel = { type: 'production' };
const testLabel = { type: 'testing' };
const productionLabelSelector = selectorFromSet(productionLabel);
const controllerUID = '123';
const controllerKind: GroupVersionKind = { group: '', version: 'v1', kind: 'ReplicationController' };
const NOW = '2024-05-01T12:00:00Z';

type Controller = ReplicationController & { metadata: ObjectMeta };

const controller = (extra: ObjectMeta = {}): Controller => ({
  metadata: { name: 'rc', uid: controllerUID, ...extra },
});

function newPod(podName: string, label: Record<string, string>, owner?: Controller): Pod {
  const refs: OwnerReference[] =
    owner === undefined
      ? []
      : [
          {
            apiVersion: 'v1',
            kind: 'ReplicationController',
            name: 'rc',
            uid: owner.metadata.uid ?? '',
            controller: true,
          },
        ];
  return {
    metadata: {
      name: podName,
      namespace: 'default',
      uid: `uid-${podName}`,
      labels: label,
      ...(refs.length > 0 ? { ownerReferences: refs } : {}),
    },
  };
}

/** FakePodControl as the Go test has it: records each patch. */
class RecordingPodControl implements PodPatcher {
  readonly patches: string[] = [];
  async patchPod(_namespace: string, _name: string, data: string): Promise<void> {
    this.patches.push(data);
  }
}

interface Case {
  name: string;
  controller: Controller;
  pods: Pod[];
  claimed: string[];
  patches: number;
  finalizers?: string[];
}

const deleting = (pod: Pod): Pod => ({ ...pod, metadata: { ...pod.metadata, deletionTimestamp: NOW } });
const inNamespace = (pod: Pod, namespace: string): Pod => ({
  ...pod,
  metadata: { ...pod.metadata, namespace },
});

const cases: Case[] = [
  {
    name: 'Claim pods with correct label',
    controller: controller(),
    pods: [newPod('pod1', productionLabel), newPod('pod2', testLabel)],
    claimed: ['pod1'],
    patches: 1,
  },
  {
    name: 'Controller marked for deletion can not claim pods',
    controller: controller({ deletionTimestamp: NOW }),
    pods: [newPod('pod1', productionLabel), newPod('pod2', productionLabel)],
    claimed: [],
    patches: 0,
  },
  {
    name: 'Controller marked for deletion can not claim new pods',
    controller: controller({ deletionTimestamp: NOW }),
    pods: [newPod('pod1', productionLabel, controller()), newPod('pod2', productionLabel)],
    claimed: ['pod1'],
    patches: 0,
  },
  {
    name: 'Controller can not claim pods owned by another controller',
    controller: controller(),
    pods: [
      newPod('pod1', productionLabel, controller()),
      newPod('pod2', productionLabel, controller({ uid: 'AAAAA' })),
    ],
    claimed: ['pod1'],
    patches: 0,
  },
  {
    name: 'Controller releases claimed pods when selector doesn’t match',
    controller: controller(),
    pods: [newPod('pod1', productionLabel, controller()), newPod('pod2', testLabel, controller())],
    claimed: ['pod1'],
    patches: 1,
  },
  {
    name: 'Controller does not claim orphaned pods marked for deletion',
    controller: controller(),
    pods: [deleting(newPod('pod1', productionLabel, controller())), deleting(newPod('pod2', productionLabel))],
    claimed: ['pod1'],
    patches: 0,
  },
  {
    name: 'Controller claims or release pods according to selector with finalizers',
    controller: controller(),
    pods: [
      newPod('pod1', productionLabel, controller()),
      newPod('pod2', testLabel, controller()),
      newPod('pod3', productionLabel),
    ],
    claimed: ['pod1', 'pod3'],
    patches: 2,
    finalizers: ['foo-finalizer', 'bar-finalizer'],
  },
  {
    name: 'Controller does not claim pods of different namespace',
    controller: controller({ namespace: 'default' }),
    pods: [newPod('pod1', productionLabel), inNamespace(newPod('pod2', productionLabel), 'fakens')],
    claimed: ['pod1'],
    patches: 1,
  },
  {
    name: 'Cluster scoped controller claims pods of specified namespace',
    controller: controller(),
    pods: [newPod('pod1', productionLabel), inNamespace(newPod('pod2', productionLabel), 'fakens')],
    claimed: ['pod1', 'pod2'],
    patches: 2,
  },
];

describe('PodControllerRefManager.claimPods (TestClaimPods)', () => {
  it.each(cases)('$name', async (c) => {
    const podControl = new RecordingPodControl();
    const manager = new PodControllerRefManager(
      podControl,
      c.controller,
      productionLabelSelector,
      controllerKind,
      async () => {},
      ...(c.finalizers ?? []),
    );
    const claimed = await manager.claimPods(c.pods);
    expect(claimed.map((p) => p.metadata?.name)).toEqual(c.claimed);
    expect(podControl.patches).toHaveLength(c.patches);
    for (const patch of podControl.patches) {
      expect(patch).toContain(controllerUID);
      for (const f of c.finalizers ?? []) expect(patch).toContain(f);
    }
  });

  it('runs the filters only on pods the selector matches, and claims only what passes them', async () => {
    const podControl = new RecordingPodControl();
    const manager = new PodControllerRefManager(podControl, controller(), productionLabelSelector, controllerKind);
    const seen: string[] = [];
    const claimed = await manager.claimPods(
      [newPod('pod1', productionLabel), newPod('pod2', testLabel), newPod('pod3', productionLabel)],
      (p) => {
        seen.push(p.metadata?.name ?? '');
        return p.metadata?.name !== 'pod3';
      },
    );
    expect(seen).toEqual(['pod1', 'pod3']);
    expect(claimed.map((p) => p.metadata?.name)).toEqual(['pod1']);
  });

  it('asks canAdopt once, and adopts nothing when it refuses, reporting every pod', async () => {
    const podControl = new RecordingPodControl();
    let asked = 0;
    const manager = new PodControllerRefManager(
      podControl,
      controller(),
      productionLabelSelector,
      controllerKind,
      async () => {
        asked++;
        throw new Error('nope');
      },
    );
    await expect(manager.claimPods([newPod('pod1', productionLabel), newPod('pod2', productionLabel)])).rejects.toThrow(
      "[can't adopt Pod default/pod1 (uid-pod1): nope, can't adopt Pod default/pod2 (uid-pod2): nope]",
    );
    expect(asked).toBe(1);
    expect(podControl.patches).toEqual([]);
  });

  it('ignores a release the apiserver answers 404 or 422, and an adoption of a pod gone (404)', async () => {
    const status = (code: number) =>
      new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code });
    for (const code of [404, 422]) {
      const failing: PodPatcher = {
        patchPod: async () => {
          throw status(code);
        },
      };
      const manager = new PodControllerRefManager(failing, controller(), productionLabelSelector, controllerKind);
      const claimed = await manager.claimPods([newPod('gone', testLabel, controller())]);
      expect(claimed).toEqual([]);
    }
    const gone: PodPatcher = {
      patchPod: async () => {
        throw status(404);
      },
    };
    const manager = new PodControllerRefManager(gone, controller(), productionLabelSelector, controllerKind);
    expect(await manager.claimPods([newPod('orphan', productionLabel)])).toEqual([]);
  });
});

describe('the adopt and release patches', () => {
  // TestGeneratePatchBytesForDelete
  it.each([
    [
      'check the structure of patch bytes',
      ['ss1'],
      'ss2',
      [],
      '{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}',
    ],
    [
      'check if parent uid is escaped',
      ['ss1"hello'],
      'ss2',
      [],
      '{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1\\"hello"}]}}',
    ],
    [
      'check if revision uid uid is escaped',
      ['ss1'],
      'ss2"hello',
      [],
      '{"metadata":{"uid":"ss2\\"hello","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}',
    ],
    [
      'check the structure of patch bytes with multiple owners',
      ['ss1', 'ss2'],
      'ss2',
      [],
      '{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"},{"$patch":"delete","uid":"ss2"}]}}',
    ],
    [
      'check the structure of patch bytes with a finalizer and multiple owners',
      ['ss1', 'ss2'],
      'ss2',
      ['f1'],
      '{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"},{"$patch":"delete","uid":"ss2"}],"$deleteFromPrimitiveList/finalizers":["f1"]}}',
    ],
  ])('%s', (_name, owners, dependent, finalizers, want) => {
    expect(deleteOwnerRefStrategicMergePatch(dependent, owners, finalizers)).toBe(want);
  });

  it('adopts with the controller reference, controller and blockOwnerDeletion set, and the pod’s uid', () => {
    const rs = { metadata: { name: 'web', uid: 'rs-uid' } };
    expect(ownerRefControllerPatch(rs, { group: 'apps', version: 'v1', kind: 'ReplicaSet' }, 'pod-uid')).toBe(
      '{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","controller":true,"blockOwnerDeletion":true}],"uid":"pod-uid"}}',
    );
    expect(ownerRefControllerPatch(rs, controllerKind, 'pod-uid', ['f1'])).toContain(
      '"apiVersion":"v1","kind":"ReplicationController"',
    );
    expect(ownerRefControllerPatch(rs, controllerKind, 'pod-uid', ['f1'])).toMatch(
      /"uid":"pod-uid","finalizers":\["f1"\]\}\}$/,
    );
  });
});

describe('BaseControllerRefManager', () => {
  it('claims any kind of object by the same rules (ClaimObject)', async () => {
    const m = new BaseControllerRefManager(controller(), productionLabelSelector);
    const adopted: string[] = [];
    const claim = (o: Pod) =>
      m.claimObject(
        o,
        (x) => productionLabelSelector.matches(x.metadata?.labels ?? {}),
        async (x) => {
          adopted.push(x.metadata?.name ?? '');
        },
        async () => {},
      );
    expect(await claim(newPod('orphan', productionLabel))).toBe(true);
    expect(await claim(newPod('mine', testLabel, controller()))).toBe(false);
    expect(await claim(newPod('theirs', productionLabel, controller({ uid: 'other' })))).toBe(false);
    expect(adopted).toEqual(['orphan']);
  });
});

describe('recheckDeletionTimestamp', () => {
  it('refuses adoption when the fresh controller is being deleted, or cannot be read', async () => {
    await expect(recheckDeletionTimestamp(async () => controller())()).resolves.toBeUndefined();
    await expect(
      recheckDeletionTimestamp(async () => controller({ namespace: 'default', deletionTimestamp: NOW }))(),
    ).rejects.toThrow('default/rc has just been deleted at 2024-05-01 12:00:00 +0000 UTC');
    await expect(
      recheckDeletionTimestamp(async () => {
        throw new Error('boom');
      })(),
    ).rejects.toThrow("can't recheck DeletionTimestamp: boom");
  });
});
