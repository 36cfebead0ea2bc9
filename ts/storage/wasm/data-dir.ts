/**
 * The wasm store's files in a data directory (Node only): `snapshot` (the whole store at one
 * revision, replaced atomically) and `wal` (the records of every write since that snapshot).
 * Records are made and checked by the Rust store (length + CRC32 each); this file only puts bytes
 * on disk with the fsync policy asked:
 *
 * - `always`: each append is fsynced before its promise resolves (the write is acknowledged);
 * - `batch`:  appends are gathered and written and fsynced together, at most `batchIntervalMs`
 *             later, and acknowledged after that fsync (group commit: one write and one fsync for
 *             every write of the interval);
 * - `none`:   written, never fsynced (the OS flushes when it likes).
 */
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export type FsyncPolicy = 'always' | 'batch' | 'none';

export interface DataDirOptions {
  fsync: FsyncPolicy;
  /** Longest a `batch` write waits for its fsync. Default 2 ms. */
  batchIntervalMs?: number;
  /** Once the log passes this many bytes, the next append writes a snapshot. Default 64 MiB. */
  snapshotAfterBytes?: number;
}

/** Default size of the log that triggers a snapshot. */
const SNAPSHOT_AFTER_BYTES = 64 * 1024 * 1024;

export class DataDir {
  private readonly walPath: string;
  private readonly snapshotPath: string;
  private wal: number;
  private walSize: number;
  private pending: Array<() => void> = [];
  /** Records of `batch` appends not yet written. */
  private gathered: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The whole store now, for periodic snapshots (set by whoever owns the store). */
  snapshotSource: (() => Uint8Array) | undefined;

  constructor(
    readonly path: string,
    private readonly options: DataDirOptions,
  ) {
    mkdirSync(path, { recursive: true });
    this.walPath = join(path, 'wal');
    this.snapshotPath = join(path, 'snapshot');
    this.wal = openSync(this.walPath, 'a+');
    this.walSize = fstatSync(this.wal).size; // the log is read once, by read(), not here too
  }

  /** What is on disk now: the last snapshot (if any) and the log written after it. */
  read(): { snapshot: Uint8Array | undefined; wal: Uint8Array } {
    let snapshot: Uint8Array | undefined;
    try {
      snapshot = readFileSync(this.snapshotPath);
    } catch {
      snapshot = undefined;
    }
    return { snapshot, wal: readFileSync(this.walPath) };
  }

  /** Cuts a torn or corrupt tail off the log: everything from `offset` on is dropped. */
  truncateWal(offset: number): void {
    ftruncateSync(this.wal, offset);
    fsyncSync(this.wal);
    this.walSize = offset;
  }

  get walBytes(): number {
    return this.walSize;
  }

  /** Appends records; resolves when they are as durable as the policy promises. */
  append(records: Uint8Array): Promise<void> {
    if (this.options.fsync === 'batch') this.gathered.push(records);
    else writeSync(this.wal, records);
    this.walSize += records.length;
    if (this.snapshotSource && this.walSize > (this.options.snapshotAfterBytes ?? SNAPSHOT_AFTER_BYTES)) {
      // The store's state is exactly what the log holds now: everything runs on this thread.
      this.writeSnapshot(this.snapshotSource());
      return Promise.resolve();
    }
    switch (this.options.fsync) {
      case 'none':
        return Promise.resolve();
      case 'always':
        fsyncSync(this.wal);
        return Promise.resolve();
      case 'batch':
        return new Promise((resolve) => {
          this.pending.push(resolve);
          this.timer ??= setTimeout(() => this.flush(), this.options.batchIntervalMs ?? 2);
        });
    }
  }

  /** fsyncs what was appended and acknowledges every write waiting for it. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.gathered.length > 0) {
      writeSync(this.wal, Buffer.concat(this.gathered));
      this.gathered = [];
    }
    if (this.pending.length === 0) return;
    fsyncSync(this.wal);
    const acknowledged = this.pending;
    this.pending = [];
    for (const ack of acknowledged) ack();
  }

  /**
   * Replaces the snapshot atomically (write a temporary file, fsync, rename, fsync the directory)
   * and starts an empty log after it.
   */
  writeSnapshot(snapshot: Uint8Array): void {
    this.flush();
    const tmp = `${this.snapshotPath}.tmp`;
    const fd = openSync(tmp, 'w');
    writeSync(fd, snapshot);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.snapshotPath);
    syncDirectory(this.path);
    this.truncateWal(0);
  }

  close(): void {
    this.flush();
    closeSync(this.wal);
  }
}

function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
