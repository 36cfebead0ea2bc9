/**
 * Listers (client-go tools/cache/listers.go at v0.32: ListAll, ListAllByNamespace, the generic
 * lister): reads of an informer's cache by label selector, namespace and name, answered from
 * memory — the namespace index when the informer has it — as read-only views of the shared
 * objects.
 *
 *   const pods = factory.informerFor(RESOURCES.pods).lister();
 *   pods.byNamespace('default').list(parseLabelSelector('app=web'));
 *   pods.get('default', 'web-0');
 *
 * Difference: `get` answers undefined for an object not in the cache, where client-go's listers
 * return a NotFound error.
 */

import { Selector } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/meta.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { NAMESPACE_INDEX } from './index-funcs.js';
import { keyOf } from './keys.js';
import type { Indexer } from './thread-safe-store.js';

/** ListAll: the cached objects whose labels `selector` matches (all of them for an empty one). */
function listAll<T extends KubeObject>(objects: readonly DeepReadonly<T>[], selector: Selector): DeepReadonly<T>[] {
  // Everything: no labels to read (the common list-all path).
  if (selector.empty()) return [...objects];
  return objects.filter((o) => selector.matches(o.metadata?.labels ?? {}));
}

/** GenericNamespaceLister: one namespace of the cache. */
export class NamespaceLister<T extends KubeObject> {
  constructor(
    private readonly indexer: Indexer<T>,
    readonly namespace: string,
  ) {}

  /** ListAllByNamespace: through the namespace index, or a scan of the cache when there is none. */
  list(selector: Selector = Selector.everything()): DeepReadonly<T>[] {
    if (this.namespace === '') return listAll(this.indexer.list(), selector);
    const indexed = NAMESPACE_INDEX in this.indexer.getIndexers();
    const objects = indexed
      ? this.indexer.byIndex(NAMESPACE_INDEX, this.namespace)
      : this.indexer.list().filter((o) => (o.metadata?.namespace ?? '') === this.namespace);
    return listAll(objects, selector);
  }

  get(name: string): DeepReadonly<T> | undefined {
    return this.indexer.getByKey(keyOf(this.namespace, name));
  }
}

/** GenericLister: the whole cache. */
export class Lister<T extends KubeObject> {
  constructor(private readonly indexer: Indexer<T>) {}

  /** Every cached object (in every namespace) whose labels `selector` matches. */
  list(selector: Selector = Selector.everything()): DeepReadonly<T>[] {
    return listAll(this.indexer.list(), selector);
  }

  /** The object `name` in `namespace` (undefined or '' for a cluster-scoped one). */
  get(namespace: string | undefined, name: string): DeepReadonly<T> | undefined {
    return this.indexer.getByKey(keyOf(namespace, name));
  }

  /** The lister of one namespace ('' is every namespace, as metav1.NamespaceAll). */
  byNamespace(namespace: string): NamespaceLister<T> {
    return new NamespaceLister<T>(this.indexer, namespace);
  }
}
