/**
 * The event storage (pkg/registry/core/event/storage/storage.go, strategy.go, v1.32): events expire
 * an hour after they are written (--event-ttl), and opt out of garbage collection.
 */
import type { ResourceStrategy } from '../../strategy.js';

/** kube-apiserver's --event-ttl default, 1h (pkg/kubeapiserver/options ServerRunOptions.EventTTL). */
export const EVENT_TTL_SECONDS = 3600;

export const eventStrategy: ResourceStrategy = {
  ttlSeconds: EVENT_TTL_SECONDS,
  // eventStrategy.DefaultGarbageCollectionPolicy: Unsupported, no orphan / foregroundDeletion finalizers.
  defaultGarbageCollectionPolicy: () => 'Unsupported',
};
