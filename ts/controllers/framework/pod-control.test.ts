import { describe, expect, it } from 'vitest';
import { selectorFromSet } from '../../api/labels/selector.js';
import type { OwnerReference } from '../../api/meta.js';
import type { ReplicaSet } from '../../api/types/apps/v1.js';
import type { Pod, PodTemplateSpec } from '../../api/types/core/v1.js';
import type { Client } from '../../client/client.js';
import { type CoreEvent, EventRecorder } from '../../client/event-recorder.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { freshController, PodControllerRefManager, recheckDeletionTimestamp } from './controller-ref-manager.js';
import { getPodFromTemplate, getPodsPrefix, RealPodControl } from './pod-control.js';

const RS_KIND = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };

const template = (labels: Record<string, string> = { app: 'web' }): PodTemplateSpec => ({
  metadata: { labels, annotations: { note: 'x' }, finalizers: ['example.com/keep'] },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/** A ReplicaSet in the test apiserver, its controller reference, a pod control recording as `replicaset-controller`. */
async function setup() {
  const h = await harness('in-process');
  const rs = await h.client.create<ReplicaSet>(RESOURCES.replicasets, 'default', {
    metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: template() },
  });
  const ref: OwnerReference = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'web',
    uid: rs.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  const recorder = new EventRecorder({ client: h.client, clock: h.server.clock, component: 'replicaset-controller' });
  const podControl = new RealPodControl(h.client, recorder);
  /** The Events written about the ReplicaSet: `reason: message`. */
  const events = async () => {
    await recorder.flush();
    const list = await h.client.list<CoreEvent>(RESOURCES.events, { namespace: 'default' });
    return list.items.filter((e) => e.involvedObject.uid === rs.metadata?.uid).map((e) => `${e.reason}: ${e.message}`);
  };
  return { ...h, rs, ref, podControl, events };
}

const podsOf = async (client: Client) => (await client.list<Pod>(RESOURCES.pods, { namespace: 'default' })).items;

// controller_utils_test.go (v1.32)
describe('RealPodControl', () => {
  it('creates a pod from the template, controlled by the ReplicaSet, and says so in an Event (TestCreatePods)', async () => {
    const { client, rs, ref, podControl, events } = await setup();
    await podControl.createPods('default', template(), rs, ref);
    const [pod] = await podsOf(client);
    expect(pod?.metadata?.generateName).toBe('web-');
    expect(pod?.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(pod?.metadata?.labels).toEqual({ app: 'web' });
    expect(pod?.metadata?.annotations).toEqual({ note: 'x' });
    expect(pod?.metadata?.finalizers).toEqual(['example.com/keep']);
    expect(pod?.metadata?.ownerReferences).toEqual([ref]);
    expect(pod?.spec?.containers[0]?.image).toBe('nginx');
    expect(await events()).toEqual([`SuccessfulCreate: Created pod: ${pod?.metadata?.name}`]);
  });

  it('names the pod by generateName when given (TestCreatePodsWithGenerateName)', async () => {
    const { client, rs, ref, podControl } = await setup();
    await podControl.createPodsWithGenerateName('default', template(), rs, ref, 'custom-');
    expect((await podsOf(client))[0]?.metadata?.name).toMatch(/^custom-/);
  });

  it('refuses a pod without labels or without a proper controller reference, sending nothing', async () => {
    const { client, rs, ref, podControl } = await setup();
    await expect(podControl.createPods('default', template({}), rs, ref)).rejects.toThrow(
      'unable to create pods, no labels',
    );
    await expect(podControl.createPods('default', template(), rs, { ...ref, apiVersion: '' })).rejects.toThrow(
      'controllerRef has empty APIVersion',
    );
    await expect(podControl.createPods('default', template(), rs, { ...ref, kind: '' })).rejects.toThrow(
      'controllerRef has empty Kind',
    );
    await expect(podControl.createPods('default', template(), rs, { ...ref, controller: false })).rejects.toThrow(
      'controllerRef.Controller is not set to true',
    );
    await expect(
      podControl.createPods('default', template(), rs, { ...ref, blockOwnerDeletion: undefined as never }),
    ).rejects.toThrow('controllerRef.BlockOwnerDeletion is not set');
    expect(await podsOf(client)).toEqual([]);
  });

  it('records FailedCreate with the apiserver’s refusal', async () => {
    const { rs, ref, podControl, events } = await setup();
    const bad: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c' }] } };
    await expect(podControl.createPods('default', bad, rs, ref)).rejects.toMatchObject({ code: 422 });
    const [event] = await events();
    expect(event).toMatch(
      /^FailedCreate: Error creating: Pod "web-[a-z0-9]{5}" is invalid: spec.containers\[0\].image: Required value/,
    );
  });

  it('deletes a pod with SuccessfulDelete; a missing one is its NotFound, without an Event (TestDeletePodsAllowsMissing)', async () => {
    const { client, rs, ref, podControl, events } = await setup();
    await podControl.createPods('default', template(), rs, ref);
    const name = (await podsOf(client))[0]?.metadata?.name ?? '';
    await podControl.deletePod('default', name, rs);
    await expect(podControl.deletePod('default', 'missing', rs)).rejects.toMatchObject({ code: 404 });
    expect(await events()).toEqual([
      `SuccessfulCreate: Created pod: ${name}`,
      `SuccessfulDelete: Deleted pod: ${name}`,
    ]);
  });
});

describe('GetPodFromTemplate', () => {
  it('copies the template, so the pod shares nothing with it', () => {
    const t = template();
    const pod = getPodFromTemplate(t, { metadata: { name: 'web' } });
    (pod.metadata?.labels as Record<string, string>).app = 'changed';
    (pod.spec?.containers[0] as { image?: string }).image = 'changed';
    expect(t.metadata?.labels).toEqual({ app: 'web' });
    expect(t.spec?.containers[0]?.image).toBe('nginx');
    expect(pod.metadata?.ownerReferences).toBeUndefined();
  });

  it('leaves empty labels, annotations and finalizers out, as omitempty does', () => {
    const pod = getPodFromTemplate({ spec: { containers: [] } }, { metadata: { name: 'web' } });
    expect(pod.metadata).toEqual({ generateName: 'web-' });
  });

  it('drops the dash from a prefix too long for a name with it (getPodsPrefix)', () => {
    expect(getPodsPrefix('web')).toBe('web-');
    // maskTrailingDash replaces the last two characters of `name-` by 'a': 253 characters still fit.
    expect(getPodsPrefix('a'.repeat(253))).toBe(`${'a'.repeat(253)}-`);
    const long = 'a'.repeat(254);
    expect(getPodsPrefix(long)).toBe(long);
  });
});

describe('PodControllerRefManager against the apiserver', () => {
  it('adopts a matching orphan and releases a pod that stopped matching, with the patches it sends', async () => {
    const { client, rs, podControl } = await setup();
    await client.create(RESOURCES.pods, 'default', {
      metadata: { name: 'orphan', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    const manager = new PodControllerRefManager(
      podControl,
      rs,
      selectorFromSet({ app: 'web' }),
      RS_KIND,
      recheckDeletionTimestamp(freshController(client, RESOURCES.replicasets, rs, 'ReplicaSet')),
    );
    const claimed = await manager.claimPods(await podsOf(client));
    expect(claimed.map((p) => p.metadata?.name)).toEqual(['orphan']);
    const adopted = await client.get<Pod>(RESOURCES.pods, 'default', 'orphan');
    expect(adopted.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web',
        uid: rs.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);

    await client.patch(RESOURCES.pods, 'default', 'orphan', 'merge', { metadata: { labels: { app: 'other' } } });
    const again = new PodControllerRefManager(podControl, rs, selectorFromSet({ app: 'web' }), RS_KIND);
    expect(await again.claimPods(await podsOf(client))).toEqual([]);
    expect((await client.get<Pod>(RESOURCES.pods, 'default', 'orphan')).metadata?.ownerReferences).toBeUndefined();
  });

  it('adopts nothing for a ReplicaSet deleted and made again under its name (the uncached canAdopt)', async () => {
    const { client, rs, podControl } = await setup();
    await client.create(RESOURCES.pods, 'default', {
      metadata: { name: 'orphan', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    await client.delete(RESOURCES.replicasets, 'default', 'web');
    const recreated = await client.create<ReplicaSet>(RESOURCES.replicasets, 'default', {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: template() },
    });
    const manager = new PodControllerRefManager(
      podControl,
      rs,
      selectorFromSet({ app: 'web' }),
      RS_KIND,
      recheckDeletionTimestamp(freshController(client, RESOURCES.replicasets, rs, 'ReplicaSet')),
    );
    await expect(manager.claimPods(await podsOf(client))).rejects.toThrow(`can't adopt Pod default/orphan`);
    await expect(manager.claimPods(await podsOf(client))).rejects.toThrow(
      `can't recheck DeletionTimestamp: original ReplicaSet default/web is gone: got uid ${recreated.metadata?.uid}, wanted ${rs.metadata?.uid}`,
    );
    expect((await client.get<Pod>(RESOURCES.pods, 'default', 'orphan')).metadata?.ownerReferences).toBeUndefined();
  });
});
