import { beforeAll, describe, expect, it } from 'vitest';
import { KubewasmError } from './errors.js';
import type { Kubewasm } from './kubewasm.js';
import { loadKubewasm } from './node.js';

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

/** The error a call throws, asserting it is a KubewasmError and not a wasm trap. */
function thrown(call: () => unknown): KubewasmError {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(KubewasmError);
    return err as KubewasmError;
  }
  throw new Error('expected the call to throw');
}

describe('cgroup through wasm', () => {
  it('gives the kubelet values for 1000m CPU (node.md §1.3)', () => {
    expect(kw.cpuCgroup('1000m', '1000m')).toEqual({
      shares: 1024,
      quotaUs: 100_000,
      periodUs: 100_000,
      weight: 39,
      cpuMax: '100000 100000',
    });
  });

  it('writes cpu.max as max without a limit and uses the limit for shares without a request', () => {
    expect(kw.cpuCgroup('250m', '').cpuMax).toBe('max 100000');
    expect(kw.cpuCgroup('', '500m')).toMatchObject({ shares: 512, cpuMax: '50000 100000' });
  });

  it('parses quantities to exact milli-values as bigint', () => {
    expect(kw.quantityMilliValue('1.5')).toBe(1500n);
    expect(kw.quantityMilliValue('1Ki')).toBe(1_024_000n);
    expect(kw.quantityMilliValue('1u')).toBe(1n);
  });

  it('throws typed errors with stable codes', () => {
    expect(thrown(() => kw.quantityMilliValue('1KB')).code).toBe('E_QUANTITY_FORMAT');
    expect(thrown(() => kw.quantityMilliValue('1e30')).code).toBe('E_QUANTITY_RANGE');
    expect(thrown(() => kw.cpuCgroup('1', '1', 10)).code).toBe('E_INVALID_PERIOD');
    // The module still works after an error: nothing trapped.
    expect(kw.cpuCgroup('100m', '').shares).toBe(102);
  });
});

describe('store through wasm', () => {
  it('puts and reads back at revisions', () => {
    const store = kw.newStore();
    expect(store.currentRevision).toBe(1n);
    expect(store.put('/a', 'one')).toBe(2n);
    expect(store.put('/a', 'two')).toBe(3n);
    store.put('/b', 'bee');
    const past = store.range('/a', { revision: 2n });
    expect(new TextDecoder().decode(past.kvs[0]?.value)).toBe('one');
    expect(past.revision).toBe(4n);
    const all = store.range('/', { rangeEnd: '0', limit: 1 });
    expect(all).toMatchObject({ count: 2, more: true });
    expect(all.kvs[0]).toMatchObject({ createRevision: 2n, modRevision: 3n, version: 2n });
    store.free();
  });

  it('rejects bad input with etcd codes and keeps its contents', () => {
    const store = kw.newStore();
    store.put('/a', 'one');
    expect(thrown(() => store.put('', 'x')).code).toBe('E_EMPTY_KEY');
    const err = thrown(() => store.range('/a', { revision: 99n }));
    expect(err).toMatchObject({ code: 'E_FUTURE_REV', message: 'mvcc: required revision is a future revision' });
    expect(thrown(() => store.put('/big', new Uint8Array(1536 * 1024))).code).toBe('E_REQUEST_TOO_LARGE');
    expect(store.currentRevision).toBe(2n);
    expect(store.range('/a').count).toBe(1);
    store.free();
  });
});

describe('scheduler through wasm', () => {
  const node = { allocatable: { milliCpu: 4000, memory: 32 * 2 ** 30 }, allowedPodNumber: 110 };

  it('runs the NodeResourcesFit filter with kube-scheduler reasons', () => {
    expect(kw.nodeResourcesFit({ milliCpu: 100, memory: 500 * 2 ** 20 }, node)).toEqual([]);
    const short = kw.nodeResourcesFit({ milliCpu: 200 }, { ...node, requested: { milliCpu: 3900 }, podCount: 110 });
    expect(short.map((r) => r.reason)).toEqual(['Too many pods', 'Insufficient cpu']);
    expect(short[1]).toEqual({
      resourceName: 'cpu',
      reason: 'Insufficient cpu',
      requested: 200,
      used: 3900,
      capacity: 4000,
    });
  });

  it('rejects malformed input with E_BAD_JSON', () => {
    const bad = { allocatable: { milliCpus: 1 }, allowedPodNumber: 1 } as unknown as typeof node;
    expect(thrown(() => kw.nodeResourcesFit({}, bad)).code).toBe('E_BAD_JSON');
  });
});
