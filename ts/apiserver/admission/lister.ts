/**
 * The stored objects admission plugins read on every request — Namespaces, ServiceAccounts,
 * LimitRanges, PriorityClasses, ResourceQuotas — through the apiserver's shared informers, as
 * kube-apiserver's plugins read informer listers (their admission initializers hand them a
 * SharedInformerFactory).
 *
 * Reads stay what a storage read gives: the informer answers only while it isCurrent() — it
 * watches this server in this process over a storage that queues a write's events before the
 * write resolves, and has applied every event queued (ts/api/watch-progress.ts) — so every write
 * finished before the request is in. Otherwise — no informers given, another storage, over HTTP,
 * not started yet (the first read starts it), re-listing after a 410, or an event not applied yet —
 * the read goes to storage, as it did before there were informers.
 *
 *   const ns = await getObject(deps, RESOURCES.namespaces, '', 'team-a');
 *   const ranges = await listObjects(deps, RESOURCES.limitranges, 'team-a');
 */
import type { KubeObject } from '../../api/meta.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import type { ObjectOfResource, ResourceType } from '../../client/resources.js';
import type { Storage } from '../../storage/storage.js';
import { decodeStored } from '../decode/codec.js';
import { collectionPrefix, findResource, objectKey, type ResourceInfo } from '../registry/resources.js';

/** Where a lister reads: the informers while current, storage otherwise. */
export interface ListerSource {
  storage: Storage;
  /** The apiserver's informers; without them every read goes to storage. */
  informers?: SharedInformerFactory;
}

/** What the read found, read-only: an informer's objects are shared with every reader. */
export type Listed<R extends ResourceType> = DeepReadonly<ObjectOfResource<R>>;

function served(r: ResourceType): ResourceInfo {
  const info = findResource(r.group, r.version, r.resource);
  if (info === undefined) throw new Error(`admission: ${r.resource}.${r.group} is not served`);
  return info;
}

/**
 * The informer of `resource` when it is current; started (for the next reads) when it is not yet —
 * by the factory's start(), which starts nothing once the factory is shutting down.
 */
function currentInformer(source: ListerSource, resource: ResourceType): SharedIndexInformer<KubeObject> | undefined {
  if (source.informers === undefined || source.storage.queuesWatchesOnCommit !== true) return undefined;
  const informer = source.informers.informerFor<KubeObject>(resource);
  if (informer.isCurrent()) return informer;
  if (!informer.hasStarted()) source.informers.start();
  return undefined;
}

const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The object `name` in `namespace` ('' when cluster-scoped), as storage has it now; undefined when none. */
export async function getObject<R extends ResourceType>(
  source: ListerSource,
  resource: R,
  namespace: string,
  name: string,
): Promise<Listed<R> | undefined> {
  const informer = currentInformer(source, resource);
  if (informer !== undefined) return informer.get(namespace, name) as Listed<R> | undefined;
  const stored = await source.storage.get(objectKey(served(resource), namespace, name), { ignoreNotFound: true });
  return stored === undefined ? undefined : (decodeStored(stored) as Listed<R>);
}

/**
 * The objects of `resource` in `namespace` ('' for every namespace, or cluster-scoped), in the
 * order storage lists them (by namespace, then name).
 */
export async function listObjects<R extends ResourceType>(
  source: ListerSource,
  resource: R,
  namespace: string,
): Promise<Listed<R>[]> {
  const informer = currentInformer(source, resource);
  if (informer === undefined) {
    const { items } = await source.storage.list(collectionPrefix(served(resource), namespace));
    return items.map((item) => decodeStored(item) as Listed<R>);
  }
  const found = informer.lister().byNamespace(namespace).list();
  if (found.length < 2) return found as Listed<R>[];
  const keyed = found.map((obj) => ({ key: `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`, obj }));
  return keyed.sort(byKey).map((k) => k.obj as Listed<R>);
}

/** The revision an object was read at (its resourceVersion, which this apiserver writes as the storage revision). */
export function revisionOf(obj: { readonly metadata?: { readonly resourceVersion?: string } }): bigint {
  const rv = obj.metadata?.resourceVersion ?? '';
  return /^\d+$/.test(rv) ? BigInt(rv) : 0n;
}
