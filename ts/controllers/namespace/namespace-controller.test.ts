import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { VirtualClock } from '../../sim/clock.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import {
  NamespaceController,
  type NamespaceControllerOptions,
  nsControllerRateLimiter,
} from './namespace-controller.js';

const gone = (h: Harness, name: string) => () => notFound(() => h.client.get(RESOURCES.namespaces, undefined, name));

const runs = controllerRuns();

/** The controller on a shared informer factory of `h`'s client, running. */
async function start(h: Harness, options: Omit<NamespaceControllerOptions, 'factory' | 'client'>): Promise<void> {
  await runs.start(h, (factory) => new NamespaceController({ factory, client: h.client, ...options }));
}

describe('NamespaceController', () => {
  it('empties a terminating namespace, then finalizes it so the apiserver deletes it', async () => {
    const h = await harness('in-process');
    const { client } = h;
    await client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'team' } });
    await client.create(RESOURCES.configmaps, 'team', { metadata: { name: 'a' } });
    await client.create(RESOURCES.services, 'team', {
      metadata: { name: 's' },
      spec: { ports: [{ port: 80 }] },
    } as KubeObject);
    await client.create(RESOURCES.pods, 'team', {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    } as KubeObject);
    await client.create(RESOURCES.configmaps, 'default', { metadata: { name: 'keep' } });
    await start(h, {
      clock: h.server.clock,
      deletionGracePeriodMs: 0,
      resources: [RESOURCES.configmaps, RESOURCES.services, RESOURCES.pods],
    });
    await client.delete(RESOURCES.namespaces, undefined, 'team');
    await waitFor(gone(h, 'team'));
    expect((await client.list(RESOURCES.configmaps, { namespace: 'team' })).items).toEqual([]);
    expect((await client.list(RESOURCES.services, { namespace: 'team' })).items).toEqual([]);
    expect((await client.get(RESOURCES.configmaps, 'default', 'keep')).metadata?.name).toBe('keep');
  });

  it('waits for a pod in its grace period before finalizing', async () => {
    const h = await harness('in-process');
    const { client } = h;
    await client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'slow' } });
    await client.create(RESOURCES.pods, 'slow', {
      metadata: { name: 'bound' },
      spec: { nodeName: 'n1', terminationGracePeriodSeconds: 4, containers: [{ name: 'c', image: 'nginx' }] },
    } as KubeObject);
    await start(h, {
      clock: h.server.clock,
      deletionGracePeriodMs: 0,
      resources: [RESOURCES.pods],
    });
    await client.delete(RESOURCES.namespaces, undefined, 'slow');
    await waitFor(async () => {
      const pod = await client.get(RESOURCES.pods, 'slow', 'bound');
      return pod.metadata?.deletionTimestamp !== undefined;
    });
    expect(await gone(h, 'slow')()).toBe(false);
    // The kubelet's final delete; the controller comes back after half the estimate plus a second.
    await client.delete(RESOURCES.pods, 'slow', 'bound', { gracePeriodSeconds: 0 });
    h.server.clock.advance(3000);
    await waitFor(gone(h, 'slow'));
  });
});

describe('NamespaceController conditions', () => {
  it('reports content held by finalizers in the namespace conditions', async () => {
    const h = await harness('in-process');
    const { client } = h;
    await client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'held' } });
    await client.create(RESOURCES.configmaps, 'held', { metadata: { name: 'a', finalizers: ['example.com/hold'] } });
    await start(h, {
      clock: h.server.clock,
      deletionGracePeriodMs: 0,
      resources: [RESOURCES.configmaps],
    });
    await client.delete(RESOURCES.namespaces, undefined, 'held');
    type Cond = { type: string; status: string; reason: string; message: string };
    const conditions = async () =>
      ((await client.get(RESOURCES.namespaces, undefined, 'held')) as KubeObject & { status?: { conditions?: Cond[] } })
        .status?.conditions ?? [];
    await waitFor(async () => (await conditions()).length === 5);
    expect(await conditions()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: 'Some resources are remaining: configmaps. has 1 resource instances',
        }),
        expect.objectContaining({
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
        }),
        expect.objectContaining({
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'False',
          reason: 'ResourcesDiscovered',
        }),
      ]),
    );
    // The finalizer goes: the content goes, and so does the namespace.
    await client.patch(RESOURCES.configmaps, 'held', 'a', 'merge', { metadata: { finalizers: null } });
    h.server.clock.advance(10_000);
    await waitFor(gone(h, 'held'));
  });
});

// namespace_controller.go nsControllerRateLimiter.
describe('nsControllerRateLimiter', () => {
  it('retries a namespace from 5 ms doubling up to 60 s, never longer', () => {
    const limiter = nsControllerRateLimiter(new VirtualClock(0));
    const delays = Array.from({ length: 16 }, () => limiter.when('team-a'));
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(Math.max(...delays)).toBe(60_000);
    expect(delays.at(-1)).toBe(60_000);
    limiter.forget('team-a');
    expect(limiter.when('team-a')).toBe(5);
  });

  it('lets 100 retries through at once across namespaces, then 10 a second', () => {
    const limiter = nsControllerRateLimiter(new VirtualClock(0));
    const first = Array.from({ length: 100 }, (_, i) => limiter.when(`ns-${i}`));
    expect(new Set(first)).toEqual(new Set([5]));
    // The 101st namespace waits for a token (100 ms at 10 qps), longer than its own 5 ms.
    expect(limiter.when('ns-100')).toBe(100);
  });
});
