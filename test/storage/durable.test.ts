import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FsyncPolicy } from '../../ts/storage/wasm/data-dir.js';
import { openDurableStorage } from '../../ts/storage/wasm/durable.js';
import { loadKubewasm } from '../../ts/wasm/node.js';
import { storageContract } from './contract.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubewasm-durable-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const text = (s: string) => new TextEncoder().encode(s);
const open = async (dir: string, fsync: FsyncPolicy = 'always', snapshotAfterBytes?: number) =>
  openDurableStorage(await loadKubewasm(), dir, { fsync, ...(snapshotAfterBytes ? { snapshotAfterBytes } : {}) });

storageContract(
  'the wasm MVCC store on disk (fsync always)',
  async () => (await open(mkdtempSync(join(tmpdir(), 'kubewasm-contract-')))).storage,
  { progressRequest: true },
);

describe('the wasm store on disk', () => {
  it.each(['always', 'batch', 'none'] as const)('keeps every write across a restart (fsync %s)', async (fsync) => {
    const dir = tempDir();
    const first = await open(dir, fsync);
    await Promise.all(Array.from({ length: 50 }, (_, i) => first.storage.create(`/registry/k/${i}`, text(`v${i}`))));
    await first.storage.guaranteedUpdate('/registry/k/7', () => text('seven'));
    await first.storage.delete('/registry/k/9');
    const revision = await first.storage.currentRevision();
    await first.storage.close();

    const second = await open(dir, fsync);
    expect(second.recovery).toMatchObject({ revision, walRecordsApplied: 52 });
    expect(second.recovery.truncatedTail).toBeUndefined();
    expect(await second.storage.count('/registry/k/')).toBe(49);
    expect(new TextDecoder().decode((await second.storage.get('/registry/k/7'))?.value)).toBe('seven');
    // History survives too: a read at an old revision.
    expect(await second.storage.get('/registry/k/9', { revision: revision - 1n })).toBeDefined();
    await second.storage.close();
  });

  it('detects, reports and cuts off a torn tail, and loads everything before it', async () => {
    const dir = tempDir();
    const first = await open(dir);
    for (let i = 0; i < 10; i++) await first.storage.create(`/registry/k/${i}`, text(`v${i}`));
    await first.storage.close();
    const wal = join(dir, 'wal');
    const size = readFileSync(wal).length;
    truncateSync(wal, size - 3); // the last record loses its end, as a crash mid-write leaves it

    const second = await open(dir);
    expect(second.recovery.truncatedTail).toMatchObject({ reason: 'truncated' });
    expect(await second.storage.count('/registry/k/')).toBe(9);
    // The log was cut back to its intact part, so new writes follow on cleanly.
    await second.storage.create('/registry/k/new', text('after'));
    await second.storage.close();
    const third = await open(dir);
    expect(third.recovery.truncatedTail).toBeUndefined();
    expect(await third.storage.count('/registry/k/')).toBe(10);
    await third.storage.close();
  });

  it('refuses a corrupted record (checksum) rather than loading it', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await first.storage.create('/registry/k/a', text('a'));
    await first.storage.close();
    appendFileSync(join(dir, 'wal'), new Uint8Array([16, 0, 0, 0, 1, 2, 3, 4, ...new Array(16).fill(7)]));
    const second = await open(dir);
    expect(second.recovery.truncatedTail).toMatchObject({ reason: 'checksum', droppedBytes: 24 });
    expect(await second.storage.count('/registry/k/')).toBe(1);
    await second.storage.close();
  });

  it('takes snapshots as the log grows and recovers from snapshot + log', async () => {
    const dir = tempDir();
    const first = await open(dir, 'none', 4096);
    for (let i = 0; i < 200; i++) await first.storage.create(`/registry/k/${i}`, text('x'.repeat(100)));
    const revision = await first.storage.currentRevision();
    await first.storage.close();
    const second = await open(dir, 'none', 4096);
    expect(second.recovery.snapshotBytes).toBeGreaterThan(0);
    expect(second.recovery.walRecordsApplied).toBeLessThan(200);
    expect(second.recovery.revision).toBe(revision);
    expect(await second.storage.count('/registry/k/')).toBe(200);
    await second.storage.close();
  });
});
