import { beforeAll, describe, expect, it } from 'vitest';
import type { Kubewasm } from './kubewasm.js';
import { loadKubewasm } from './node.js';
import { decodeWatchBatch } from './store-codec.js';

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

const text = new TextDecoder();
const range = { rangeEnd: '/k0' };

describe('watch batches', () => {
  it('decodes a block once and shares its events array between the watchers that take all of it', () => {
    const store = kw.newStore();
    const ids = [0, 1, 2].map(() => store.watch('/k/', { ...range, prevKv: true }));
    expect(store.pollWatch().every((r) => r.created)).toBe(true);
    store.put('/k/a', '1');
    store.put('/k/a', '2');
    const out = store.pollWatch();
    expect(out.map((r) => r.watchId)).toEqual(ids);
    const [first, ...rest] = out;
    for (const r of rest) expect(r.events).toBe(first?.events);
    expect(first?.revision).toBe(3n);
    expect(first?.events.map((e) => [e.type, text.decode(e.kv.value), e.kv.modRevision])).toEqual([
      ['PUT', '1', 2n],
      ['PUT', '2', 3n],
    ]);
    expect(first?.events[1]?.prevKv && text.decode(first.events[1].prevKv.value)).toBe('1');
    store.free();
  });

  it('gives filtered, late and prev-less watchers their part of a shared block', () => {
    const store = kw.newStore();
    const all = store.watch('/k/', { ...range, prevKv: true });
    const deletes = store.watch('/k/', { ...range, prevKv: true, noPut: true });
    store.put('/k/a', '1');
    const late = store.watch('/k/', range);
    store.put('/k/a', '2');
    store.deleteRange('/k/a');
    const out = store.pollWatch().filter((r) => !r.created);
    const of = (id: bigint) => out.find((r) => r.watchId === id)?.events ?? [];
    expect(of(all).map((e) => e.type)).toEqual(['PUT', 'PUT', 'DELETE']);
    expect(of(deletes).map((e) => [e.type, e.kv.modRevision, e.prevKv?.modRevision])).toEqual([['DELETE', 4n, 3n]]);
    expect(of(late).map((e) => [e.type, e.kv.modRevision, 'prevKv' in e])).toEqual([
      ['PUT', 3n, false],
      ['DELETE', 4n, false],
    ]);
    store.free();
  });

  it('counts a pending progress request as something to poll', () => {
    const store = kw.newStore();
    store.watch('/k/', range);
    store.pollWatch();
    expect(store.hasWatchEvents).toBe(false);
    store.requestProgress();
    expect(store.hasWatchEvents).toBe(true);
    expect(store.pollWatch()).toMatchObject([{ watchId: -1n, revision: 1n, events: [] }]);
    expect(store.hasWatchEvents).toBe(false);
    store.free();
  });

  it('decodes flags, compaction cancels and reasons', () => {
    // One delivery: watch 7, header revision 9, canceled + compact_revision 5 + reason "r".
    const bytes = new Uint8Array([
      ...[0, 0, 0, 0],
      ...[1, 0, 0, 0],
      ...[7, 0, 0, 0, 0, 0, 0, 0],
      ...[9, 0, 0, 0, 0, 0, 0, 0],
      2 | 4 | 8,
      ...[5, 0, 0, 0, 0, 0, 0, 0],
      ...[1, 0, 0, 0, 114],
    ]);
    expect(decodeWatchBatch(bytes)).toEqual([
      { watchId: 7n, revision: 9n, created: false, canceled: true, compactRevision: 5n, cancelReason: 'r', events: [] },
    ]);
    expect(() =>
      decodeWatchBatch(new Uint8Array([0, 0, 0, 0, 1, 0, 0, 0, ...new Array(16).fill(0), 16, 0, 0, 0, 0, 0])),
    ).toThrow(/no block 0/);
  });
});
