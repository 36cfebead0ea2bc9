/**
 * The CustomResourceDefinitions of one store in memory, kept from a storage watch (the CRD
 * informer apiextensions-apiserver's handler and controllers share), and the custom resources they
 * serve: `findResource` consults it for any path the built-in table does not serve. Every change is
 * handed to `onChange` (the in-server controllers, controllers.ts).
 */

import { compareVersionPriority } from '../../api/version-priority.js';
import type { Storage, StoredObject, Watch, WatchEvent } from '../../storage/storage.js';
import type { CustomResourceLookup, ResourceInfo } from '../registry/resources.js';
import { relistWithRetries } from '../relist.js';
import { servedResourcesOf } from './served.js';
import type { Crd } from './types.js';

/** Where CRDs are stored (objectKey of the apiextensions.k8s.io customresourcedefinitions row). */
export const CRD_PREFIX = '/registry/customresourcedefinitions/';

const decoder = new TextDecoder();

/** How long a request waits for the CRD watch to catch up before it is served as things stand. */
const SYNC_WAIT_MS = 5000;

export class CrdRegistry implements CustomResourceLookup {
  private readonly crds = new Map<string, Crd>();
  private served: ResourceInfo[] = [];
  private readonly index = new Map<string, ResourceInfo>();
  private seen = 0n;
  private readonly waiters: { revision: bigint; resolve: () => void }[] = [];
  private watch: Watch | undefined;
  private stopped = false;
  private started: Promise<void> | undefined;
  /** Called with a CRD's name after each change to it (deleted ones too). */
  onChange: ((name: string) => void) | undefined;

  constructor(private readonly storage: Storage) {}

  /** Lists the CRDs and follows their changes; resolves once the list is in. */
  start(): Promise<void> {
    this.started ??= (async () => {
      const rev = await this.relist();
      void this.follow(rev);
    })().catch((err: unknown) => {
      // The store was away: the next request tries again.
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  /** Resolves once every CRD change made up to now is in (a read-your-writes barrier for requests). */
  async synced(): Promise<void> {
    await this.start();
    const revision = await this.storage.currentRevision();
    if (this.seen >= revision) return;
    const done = new Promise<void>((resolve) => this.waiters.push({ revision, resolve }));
    // A quiet prefix learns the current revision from a progress BOOKMARK.
    await this.storage.requestProgress();
    // Bounded: a watch that cannot catch up (the store away) leaves requests the CRDs as last seen.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SYNC_WAIT_MS);
      (timer as { unref?: () => void }).unref?.();
    });
    await Promise.race([done, late]);
    clearTimeout(timer);
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  /** The CRD of that name, as last seen. */
  get(name: string): Crd | undefined {
    return this.crds.get(name);
  }

  /** Every CRD, as last seen. */
  list(): Crd[] {
    return [...this.crds.values()];
  }

  find(group: string, version: string, resource: string): ResourceInfo | undefined {
    return this.index.get(`${group}/${version}/${resource}`);
  }

  all(): readonly ResourceInfo[] {
    return this.served;
  }

  private rebuild(): void {
    const out = [...this.crds.values()].flatMap(servedResourcesOf);
    // Groups by name, each group's versions by priority, resources by name (CRD discovery order).
    out.sort(
      (a, b) =>
        (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) ||
        compareVersionPriority(a.version, b.version) ||
        (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0),
    );
    this.served = out;
    this.index.clear();
    for (const info of out) this.index.set(`${info.group}/${info.version}/${info.resource}`, info);
  }

  private advance(revision: bigint): void {
    if (this.seen < revision) this.seen = revision;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i] as (typeof this.waiters)[number];
      if (this.seen >= w.revision) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  private apply(item: StoredObject | WatchEvent, deleted: boolean): string {
    const name = item.key.slice(CRD_PREFIX.length);
    if (deleted) {
      this.crds.delete(name);
      return name;
    }
    try {
      this.crds.set(name, JSON.parse(decoder.decode(item.value)) as Crd);
    } catch {
      this.crds.delete(name);
    }
    return name;
  }

  private async relist(): Promise<bigint> {
    const list = await this.storage.list(CRD_PREFIX);
    const before = new Set(this.crds.keys());
    this.crds.clear();
    for (const item of list.items) this.apply(item, false);
    this.rebuild();
    this.advance(list.revision);
    for (const name of new Set([...before, ...this.crds.keys()])) this.onChange?.(name);
    return list.revision;
  }

  /** Follows the changes from `revision`; re-lists when the watch ends or fails (410). */
  private async follow(revision: bigint): Promise<void> {
    let from = revision;
    while (!this.stopped) {
      const watch = this.storage.watch(CRD_PREFIX, { revision: from, recursive: true, progressNotify: true });
      this.watch = watch;
      try {
        for await (const batch of watch) {
          const changed: string[] = [];
          let failed = false;
          for (const ev of batch) {
            if (ev.type === 'ERROR') {
              failed = true;
              break;
            }
            if (ev.type !== 'BOOKMARK') changed.push(this.apply(ev, ev.type === 'DELETED'));
            from = ev.revision;
          }
          if (changed.length > 0) this.rebuild();
          if (!failed) this.advance(from);
          for (const name of changed) this.onChange?.(name);
          if (failed) break;
        }
      } catch {
        // The watch failed: re-list below.
      } finally {
        watch.stop();
      }
      if (this.stopped) return;
      const relisted = await relistWithRetries(
        () => this.relist(),
        () => this.stopped,
      );
      if (relisted === undefined) return;
      from = relisted;
    }
  }
}
