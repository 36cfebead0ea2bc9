// The node IPAM controller against a real in-process apiserver: the behaviour of
// pkg/controller/nodeipam/ipam/range_allocator_test.go (v1.32) — allocation, occupation of what
// nodes have at start, release on delete, exhaustion.
import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../client/event-recorder.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, waitFor } from '../testing/controller-runs.js';
import { NodeIpamController, type NodeIpamControllerOptions } from './node-ipam-controller.js';

const runs = controllerRuns();

const start = (h: Harness, options: Omit<NodeIpamControllerOptions, 'factory' | 'client'> = {}) =>
  runs.start(h, (factory) => new NodeIpamController({ factory, client: h.client, clock: h.server.clock, ...options }));

const podCIDRs = async (h: Harness, name: string) => {
  const spec = (await h.client.get(RESOURCES.nodes, undefined, name)).spec;
  return spec?.podCIDRs === undefined ? undefined : [spec.podCIDR, ...spec.podCIDRs];
};

const node = (name: string, podCIDRs?: string[]) => ({
  metadata: { name },
  ...(podCIDRs === undefined ? {} : { spec: { podCIDR: podCIDRs[0], podCIDRs } }),
});

describe('NodeIpamController', () => {
  it('gives each node a /24 of 10.244.0.0/16, after the ones nodes already hold', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.nodes, undefined, node('old', ['10.244.0.0/24']));
    await h.client.create(RESOURCES.nodes, undefined, node('bare'));
    await start(h);
    await waitFor(async () => (await podCIDRs(h, 'bare')) !== undefined);
    // 10.244.0.0/24 was occupied before anything was handed out.
    expect(await podCIDRs(h, 'bare')).toEqual(['10.244.1.0/24', '10.244.1.0/24']);
    await h.client.create(RESOURCES.nodes, undefined, node('n3'));
    await waitFor(async () => (await podCIDRs(h, 'n3')) !== undefined);
    expect(await podCIDRs(h, 'n3')).toEqual(['10.244.2.0/24', '10.244.2.0/24']);
    expect(await podCIDRs(h, 'old')).toEqual(['10.244.0.0/24', '10.244.0.0/24']);
  });

  it('gives dual-stack nodes one CIDR per family, and keeps the service range out', async () => {
    const h = await harness('in-process');
    await start(h, {
      clusterCIDRs: ['10.96.0.0/11', 'fd00:10:244::/56'],
      serviceCIDRs: ['10.96.0.0/12'],
    });
    await h.client.create(RESOURCES.nodes, undefined, node('n1'));
    await waitFor(async () => (await podCIDRs(h, 'n1')) !== undefined);
    // 10.96.0.0/12 is the first half of the /11: the first node CIDR after it.
    expect(await podCIDRs(h, 'n1')).toEqual(['10.112.0.0/24', '10.112.0.0/24', 'fd00:10:244::/64']);
  });

  it('releases a deleted node CIDR, and records CIDRNotAvailable when none is left', async () => {
    const h = await harness('in-process');
    await start(h, { clusterCIDRs: ['10.244.0.0/23'], nodeCIDRMaskSizes: [24] });
    for (const name of ['a', 'b']) await h.client.create(RESOURCES.nodes, undefined, node(name));
    await waitFor(async () => (await podCIDRs(h, 'b')) !== undefined && (await podCIDRs(h, 'a')) !== undefined);
    await h.client.create(RESOURCES.nodes, undefined, node('c'));
    const events = async () =>
      (await h.client.list<CoreEvent>(RESOURCES.events, { namespace: 'default' })).items.filter(
        (e) => e.involvedObject.name === 'c',
      );
    await waitFor(async () => (await events()).length > 0);
    expect((await events()).map((e) => [e.type, e.reason, e.message, e.source?.component])).toEqual([
      ['Normal', 'CIDRNotAvailable', 'Node c status is now: CIDRNotAvailable', 'cidrAllocator'],
    ]);
    expect(await podCIDRs(h, 'c')).toBeUndefined();
    // a's CIDR freed: c gets it on its retry.
    const aCIDR = (await podCIDRs(h, 'a'))?.[0];
    await h.client.delete(RESOURCES.nodes, undefined, 'a');
    await waitFor(async () => {
      h.server.clock.advance(1000);
      return (await podCIDRs(h, 'c')) !== undefined;
    });
    expect((await podCIDRs(h, 'c'))?.[0]).toBe(aCIDR);
  });
});
