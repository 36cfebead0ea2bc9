/**
 * A Web Worker that runs a whole cluster (ts/cluster createCluster: store, apiserver, scheduler,
 * controller manager) and answers the page with what its in-process client sees.
 */
import type { Pod } from '../../../ts/api/types/core/v1.js';
import { RESOURCES } from '../../../ts/client/resources.js';
import { createCluster } from '../../../ts/cluster/cluster.js';
import { loadKubewasm } from '../../../ts/wasm/browser.js';

async function run(): Promise<unknown> {
  const cluster = await createCluster({
    kubewasm: await loadKubewasm(new URL('./kubewasm_bg.wasm', self.location.href)),
  });
  try {
    await cluster.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'shop' } });
    await cluster.client.create(RESOURCES.nodes, undefined, {
      metadata: { name: 'n1' },
      status: {
        allocatable: { cpu: '2', memory: '4Gi', pods: '110' },
        capacity: { cpu: '2', memory: '4Gi', pods: '110' },
      },
    });
    await cluster.client.create(RESOURCES.pods, 'shop', {
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    let nodeName: string | undefined;
    for (let i = 0; i < 300 && nodeName === undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      nodeName = (await cluster.client.get<Pod>(RESOURCES.pods, 'shop', 'web')).spec?.nodeName;
    }
    let serviceAccount: string | undefined;
    for (let i = 0; i < 300 && serviceAccount === undefined; i++) {
      serviceAccount = await cluster.client
        .get(RESOURCES.serviceaccounts, 'shop', 'default')
        .then((sa) => sa.metadata?.name)
        .catch(() => undefined);
      if (serviceAccount === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    const namespaces = await cluster.client.list(RESOURCES.namespaces);
    return {
      namespaces: namespaces.items.map((n) => n.metadata?.name).sort(),
      nodeName,
      serviceAccount,
      controllers: cluster.controllers.length > 0,
    };
  } finally {
    await cluster.stop();
  }
}

run().then(
  (result) => postMessage({ result }),
  (err: unknown) => postMessage({ error: String((err as Error)?.stack ?? err) }),
);
