/**
 * Index functions for an informer's cache (client-go tools/cache/index.go, and the pod indexes of
 * pkg/controller/controller_utils.go at v1.32): an IndexFunc maps an object to the values it is
 * found under in a named index, so that `byIndex(name, value)` answers without scanning the
 * cache — pods by namespace, by their controller's UID, by the node they are bound to.
 *
 *   informer.addIndexers({ [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc });
 *   informer.getIndexer().byIndex(POD_NODE_NAME_INDEX, 'node-7');
 */
import type { KubeObject } from '../../api/meta.js';

/** IndexFunc: the indexed values of an object (none: it is in no bucket of that index). */
export type IndexFunc<T = KubeObject> = (obj: T) => readonly string[];

/** Indexers: index name → IndexFunc. */
export type Indexers<T = KubeObject> = Readonly<Record<string, IndexFunc<T>>>;

// index.go NamespaceIndex: the lookup name of the most common index.
export const NAMESPACE_INDEX = 'namespace';

/** MetaNamespaceIndexFunc: an object's namespace ('' when cluster-scoped). */
export function metaNamespaceIndexFunc(obj: KubeObject): readonly string[] {
  return [obj.metadata?.namespace ?? ''];
}

// controller_utils.go PodControllerUIDIndex and OrphanPodIndexKey: pods by the UID of their
// controller (the ReplicaSet controller's getPodsToDelete and claims read it), orphans together.
export const POD_CONTROLLER_UID_INDEX = 'podControllerUID';
export const ORPHAN_POD_INDEX_KEY = '_ORPHAN_POD';

/** The AddPodControllerUIDIndexer function: the controller ownerReference's UID, or the orphans' key. */
export function controllerUIDIndexFunc(obj: KubeObject): readonly string[] {
  const ref = (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  return [ref === undefined ? ORPHAN_POD_INDEX_KEY : ref.uid];
}

// controller_utils.go PodNodeNameKeyIndex: pods by spec.nodeName, so one pod informer serves
// every node agent of a process (KWOK's pod controller looks the node up per pod the same way).
export const POD_NODE_NAME_INDEX = 'spec.nodeName';

/** The AddPodNodeNameIndexer function: a bound pod's node; an unbound pod is in no bucket. */
export function podNodeNameIndexFunc(obj: KubeObject): readonly string[] {
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  const node = spec?.nodeName;
  return typeof node === 'string' && node !== '' ? [node] : [];
}

/** What the Add…Indexer helpers need of an informer. */
interface IndexedInformer {
  addIndexers(indexers: Indexers): void;
  getIndexer(): { getIndexers(): Indexers };
}

/** AddPodControllerUIDIndexer: the controller-UID index, unless the informer has it already. */
export function addPodControllerUIDIndexer(informer: IndexedInformer): void {
  if (POD_CONTROLLER_UID_INDEX in informer.getIndexer().getIndexers()) return;
  informer.addIndexers({ [POD_CONTROLLER_UID_INDEX]: controllerUIDIndexFunc });
}

/** AddPodNodeNameIndexer: the spec.nodeName index, unless the informer has it already. */
export function addPodNodeNameIndexer(informer: IndexedInformer): void {
  if (POD_NODE_NAME_INDEX in informer.getIndexer().getIndexers()) return;
  informer.addIndexers({ [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc });
}
