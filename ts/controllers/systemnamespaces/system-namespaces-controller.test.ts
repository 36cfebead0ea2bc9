import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { isStatusError } from '../../api/status.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { SYSTEM_NAMESPACES_INTERVAL_MS, SystemNamespacesController } from './system-namespaces-controller.js';

describe('SystemNamespacesController', () => {
  it('creates the system namespaces, and again within a minute of one going away', async () => {
    const { client, server } = await harness('in-process');
    const c = new SystemNamespacesController(client, { clock: server.clock });
    await c.run();
    const names = (await client.list(RESOURCES.namespaces)).items.map((n) => n.metadata?.name);
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease']));
    // kube-node-lease may be deleted (it is not immortal); finalized, it is gone.
    const ns = await client.delete(RESOURCES.namespaces, undefined, 'kube-node-lease');
    await client.finalizeNamespace({ ...(ns as KubeObject), spec: { finalizers: [] } });
    await expect(client.get(RESOURCES.namespaces, undefined, 'kube-node-lease')).rejects.toSatisfy(
      (err: unknown) => isStatusError(err) && err.code === 404,
    );
    server.clock.advance(SYSTEM_NAMESPACES_INTERVAL_MS);
    const until = Date.now() + 2000;
    for (;;) {
      try {
        await client.get(RESOURCES.namespaces, undefined, 'kube-node-lease');
        break;
      } catch (err) {
        if (Date.now() > until) throw err;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    await c.stop();
  });
});
