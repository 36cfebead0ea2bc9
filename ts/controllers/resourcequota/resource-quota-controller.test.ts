import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { servedResources } from '../../cluster/cluster.js';
import { type LogLine, recordingLogger } from '../../sim/logger.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { ResourceQuotaController, type ResourceQuotaControllerOptions } from './resource-quota-controller.js';

type Obj = Record<string, unknown>;

const runs = controllerRuns();

/** The controller on a shared informer factory of `h`'s client, running. */
async function start(h: Harness, options: Omit<ResourceQuotaControllerOptions, 'factory' | 'client'>): Promise<void> {
  await runs.start(h, (factory) => new ResourceQuotaController({ factory, client: h.client, ...options }));
}

const pod = (name: string, cpu: string): KubeObject =>
  ({
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu }, limits: { cpu } } }] },
  }) as KubeObject;

describe('ResourceQuotaController', () => {
  it('syncs status.hard and status.used, and replenishes after deletes and terminal pods', async () => {
    const h = await harness('in-process');
    const { client } = h;
    await client.create(RESOURCES.pods, 'team-a', pod('a', '500m'));
    await client.create(RESOURCES.pods, 'team-a', pod('b', '250m'));
    await client.create(RESOURCES.pods, 'default', pod('elsewhere', '4'));
    await client.create(RESOURCES.configmaps, 'team-a', { metadata: { name: 'cm' } });
    await client.create(RESOURCES.resourcequotas, 'team-a', {
      metadata: { name: 'compute' },
      spec: { hard: { pods: '10', 'requests.cpu': '2', 'limits.cpu': '4', 'count/configmaps': '5', secrets: '3' } },
    } as KubeObject);
    await start(h, {
      resources: servedResources().filter((r) => r.namespaced),
      clock: h.server.clock,
    });
    const status = async (): Promise<Obj> =>
      (((await client.get(RESOURCES.resourcequotas, 'team-a', 'compute')) as unknown as Obj).status ?? {}) as Obj;
    const used = async (): Promise<Obj> => ((await status()).used ?? {}) as Obj;
    await waitFor(async () => (await status()).used !== undefined);
    expect(await status()).toEqual({
      hard: { 'count/configmaps': '5', 'limits.cpu': '4', pods: '10', 'requests.cpu': '2', secrets: '3' },
      used: { 'count/configmaps': '1', 'limits.cpu': '750m', pods: '2', 'requests.cpu': '750m', secrets: '0' },
    });

    // Replenishment: a delete lowers the usage.
    await client.delete(RESOURCES.pods, 'team-a', 'a', { gracePeriodSeconds: 0 });
    await waitFor(async () => (await used()).pods === '1');
    expect(await used()).toMatchObject({ pods: '1', 'requests.cpu': '250m' });
    await client.delete(RESOURCES.configmaps, 'team-a', 'cm');
    await waitFor(async () => (await used())['count/configmaps'] === '0');

    // A pod that reaches a terminal phase no longer charges compute resources.
    const b = (await client.get(RESOURCES.pods, 'team-a', 'b')) as unknown as Obj;
    await client.updateStatus(RESOURCES.pods, 'team-a', { ...b, status: { phase: 'Succeeded' } } as KubeObject);
    await waitFor(async () => (await used()).pods === '0');
    expect(await used()).toMatchObject({ 'requests.cpu': '0', 'limits.cpu': '0' });

    // A new spec.hard reaches status.hard.
    const q = (await client.get(RESOURCES.resourcequotas, 'team-a', 'compute')) as unknown as Obj;
    await client.update(RESOURCES.resourcequotas, 'team-a', {
      ...q,
      spec: { hard: { pods: '3', 'count/deployments.apps': '1' } },
    } as KubeObject);
    await waitFor(async () => ((await status()).hard as Obj).pods === '3');
    expect(await status()).toEqual({
      hard: { 'count/deployments.apps': '1', pods: '3' },
      used: { 'count/deployments.apps': '0', pods: '0' },
    });
  });

  it('counts only the pods in the quota scopes', async () => {
    const h = await harness('in-process');
    const { client } = h;
    await client.create(RESOURCES.pods, 'team-a', {
      metadata: { name: 'best-effort' },
      spec: { containers: [{ name: 'c', image: 'x' }], priorityClassName: 'high' },
    } as KubeObject);
    await client.create(RESOURCES.pods, 'team-a', pod('burstable', '100m'));
    await client.create(RESOURCES.resourcequotas, 'team-a', {
      metadata: { name: 'be' },
      spec: { hard: { pods: '5' }, scopes: ['BestEffort'] },
    } as KubeObject);
    await client.create(RESOURCES.resourcequotas, 'team-a', {
      metadata: { name: 'not-high' },
      spec: {
        hard: { pods: '5', 'requests.cpu': '1' },
        scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }] },
      },
    } as KubeObject);
    await start(h, {
      resources: servedResources().filter((r) => r.namespaced),
      clock: h.server.clock,
    });
    const used = async (name: string): Promise<unknown> =>
      (((await client.get(RESOURCES.resourcequotas, 'team-a', name)) as unknown as Obj).status as Obj | undefined)
        ?.used;
    await waitFor(async () => (await used('be')) !== undefined && (await used('not-high')) !== undefined);
    expect(await used('be')).toEqual({ pods: '1' });
    expect(await used('not-high')).toEqual({ pods: '1', 'requests.cpu': '100m' });
  });

  it('the periodic resync corrects usage the events did not change', async () => {
    const h = await harness('in-process');
    const { client } = h;
    await client.create(RESOURCES.resourcequotas, 'team-a', {
      metadata: { name: 'objects' },
      spec: { hard: { 'count/configmaps': '5' }, scopes: [] },
    } as KubeObject);
    await start(h, {
      resources: servedResources().filter((r) => r.namespaced),
      clock: h.server.clock,
      resyncPeriodMs: 60_000,
    });
    const used = async () =>
      (((await client.get(RESOURCES.resourcequotas, 'team-a', 'objects')) as unknown as Obj).status as Obj | undefined)
        ?.used as Obj | undefined;
    await waitFor(async () => (await used())?.['count/configmaps'] === '0');
    // Creates are not replenishment events (admission charges them); a stale usage waits for the resync.
    await client.create(RESOURCES.configmaps, 'team-a', { metadata: { name: 'x' } });
    await new Promise((r) => setTimeout(r, 50));
    expect((await used())?.['count/configmaps']).toBe('0');
    h.server.clock.advance(60_000);
    await waitFor(async () => (await used())?.['count/configmaps'] === '1');
  });

  it('runs no periodic resync when its period is 0 or less, and says so', async () => {
    for (const resyncPeriodMs of [0, -60_000]) {
      const h = await harness('in-process');
      const { client } = h;
      await client.create(RESOURCES.resourcequotas, 'team-a', {
        metadata: { name: 'objects' },
        spec: { hard: { 'count/configmaps': '5' } },
      } as KubeObject);
      const lines: LogLine[] = [];
      await start(h, {
        resources: servedResources().filter((r) => r.namespaced),
        clock: h.server.clock,
        resyncPeriodMs,
        logger: recordingLogger(lines),
      });
      expect(lines.map((l) => l.message)).toEqual(['periodic quota controller resync disabled']);
      const used = async () =>
        (
          ((await client.get(RESOURCES.resourcequotas, 'team-a', 'objects')) as unknown as Obj).status as
            | Obj
            | undefined
        )?.used as Obj | undefined;
      await waitFor(async () => (await used())?.['count/configmaps'] === '0');
      await client.create(RESOURCES.configmaps, 'team-a', { metadata: { name: 'x' } });
      // No timer at all: however far the clock moves, the stale usage stays until an event.
      h.server.clock.advance(24 * 3600_000);
      await new Promise((r) => setTimeout(r, 50));
      expect((await used())?.['count/configmaps']).toBe('0');
      await runs.stop();
    }
  });
});
