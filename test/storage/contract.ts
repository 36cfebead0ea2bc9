/**
 * The contract every Storage backend must pass — the same suite for the wasm store and for a real
 * etcd, so the apiserver above cannot tell them apart (except where `capabilities` says so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError, type StorageErrorCode } from '../../ts/storage/errors.js';
import type { Storage, StoredObject, Watch, WatchEvent } from '../../ts/storage/storage.js';

export interface Capabilities {
  /** requestProgress() produces a BOOKMARK (etcd3's client cannot send WatchProgressRequest). */
  progressRequest: boolean;
}

const text = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

async function failure(promise: Promise<unknown>): Promise<StorageErrorCode> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(StorageError);
    return (err as StorageError).code;
  }
  throw new Error('expected a StorageError');
}

/** Collects events from a watch until `count` non-bookmark events arrived (or `timeoutMs`). */
async function collect(watch: Watch, count: number, timeoutMs = 5000): Promise<WatchEvent[][]> {
  const batches: WatchEvent[][] = [];
  let seen = 0;
  const timer = setTimeout(() => watch.stop(), timeoutMs);
  for await (const batch of watch) {
    const real = batch.filter((e) => e.type !== 'BOOKMARK');
    if (real.length > 0) batches.push(real);
    seen += real.length;
    if (seen >= count || batch.some((e) => e.type === 'ERROR')) break;
  }
  clearTimeout(timer);
  return batches;
}

