/**
 * The stored objects admission plugins read on every request — Namespaces, ServiceAccounts,
 * LimitRanges, PriorityClasses, ResourceQuotas — in memory, kept current from storage watches (as
 * kube-apiserver's plugins read informer listers). One per storage, started by the first lookup.
 *
 * Reads stay what a storage read gives: the cache answers only when it has applied every event
 * queued to its watches, and only on a storage that queues a write's events before the write
 * resolves (`queuesWatchesOnCommit`, the in-process wasm store) — so every write finished before the
 * request is in. Otherwise — another backend, not started yet, re-listing after a 410, or a batch
 * not applied yet — the read goes to storage, as it did before there was a cache.
 */
import type { KubeObject } from '../../api/meta.js';
import type { Storage, StoredObject, Watch } from '../../storage/storage.js';
import { decodeStored } from '../decode/codec.js';
import { relistWithRetries } from '../relist.js';

/** The collections kept (their storage key prefixes). */
export const LISTED_COLLECTIONS: readonly string[] = [
  '/registry/namespaces/',
  '/registry/serviceaccounts/',
  '/registry/limitranges/',
  '/registry/priorityclasses/',
  '/registry/resourcequotas/',
];

const decodedObjects = new WeakMap<StoredObject, KubeObject>();

/**
 * decodeStored(stored), decoded once per stored value: the lister hands out the same StoredObject
 * until the object changes, and every pod create looks up its namespace and ServiceAccount.
 * Shared between callers — read it, never change it.
 */
export function decodedOnce(stored: StoredObject): Readonly<KubeObject> {
  let obj = decodedObjects.get(stored);
  if (obj === undefined) {
    obj = decodeStored(stored);
    decodedObjects.set(stored, obj);
  }
  return obj;
}

const byKey = (a: StoredObject, b: StoredObject): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** One collection: its objects, its watch and the last revision applied from it. */
interface Collection {
  objects: Map<string, StoredObject>;
  watch: Watch | undefined;
  /** Every event up to this revision is in `objects`; 0n while (re)listing. */
  applied: bigint;
}

export class StoredLister {
  private readonly collections = new Map<string, Collection>();
  private started = false;
  private stopped = false;

  constructor(private readonly storage: Storage) {}

  /** The object at `key`, as storage.get(key, { ignoreNotFound: true }) answers now. */
  async get(key: string): Promise<StoredObject | undefined> {
    const c = this.current(key);
    return c !== undefined ? c.objects.get(key) : this.storage.get(key, { ignoreNotFound: true });
  }

  /** The objects under `prefix` in key order, as storage.list(prefix) has them now. */
  async list(prefix: string): Promise<StoredObject[]> {
    const c = this.current(prefix);
    if (c === undefined) return (await this.storage.list(prefix)).items;
    const out: StoredObject[] = [];
    for (const [key, obj] of c.objects) if (key.startsWith(prefix)) out.push(obj);
    return out.sort(byKey);
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.collections.values()) c.watch?.stop();
  }

  /** The kept collection holding `key`, if it is current (every event queued to it applied). */
  private current(key: string): Collection | undefined {
    if (this.storage.queuesWatchesOnCommit !== true) return undefined;
    if (!this.started) {
      this.started = true;
      for (const prefix of LISTED_COLLECTIONS) void this.follow(prefix);
      return undefined;
    }
    for (const [prefix, c] of this.collections) {
      if (!key.startsWith(prefix)) continue;
      const queued = c.watch?.queuedRevision?.();
      return c.applied !== 0n && queued !== undefined && c.applied >= queued ? c : undefined;
    }
    return undefined;
  }

  private async relist(prefix: string, c: Collection): Promise<bigint> {
    const page = await this.storage.list(prefix);
    c.objects = new Map(page.items.map((item) => [item.key, item]));
    return page.revision;
  }

  /** List, then follow the changes; re-list when the watch ends or fails (410 after a compaction). */
  private async follow(prefix: string): Promise<void> {
    const c: Collection = { objects: new Map(), watch: undefined, applied: 0n };
    this.collections.set(prefix, c);
    let from = await relistWithRetries(
      () => this.relist(prefix, c),
      () => this.stopped,
    );
    while (from !== undefined && !this.stopped) {
      const watch = this.storage.watch(prefix, { revision: from, recursive: true });
      c.watch = watch;
      c.applied = from;
      try {
        for await (const batch of watch) {
          if (batch.some((ev) => ev.type === 'ERROR')) break;
          for (const ev of batch) {
            if (ev.type === 'DELETED') c.objects.delete(ev.key);
            // A copy: the event's bytes may share a buffer with the rest of its batch.
            else if (ev.type !== 'BOOKMARK')
              c.objects.set(ev.key, { key: ev.key, value: ev.value.slice(), revision: ev.revision });
            c.applied = ev.revision;
          }
        }
      } catch {
        // The watch failed: re-list below.
      } finally {
        watch.stop();
      }
      c.applied = 0n;
      c.watch = undefined;
      if (this.stopped) return;
      from = await relistWithRetries(
        () => this.relist(prefix, c),
        () => this.stopped,
      );
    }
  }
}

const listers = new WeakMap<Storage, StoredLister>();

/** The lister of a storage (one per storage, shared by the plugins). */
export function storedLister(storage: Storage): StoredLister {
  let lister = listers.get(storage);
  if (lister === undefined) {
    lister = new StoredLister(storage);
    listers.set(storage, lister);
  }
  return lister;
}
