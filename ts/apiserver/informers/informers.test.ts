/**
 * The apiserver on its own informers (no factory given): the loopback client reads the server,
 * admission reads its own writes at once, RBAC's informers do not wait for RBAC, close() stops them.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import type { Storage, Watch } from '../../storage/storage.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { admissionServer, pod } from '../admission/testing/admission-server.js';
import { parseTokenFile } from '../authn/tokens.js';
import { createApiServer } from '../server.js';
import { testRequest } from '../testing/test-server.js';

/** `storage` with its open watches counted. */
function countingOpenWatches(storage: Storage): { storage: Storage; open: () => number } {
  let open = 0;
  const counted = new Proxy(storage, {
    get(target, prop) {
      if (prop === 'watch') {
        return (key: string, options: Parameters<Storage['watch']>[1]): Watch => {
          const watch = target.watch(key, options);
          open++;
          let stopped = false;
          const stop = () => {
            if (!stopped) open--;
            stopped = true;
          };
          return {
            queuedRevision: () => watch.queuedRevision?.() ?? 0n,
            stop: () => {
              stop();
              watch.stop();
            },
            async *[Symbol.asyncIterator]() {
              try {
                yield* watch;
              } finally {
                stop();
              }
            },
          };
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { storage: counted, open: () => open };
}

describe("the apiserver's own informers", () => {
  it('admission reads each write at once: a namespace, a LimitRange, a PriorityClass, then a pod using them', async () => {
    const s = await admissionServer({});
    for (let i = 0; i < 25; i++) {
      const ns = `ns-${i}`;
      expect((await s.json('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
      const sa = await s.json('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } });
      expect(sa.status).toBe(201);
      await s.json('POST', `/api/v1/namespaces/${ns}/limitranges`, {
        metadata: { name: 'limits' },
        spec: { limits: [{ type: 'Container', defaultRequest: { cpu: `${i + 1}m` } }] },
      });
      await s.json('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: `p${i}` }, value: i });
      const created = await s.json('POST', `/api/v1/namespaces/${ns}/pods`, pod('p', { priorityClassName: `p${i}` }));
      expect(created.status).toBe(201);
      const spec = created.body.spec as { priority?: number; containers: { resources?: unknown }[] };
      expect(spec.priority).toBe(i);
      expect(spec.containers[0]?.resources).toEqual({ requests: { cpu: `${i + 1}m` } });
    }
    await s.api.close?.();
  });

  it("serves a request RBAC decides while RBAC's own informers list through the server (they are system:masters)", async () => {
    const kubewasm = await loadKubewasm();
    const storage = new WasmStorage({ store: kubewasm.newStore(), clock: new VirtualClock(0) });
    const tokens = parseTokenFile('jane-token,jane,2\n');
    const api = createApiServer({ storage, tokens });
    const res = await api.handle(testRequest('GET', '/api/v1/namespaces/default/pods', { token: 'jane-token' }));
    expect(res.status).toBe(403);
    // The loopback credential is the server's own: the map it was given has no new user.
    expect([...tokens.values()].map((u) => u.name)).toEqual(['jane']);
    await api.close?.();
    await storage.close();
  });

  it('close() stops the watches of its own informers', async () => {
    const kubewasm = await loadKubewasm();
    const clock = new VirtualClock(0);
    const counted = countingOpenWatches(new WasmStorage({ store: kubewasm.newStore(), clock }));
    const api = createApiServer({
      storage: counted.storage,
      clock,
      tokens: parseTokenFile('admin,admin,1,"system:masters"\njane-token,jane,2\n'),
      admission: {},
    });
    await api.handle(testRequest('POST', '/api/v1/namespaces', { token: 'admin', body: { metadata: { name: 'a' } } }));
    await api.handle(testRequest('GET', '/api/v1/namespaces/a/pods', { token: 'jane-token' }));
    await new Promise((r) => setTimeout(r, 20));
    // The CRD informer (the first request starts it) and RBAC's four (jane's request) watch.
    expect(counted.open()).toBe(5);
    await api.close?.();
    expect(counted.open()).toBe(0);
    await counted.storage.close();
  });
});