export function storageContract(name: string, open: () => Promise<Storage>, capabilities: Capabilities): void {
  describe(`Storage contract: ${name}`, () => {
    let storage: Storage;
    let n = 0;
    /** A fresh directory per test, so tests share one store without seeing each other. */
    const dir = () => `/registry/test-${++n}-${Math.random().toString(36).slice(2, 8)}/`;

    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
    });

    it('creates, then reads back with the revision of the write', async () => {
      const d = dir();
      const before = await storage.currentRevision();
      const created = await storage.create(`${d}a`, text('one'));
      expect(created.revision).toBeGreaterThan(before);
      const got = (await storage.get(`${d}a`)) as StoredObject;
      expect({ value: str(got.value), revision: got.revision }).toEqual({ value: 'one', revision: created.revision });
      expect(await storage.currentRevision()).toBe(created.revision);
    });

    it('refuses to create an existing key and keeps the stored value', async () => {
      const d = dir();
      await storage.create(`${d}a`, text('one'));
      expect(await failure(storage.create(`${d}a`, text('two')))).toBe('KeyExists');
      expect(str((await storage.get(`${d}a`))?.value)).toBe('one');
    });

    it('reports a missing key, or undefined when asked to ignore it', async () => {
      const d = dir();
      expect(await failure(storage.get(`${d}nope`))).toBe('KeyNotFound');
      expect(await storage.get(`${d}nope`, { ignoreNotFound: true })).toBeUndefined();
    });

    it('reads the state of an earlier revision exactly', async () => {
      const d = dir();
      const first = await storage.create(`${d}a`, text('one'));
      await storage.guaranteedUpdate(`${d}a`, () => text('two'));
      expect(str((await storage.get(`${d}a`, { revision: first.revision }))?.value)).toBe('one');
      const list = await storage.list(d, { revision: first.revision });
      expect(list.revision).toBe(first.revision);
      expect(list.items.map((i) => str(i.value))).toEqual(['one']);
    });

    it('lists a directory in key order, and only that directory', async () => {
      const d = dir();
      for (const k of ['c', 'a', 'b']) await storage.create(`${d}${k}`, text(k));
      await storage.create(`${d.slice(0, -1)}x/other`, text('not mine'));
      const list = await storage.list(d);
      expect(list.items.map((i) => i.key)).toEqual([`${d}a`, `${d}b`, `${d}c`]);
      expect(list.revision).toBe(await storage.currentRevision());
      expect(list.continue).toBeUndefined();
      expect(await storage.count(d)).toBe(3);
    });

    it('pages with limit/continue at the revision of the first page', async () => {
      const d = dir();
      for (let i = 0; i < 5; i++) await storage.create(`${d}k${i}`, text(`v${i}`));
      const first = await storage.list(d, { limit: 2 });
      expect(first.items.map((i) => i.key)).toEqual([`${d}k0`, `${d}k1`]);
      expect(first.remainingItemCount).toBe(3);
      expect(first.continue).toBeTypeOf('string');
      // Writes after the first page are invisible to the rest of the list.
      await storage.create(`${d}k5`, text('late'));
      await storage.delete(`${d}k4`);
      const second = await storage.list(d, { limit: 2, continue: first.continue as string });
      expect(second.revision).toBe(first.revision);
      const third = await storage.list(d, { limit: 2, continue: second.continue as string });
      expect([...second.items, ...third.items].map((i) => i.key)).toEqual([`${d}k2`, `${d}k3`, `${d}k4`]);
      expect(third.continue).toBeUndefined();
    });

    it('rejects malformed continue tokens', async () => {
      const d = dir();
      expect(await failure(storage.list(d, { continue: 'not-base64!' }))).toBe('InvalidRequest');
      const escaping = btoa(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '../../secrets' })).replace(/=+$/, '');
      expect(await failure(storage.list(d, { continue: escaping }))).toBe('InvalidRequest');
    });

    it('answers a revision not reached yet with TooLargeResourceVersion', async () => {
      const current = await storage.currentRevision();
      expect(await failure(storage.list(dir(), { minRevision: current + 1000n }))).toBe('TooLargeResourceVersion');
      expect(await failure(storage.get(`${dir()}a`, { minRevision: current + 1000n }))).toBe('TooLargeResourceVersion');
    });

    it('updates with a resourceVersion precondition: a stale one conflicts and changes nothing', async () => {
      const d = dir();
      const v1 = await storage.create(`${d}a`, text('one'));
      const v2 = await storage.guaranteedUpdate(`${d}a`, () => text('two'), {
        preconditions: { revision: v1.revision },
      });
      expect(v2.revision).toBeGreaterThan(v1.revision);
      const stale = storage.guaranteedUpdate(`${d}a`, () => text('three'), {
        preconditions: { revision: v1.revision },
      });
      expect(await failure(stale)).toBe('ResourceVersionConflicts');
      expect(await storage.get(`${d}a`)).toMatchObject({ revision: v2.revision });
      expect(await failure(storage.guaranteedUpdate(`${d}missing`, () => text('x')))).toBe('KeyNotFound');
      const upserted = await storage.guaranteedUpdate(`${d}b`, (cur) => text(cur ? 'old' : 'new'), {
        ignoreNotFound: true,
      });
      expect(str(upserted.value)).toBe('new');
    });

    it('retries concurrent read-modify-writes so that none is lost', async () => {
      const d = dir();
      await storage.create(`${d}counter`, text('0'));
      const increment = () =>
        storage.guaranteedUpdate(`${d}counter`, (cur) => text(String(Number(str(cur?.value)) + 1)));
      await Promise.all(Array.from({ length: 20 }, increment));
      expect(str((await storage.get(`${d}counter`))?.value)).toBe('20');
    });

    it('aborts an update when tryUpdate throws', async () => {
      const d = dir();
      const v1 = await storage.create(`${d}a`, text('one'));
      const refused = storage.guaranteedUpdate(`${d}a`, () => {
        throw new StorageError('InvalidObj', 'no');
      });
      expect(await failure(refused)).toBe('InvalidObj');
      expect(await storage.get(`${d}a`)).toMatchObject({ revision: v1.revision });
    });

    it('deletes with preconditions and validation, returning the object as it was', async () => {
      const d = dir();
      const v1 = await storage.create(`${d}a`, text('one'));
      await storage.guaranteedUpdate(`${d}a`, () => text('two'));
      expect(await failure(storage.delete(`${d}a`, { preconditions: { revision: v1.revision } }))).toBe(
        'ResourceVersionConflicts',
      );
      const refuse = () => {
        throw new StorageError('InvalidObj', 'not now');
      };
      expect(await failure(storage.delete(`${d}a`, { validate: refuse }))).toBe('InvalidObj');
      const deleted = await storage.delete(`${d}a`);
      expect(str(deleted.value)).toBe('two');
      expect(deleted.revision).toBe(await storage.currentRevision());
      expect(await failure(storage.delete(`${d}a`))).toBe('KeyNotFound');
      expect(await storage.count(d)).toBe(0);
    });

    it('replays history to a watch started at an earlier revision, one batch per revision', async () => {
      const d = dir();
      const start = await storage.currentRevision();
      await storage.create(`${d}a`, text('one'));
      await storage.guaranteedUpdate(`${d}a`, () => text('two'));
      await storage.create(`${d}b`, text('bee'));
      await storage.delete(`${d}a`);
      const batches = await collect(storage.watch(d, { revision: start, recursive: true, prevValue: true }), 4);
      expect(batches.every((b) => b.length === 1)).toBe(true);
      const events = batches.flat();
      expect(events.map((e) => [e.type, e.key, str(e.value)])).toEqual([
        ['ADDED', `${d}a`, 'one'],
        ['MODIFIED', `${d}a`, 'two'],
        ['ADDED', `${d}b`, 'bee'],
        ['DELETED', `${d}a`, 'two'],
      ]);
      expect(str(events[1]?.prevValue)).toBe('one');
      const revisions = events.map((e) => e.revision);
      expect([...revisions].sort((a, b) => (a < b ? -1 : 1))).toEqual(revisions);
      expect(new Set(revisions).size).toBe(4);
    });

    it('delivers live changes to a single-key watch and nothing else', async () => {
      const d = dir();
      const start = await storage.currentRevision();
      const watch = storage.watch(`${d}a`, { revision: start, recursive: false });
      const got = collect(watch, 2);
      await storage.create(`${d}b`, text('other key'));
      await storage.create(`${d}a`, text('one'));
      await storage.guaranteedUpdate(`${d}a`, () => text('two'));
      const events = (await got).flat();
      expect(events.map((e) => [e.type, e.key])).toEqual([
        ['ADDED', `${d}a`],
        ['MODIFIED', `${d}a`],
      ]);
    });

    it('ends the iteration when stopped', async () => {
      const watch = storage.watch(dir(), { revision: await storage.currentRevision(), recursive: true });
      setTimeout(() => watch.stop(), 50);
      const batches: WatchEvent[][] = [];
      for await (const batch of watch) batches.push(batch);
      expect(batches.filter((b) => b.some((e) => e.type !== 'BOOKMARK'))).toEqual([]);
    });

    it.runIf(capabilities.progressRequest)('sends a BOOKMARK at the current revision on requestProgress', async () => {
      const d = dir();
      await storage.create(`${d}a`, text('one'));
      const current = await storage.currentRevision();
      const watch = storage.watch(d, { revision: current, recursive: true, progressNotify: true });
      await storage.requestProgress();
      const timer = setTimeout(() => watch.stop(), 5000);
      let bookmark: WatchEvent | undefined;
      for await (const batch of watch) {
        bookmark = batch.find((e) => e.type === 'BOOKMARK');
        if (bookmark) break;
      }
      clearTimeout(timer);
      expect(bookmark?.revision).toBe(current);
    });

    it('answers reads and watches before the compacted revision with Expired', async () => {
      const d = dir();
      const old = await storage.create(`${d}a`, text('one'));
      await storage.guaranteedUpdate(`${d}a`, () => text('two'));
      await storage.guaranteedUpdate(`${d}a`, () => text('three'));
      const current = await storage.currentRevision();
      await storage.compact(current);
      expect(await failure(storage.get(`${d}a`, { revision: old.revision }))).toBe('Expired');
      expect(await failure(storage.list(d, { revision: old.revision }))).toBe('Expired');
      const [batch] = await collect(storage.watch(d, { revision: old.revision, recursive: true }), 1);
      expect(batch?.[0]?.type).toBe('ERROR');
      expect(batch?.[0]?.error?.code).toBe('Expired');
      // Reading at the compaction revision itself is still allowed.
      expect(str((await storage.get(`${d}a`, { revision: current }))?.value)).toBe('three');
    });
  });
}
