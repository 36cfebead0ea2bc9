/**
 * Index functions for an informer's cache (client-go tools/cache/index.go v0.32, and the pod
 * indexes of pkg/controller/controller_utils.go, which came after 1.32 — see each): an IndexFunc
 * maps an object to the values it is found under in a named index, so that
 * `byIndex(name, value)` answers without scanning the cache — pods by namespace, by their
 * controller, by the node they are bound to.
 *
 *   addPodControllerIndexer(pods);
 *   filterPodsByOwner(pods.getIndexer(), rs.metadata, 'ReplicaSet', true);   // its pods and the orphans beside it
 *   informer.getIndexer().byIndex(POD_NODE_NAME_INDEX, 'node-7');
 */
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

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

// controller_utils.go PodControllerIndex (kubernetes#134654, v1.35, picked into 1.33 and 1.34):
// pods by their controller — namespace, kind, name and UID, since an ownerReference matches only
// when all of them do — and orphans by namespace. It replaced 1.33's PodControllerUIDIndex
// (`podControllerUID`, the UID alone, with one global `_ORPHAN_POD` key, made per-namespace by
// kubernetes#132400), which 1.32 did not have.
export const POD_CONTROLLER_INDEX = 'podController';

/** The controller ownerReference (metav1.GetControllerOf). */
function controllerOf(obj: DeepReadonly<KubeObject>): DeepReadonly<OwnerReference> | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

/**
 * PodControllerIndexKey: the key of the pods `ownerReference` controls in `namespace`
 * (`ns/ReplicaSet/web/uid`); without one, the key of the namespace's orphans (`ns`).
 */
export function podControllerIndexKey(
  namespace: string,
  ownerReference?: Pick<DeepReadonly<OwnerReference>, 'kind' | 'name' | 'uid'>,
): string {
  if (ownerReference === undefined) return namespace;
  return `${namespace}/${ownerReference.kind}/${ownerReference.name}/${ownerReference.uid}`;
}

/** AddPodControllerIndexer's function: the pod under its controller's key, or its namespace's orphans'. */
export function podControllerIndexFunc(obj: DeepReadonly<KubeObject>): readonly string[] {
  return [podControllerIndexKey(obj.metadata?.namespace ?? '', controllerOf(obj))];
}

// controller_utils.go PodNodeNameKeyIndex (kubernetes#130864, v1.33): pods by spec.nodeName, so one
// pod informer serves every node agent of a process (KWOK's pod controller looks the node up per
// pod the same way).
export const POD_NODE_NAME_INDEX = 'spec.nodeName';

/** The AddPodNodeNameIndexer function: a bound pod's node; an unbound pod is in no bucket. */
export function podNodeNameIndexFunc(obj: DeepReadonly<KubeObject>): readonly string[] {
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  const node = spec?.nodeName;
  return typeof node === 'string' && node !== '' ? [node] : [];
}

/** What the Add…Indexer helpers need of an informer. */
interface IndexedInformer<T extends KubeObject> {
  addIndexers(indexers: Indexers<T>): void;
  getIndexer(): { getIndexers(): Indexers<T> };
}

/** AddPodControllerIndexer: the controller index, unless the informer has it already (another controller added it). */
export function addPodControllerIndexer<T extends KubeObject>(informer: IndexedInformer<T>): void {
  if (POD_CONTROLLER_INDEX in informer.getIndexer().getIndexers()) return;
  informer.addIndexers({ [POD_CONTROLLER_INDEX]: podControllerIndexFunc });
}

/** What filterPodsByOwner needs of a cache. */
interface ControllerIndex<T> {
  byIndex(indexName: string, indexedValue: string): T[];
}

/**
 * FilterPodsByOwner: the pods `owner` (of kind `ownerKind`) controls, from the controller index —
 * and with `includeOrphanedPods` the orphans of its namespace, which it may adopt. The index
 * function names no kind, so the same index serves any owned kind: the Deployment controller
 * indexes ReplicaSets with it (addPodControllerIndexer on their informer). An owner
 * without namespace, name, uid or kind is refused with controller_utils.go's errors.
 */
export function filterPodsByOwner<T = DeepReadonly<Pod>>(
  podIndexer: ControllerIndex<T>,
  owner: { readonly namespace?: string; readonly name?: string; readonly uid?: string } | undefined,
  ownerKind: string,
  includeOrphanedPods: boolean,
): T[] {
  const { namespace = '', name = '', uid = '' } = owner ?? {};
  if (namespace === '') throw new Error('no owner namespace provided');
  if (name === '') throw new Error('no owner name provided');
  if (uid === '') throw new Error('no owner uid provided');
  if (ownerKind === '') throw new Error('no owner kind provided');
  // Always the owner's key; optionally the unowned one of its namespace.
  const keys = [podControllerIndexKey(namespace, { kind: ownerKind, name, uid })];
  if (includeOrphanedPods) keys.push(podControllerIndexKey(namespace));
  return keys.flatMap((key) => podIndexer.byIndex(POD_CONTROLLER_INDEX, key));
}

/** AddPodNodeNameIndexer: the spec.nodeName index, unless the informer has it already. */
export function addPodNodeNameIndexer<T extends KubeObject>(informer: IndexedInformer<T>): void {
  if (POD_NODE_NAME_INDEX in informer.getIndexer().getIndexers()) return;
  informer.addIndexers({ [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc });
}
