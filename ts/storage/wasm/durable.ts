/**
 * Opens the wasm store from a data directory (Node): the last snapshot, then every intact WAL
 * record after it. A torn or corrupt tail is detected by the records' checksums, reported, and cut
 * off — never loaded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Kubewasm } from '../../wasm/kubewasm.js';
import type { MvccStore } from '../../wasm/store.js';
import { DataDir, type DataDirOptions } from './data-dir.js';
import { WasmStorage } from './wasm-storage.js';

export interface Recovery {
  /** Revision the store is at after recovery. */
  revision: bigint;
  snapshotBytes: number;
  walRecordsApplied: number;
  /** Set when the log ended in a torn or corrupt record. */
  truncatedTail?: { offset: number; droppedBytes: number; reason: string };
}

export interface DurableStorage {
  storage: WasmStorage;
  recovery: Recovery;
  dataDir: DataDir;
}

/** Rebuilds a store from a data directory's bytes (snapshot, then the intact part of the log). */
function recover(
  kubewasm: Kubewasm,
  files: { snapshot: Uint8Array | undefined; wal: Uint8Array },
): { store: MvccStore; recovery: Recovery } {
  const store = files.snapshot
    ? kubewasm.restoreStore(files.snapshot, { wal: true })
    : kubewasm.newStore({ wal: true });
  const replay = store.replayWal(files.wal);
  store.takeWal(); // replaying re-logs nothing new: these records are on disk already
  const recovery: Recovery = {
    revision: store.currentRevision,
    snapshotBytes: files.snapshot?.length ?? 0,
    walRecordsApplied: replay.applied,
  };
  if (replay.tailReason !== '') {
    recovery.truncatedTail = {
      offset: replay.validLength,
      droppedBytes: files.wal.length - replay.validLength,
      reason: replay.tailReason,
    };
  }
  return { store, recovery };
}

export function openDurableStorage(
  kubewasm: Kubewasm,
  path: string,
  options: DataDirOptions & { clock?: Clock },
): DurableStorage {
  const dataDir = new DataDir(path, options);
  const { store, recovery } = recover(kubewasm, dataDir.read());
  if (recovery.truncatedTail) dataDir.truncateWal(recovery.truncatedTail.offset);
  if (store.nextLeaseDeadline !== undefined) {
    // etcd's Promote: the downtime does not count against leases. Its WAL record stays queued
    // and goes to disk with the next write.
    store.leaseRefreshAll((options.clock ?? realClock).now());
  }
  dataDir.snapshotSource = () => store.snapshot();
  const storage = new WasmStorage({ store, log: dataDir, ...(options.clock ? { clock: options.clock } : {}) });
  return { storage, recovery, dataDir };
}

/**
 * A snapshot of the store in a data directory, read without writing to it (safe beside a running
 * server: the log's checksums bound what is read to whole records).
 */
export function snapshotOfDataDir(kubewasm: Kubewasm, path: string): { snapshot: Uint8Array; recovery: Recovery } {
  let snapshot: Uint8Array | undefined;
  try {
    snapshot = readFileSync(join(path, 'snapshot'));
  } catch {
    snapshot = undefined;
  }
  const { store, recovery } = recover(kubewasm, { snapshot, wal: readFileSync(join(path, 'wal')) });
  try {
    return { snapshot: store.snapshot(), recovery };
  } finally {
    store.free();
  }
}
