/**
 * A read-your-writes barrier on informers, as the watch cache's waitUntilFreshAndBlock serves
 * consistent reads (k8s.io/apiserver pkg/storage/cacher/watch_cache.go, KEP-2340): resolves once
 * every informer has each write made before the call. An informer that isCurrent() (a watch of
 * this process over a storage that queues on commit) has them already; any other waits until its
 * resourceVersion reaches the storage's current revision — a progress request (etcd's
 * RequestWatchProgress) brings a quiet watch there with a BOOKMARK.
 *
 *   await waitUntilFresh([crdInformer], storage, { timeoutMs: 5000 });
 */
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import type { Storage } from '../../storage/storage.js';

/** What the barrier reads of an informer, whatever its object type. */
export type FreshnessOf = Pick<SharedIndexInformer, 'isCurrent' | 'lastSyncResourceVersion' | 'waitUntil'>;

/** The revision an informer's cache is at (its resourceVersion, which this apiserver writes as a decimal revision). */
function revisionOf(informer: FreshnessOf): bigint {
  const rv = informer.lastSyncResourceVersion();
  return /^\d+$/.test(rv) ? BigInt(rv) : 0n;
}

/**
 * True once every informer has every write made before the call; false when one stopped first or,
 * with `timeoutMs`, when that much real time passed (the caller then goes on with the caches as
 * they are, as a request does when its watch cache cannot catch up).
 */
export async function waitUntilFresh(
  informers: readonly FreshnessOf[],
  storage: Storage,
  options: { timeoutMs?: number } = {},
): Promise<boolean> {
  const behind = informers.filter((i) => !i.isCurrent());
  if (behind.length === 0) return true;
  const revision = await storage.currentRevision();
  const fresh = (i: FreshnessOf) => i.isCurrent() || revisionOf(i) >= revision;
  if (behind.every(fresh)) return true;
  await storage.requestProgress();
  const caughtUp = Promise.all(behind.map((i) => i.waitUntil(() => fresh(i)))).then((all) => all.every(Boolean));
  if (options.timeoutMs === undefined) return caughtUp;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), options.timeoutMs);
    // Real time (a virtual clock may never move), and it must not keep a closing process alive.
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    return await Promise.race([caughtUp, late]);
  } finally {
    clearTimeout(timer);
  }
}
