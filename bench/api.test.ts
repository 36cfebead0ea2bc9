import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokenFile } from '../ts/apiserver/authn/tokens.js';
import { createApiServer } from '../ts/apiserver/server.js';
import { WasmStorage } from '../ts/storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../ts/wasm/node.js';
import { measureCeilings } from './api-ceiling.js';
import { ClientThread, inProcessSender, type LoadSpec, quantile, runLoad, type Send, seedName } from './api-load.js';
import { podBodies, runningPodStored } from './api-pods.js';

let storage: WasmStorage;
let send: Send;
const spec = (op: LoadSpec['op']): LoadSpec => ({
  op,
  concurrency: 3,
  durationMs: 50,
  tag: op,
  namespace: 'bench',
  seedPods: 10,
  listNamespace: 'bench',
});

beforeAll(async () => {
  const kubewasm = await loadKubewasm();
  storage = new WasmStorage({ store: kubewasm.newStore() });
  const api = createApiServer({ storage, tokens: parseTokenFile('t,bench,1,"system:masters"\n') });
  send = inProcessSender(api, 't');
  await send('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'bench' } }));
  const body = podBodies('bench');
  for (let i = 0; i < 10; i++) await send('POST', '/api/v1/namespaces/bench/pods', body(seedName(i), '0'));
});
afterAll(() => storage.close());

describe('bench api load', () => {
  it('sends pods the apiserver accepts, ≈2 KB each', async () => {
    const text = podBodies('bench')('web-x', '7');
    expect(text.length).toBeGreaterThan(1800);
    expect(JSON.parse(text).metadata).toMatchObject({
      name: 'web-x',
      annotations: { 'bench.kubewasm.io/generation': '7' },
    });
    const stored = JSON.parse(runningPodStored('ns-1', 'web-y', 42));
    expect(stored.status.phase).toBe('Running');
    expect(stored.spec.nodeName).toBe('node-42');
  });

  it.each(['create', 'get', 'list', 'update'] as const)('runs %s with every answer checked', async (op) => {
    const r = await runLoad(send, spec(op));
    expect(r.ops).toBeGreaterThan(0);
    expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
  });

  it('fails loudly instead of counting errors as requests', async () => {
    await expect(runLoad(send, { ...spec('get'), namespace: 'missing' })).rejects.toThrow(/get: HTTP 404/);
  });

  it('measures each ceiling with every answer checked', async () => {
    const thread = await ClientThread.start();
    try {
      const ceilings = await measureCeilings(thread, spec('create'), 1, () => {});
      expect(ceilings.map((c) => c.impl)).toEqual(['json-only', 'trivial-h2', 'raw-node-http2']);
      for (const c of ceilings) expect(c.result.ops).toBeGreaterThan(0);
    } finally {
      await thread.stop();
    }
  });

  it('takes nearest-rank quantiles', () => {
    const sorted = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(quantile(sorted, 0.5)).toBe(5);
    expect(quantile(sorted, 0.99)).toBe(10);
  });
});
