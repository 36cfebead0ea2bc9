/**
 * The storage interface the apiserver persists through — the shape of Kubernetes'
 * k8s.io/apiserver/pkg/storage.Interface, at the level of bytes and revisions. Objects are opaque
 * byte strings (JSON, written by the apiserver); every stored object carries the store revision of
 * its last change, which the apiserver publishes as `metadata.resourceVersion`.
 *
 * Two backends implement it: the wasm MVCC store (default; ./wasm/) and etcd v3 (./etcd/).
 */
import type { StorageError } from './errors.js';

export interface StoredObject {
  key: string;
  value: Uint8Array;
  /** The revision of the object's last change (etcd mod_revision). */
  revision: bigint;
}

/**
 * Which state a read sees, as the apiserver derives it from resourceVersion and
 * resourceVersionMatch (../shared/reference/store.md §3.1):
 * - omitted: the most recent state (a quorum read);
 * - `{ minRevision }`: any state at least that new (TooLargeResourceVersion if not reached);
 * - `{ revision }`: exactly that revision (Expired if compacted).
 */
export interface ReadAt {
  revision?: bigint;
  minRevision?: bigint;
}

export interface GetOptions extends ReadAt {
  /** Resolve to undefined instead of failing with KeyNotFound. */
  ignoreNotFound?: boolean;
}

export interface ListOptions extends ReadAt {
  /** Most items in this page; 0 or omitted = all. */
  limit?: number;
  /** The token of the previous page; the read then happens at that page's revision. */
  continue?: string;
}

export interface ListResult {
  items: StoredObject[];
  /** The revision the list was read at (the list's resourceVersion). */
  revision: bigint;
  /** Token for the next page, when `limit` cut the list. */
  continue?: string;
  /** Items after this page, when known. */
  remainingItemCount?: number;
}

export interface Preconditions {
  /** The object must still be at this revision (a stale resourceVersion gives a conflict). */
  revision?: bigint;
}

export interface UpdateOptions {
  preconditions?: Preconditions;
  /** Call `tryUpdate(undefined)` when the key is absent (create-on-update) instead of failing. */
  ignoreNotFound?: boolean;
}

export interface DeleteOptions {
  preconditions?: Preconditions;
  /** Runs against the current object before it is deleted; throw to refuse. */
  validate?: (current: StoredObject) => void | Promise<void>;
}

export interface CreateOptions {
  /** Delete the object after this many seconds (etcd leases; Kubernetes uses it for events). */
  ttlSeconds?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  key: string;
  /** The object after the change; for DELETED the object as it was before it. Empty for BOOKMARK/ERROR. */
  value: Uint8Array;
  /** For MODIFIED and DELETED when `prevValue` was asked: the object before the change. */
  prevValue?: Uint8Array;
  /** The revision of the change; for BOOKMARK the revision all earlier events have reached. */
  revision: bigint;
  /** For ERROR: why the watch ended (Expired when its start revision was compacted). */
  error?: StorageError;
}

export interface WatchOptions {
  /** Deliver changes after this revision; 0n = from now on. */
  revision: bigint;
  /** Watch every key under `key/` instead of the single key. */
  recursive: boolean;
  /** Ask for periodic BOOKMARK events when nothing changes. */
  progressNotify?: boolean;
  /** Include `prevValue` on MODIFIED and DELETED events. */
  prevValue?: boolean;
}

/**
 * A running watch: an async iterable of event batches. All events of one revision arrive in one
 * batch, in revision order. A consumer that falls too far behind gets a final ERROR (WatchTooSlow)
 * and can resume from the last revision it saw. After an ERROR event the watch ends.
 */
export interface Watch extends AsyncIterable<WatchEvent[]> {
  stop(): void;
  /** The revision of the last event handed to the consumer's queue (taken out or not); 0n before any. */
  queuedRevision?(): bigint;
}

export interface Storage {
  /**
   * True when a write's watch events are in their watches' queues (queuedRevision) by the time the
   * write resolves — an in-process store — so a consumer that has taken everything queued has seen
   * every finished write.
   */
  readonly queuesWatchesOnCommit?: boolean;
  /** The store's latest revision (a quorum read). */
  currentRevision(): Promise<bigint>;
  create(key: string, value: Uint8Array, options?: CreateOptions): Promise<StoredObject>;
  get(key: string, options?: GetOptions): Promise<StoredObject | undefined>;
  /** Lists every key under `prefix` (a directory key ending in "/"), in key order. */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  count(prefix: string): Promise<number>;
  /**
   * Read-modify-write with optimistic concurrency: `tryUpdate` gets the current object and returns
   * the new value; on a concurrent change it is called again with the fresh object. Throwing from
   * `tryUpdate` aborts with that error.
   */
  guaranteedUpdate(
    key: string,
    tryUpdate: (current: StoredObject | undefined) => Uint8Array | Promise<Uint8Array>,
    options?: UpdateOptions,
  ): Promise<StoredObject>;
  /** Deletes the object and returns it as it was; the returned revision is the deletion's. */
  delete(key: string, options?: DeleteOptions): Promise<StoredObject>;
  watch(key: string, options: WatchOptions): Watch;
  /** Ask every watch for a BOOKMARK at the current revision as soon as it has caught up. */
  requestProgress(): Promise<void>;
  /** Drops history before `revision` (reads and watches before it then fail with Expired). */
  compact(revision: bigint): Promise<void>;
  close(): Promise<void>;
}
