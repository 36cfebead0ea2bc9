/**
 * Opens the wasm store from a data directory (Node): the last snapshot, then every intact WAL
 * record after it. A torn or corrupt tail is detected by the records' checksums, reported, and cut
 * off — never loaded.
 */
import { type Clock, realClock } from '../../sim/clock.js';
import type { Kubewasm } from '../../wasm/kubewasm.js';
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

export function openDurableStorage(
  kubewasm: Kubewasm,
  path: string,
  options: DataDirOptions & { clock?: Clock },
): DurableStorage {
  const dataDir = new DataDir(path, options);
  const { snapshot, wal } = dataDir.read();
  const store = snapshot ? kubewasm.restoreStore(snapshot, { wal: true }) : kubewasm.newStore({ wal: true });
  const replay = store.replayWal(wal);
  store.takeWal(); // replaying re-logs nothing new: these records are on disk already
  if (store.nextLeaseDeadline !== undefined) {
    // etcd's Promote: the downtime does not count against leases. Its WAL record stays queued
    // and goes to disk with the next write.
    store.leaseRefreshAll((options.clock ?? realClock).now());
  }
  const recovery: Recovery = {
    revision: store.currentRevision,
    snapshotBytes: snapshot?.length ?? 0,
    walRecordsApplied: replay.applied,
  };
  if (replay.tailReason !== '') {
    recovery.truncatedTail = {
      offset: replay.validLength,
      droppedBytes: wal.length - replay.validLength,
      reason: replay.tailReason,
    };
    dataDir.truncateWal(replay.validLength);
  }
  dataDir.snapshotSource = () => store.snapshot();
  const storage = new WasmStorage({ store, log: dataDir, ...(options.clock ? { clock: options.clock } : {}) });
  return { storage, recovery, dataDir };
}
