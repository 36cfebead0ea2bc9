/**
 * FilteringResourceEventHandler (client-go tools/cache/controller.go at v0.32): a handler that sees
 * only the objects `filter` accepts, so several views of one informer — kube-scheduler's assigned
 * pods for its cache and unassigned pods of its own for its queue — share one watch and one cache.
 * An update across the filter's edge becomes an add (now accepted) or a delete (no longer accepted).
 *
 *   pods.addEventHandler(filteringHandler((p) => p.spec?.nodeName !== undefined, { onAdd, onUpdate, onDelete }));
 */
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { EventHandler } from './shared-informer.js';

export function filteringHandler<T>(
  filter: (obj: DeepReadonly<T>) => boolean,
  handler: EventHandler<T>,
): EventHandler<T> {
  return {
    onAdd(obj, isInInitialList) {
      if (filter(obj)) handler.onAdd?.(obj, isInInitialList);
    },
    onUpdate(oldObj, newObj) {
      const newer = filter(newObj);
      const older = filter(oldObj);
      if (newer && older) handler.onUpdate?.(oldObj, newObj);
      else if (newer) handler.onAdd?.(newObj, false);
      else if (older) handler.onDelete?.(oldObj);
    },
    onDelete(obj) {
      if (filter(obj)) handler.onDelete?.(obj);
    },
  };
}
