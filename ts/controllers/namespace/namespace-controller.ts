/**
 * The namespace controller (pkg/controller/namespace/namespace_controller.go, v1.32): a namespace
 * marked for deletion is queued (after a grace period, so every apiserver has seen the deletion)
 * and handed to the namespaced resources deleter (resources-deleter.ts), which empties it and then
 * finalizes it; while content remains it comes back after half the deleter's estimate.
 *
 *   const nc = new NamespaceController({ factory, client, resources, clock });
 *   factory.start();
 *   await nc.run();  …  await nc.stop();
 */
import type { Namespace } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES, type ResourceType } from '../../client/resources.js';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
  WorkQueue,
} from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { CustomResourceTypes } from '../framework/crd-resources.js';
import { NAMESPACE_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './resources-deleter.js';

export { FINALIZER_ESTIMATE_SECONDS, FINALIZER_KUBERNETES, ResourcesRemainingError } from './resources-deleter.js';

// namespace_controller.go namespaceDeletionGracePeriod: wait before the first sync of a deletion
// so every apiserver has observed it.
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;
// pkg/controller/namespace/config/v1alpha1/defaults.go (v1.32): --concurrent-namespace-syncs 10.
export const DEFAULT_WORKERS = 10;

// namespace_controller.go nsControllerRateLimiter: 5 ms doubling to 60 s per namespace ("we retry
// namespace deletion at least every minute, never longer"), and 10 qps with a burst of 100 overall.
export const NS_RATE_LIMITER_BASE_DELAY_MS = 5;
export const NS_RATE_LIMITER_MAX_DELAY_MS = 60_000;
export const NS_RATE_LIMITER_QPS = 10;
export const NS_RATE_LIMITER_BURST = 100;

/** nsControllerRateLimiter: the namespace queue's retries, faster than the default controllers' 1000 s cap. */
export function nsControllerRateLimiter(clock: Clock): RateLimiter<string> {
  return new MaxOfRateLimiter<string>(
    new ItemExponentialFailureRateLimiter<string>(NS_RATE_LIMITER_BASE_DELAY_MS, NS_RATE_LIMITER_MAX_DELAY_MS),
    new BucketRateLimiter<string>(NS_RATE_LIMITER_QPS, NS_RATE_LIMITER_BURST, clock),
  );
}

export interface NamespaceControllerOptions {
  /** The shared informers (the namespace informer; the CRD one with `customResources`). */
  factory: SharedInformerFactory;
  /** The controller's own client: the deleter's reads, deletes and finalize. */
  client: Client;
  /** The namespaced resources to remove (one version per group and resource). */
  resources: readonly ResourceType[];
  /** Also the custom resources the Established CRDs serve, followed as they come and go. */
  customResources?: boolean;
  clock?: Clock;
  /** --concurrent-namespace-syncs: run()'s default (10). */
  workers?: number;
  /** Delay before the first sync of a namespace marked for deletion. */
  deletionGracePeriodMs?: number;
  onError?: (err: unknown, namespace: string) => void;
}

export class NamespaceController implements Controller {
  readonly name = NAMESPACE_CONTROLLER;
  private readonly namespaces: Lister<Namespace>;
  private readonly deleter: NamespacedResourcesDeleter;
  private readonly workers: Workers<string>;
  private readonly defaultWorkers: number;

  constructor(options: NamespaceControllerOptions) {
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    const clock = options.clock ?? realClock;
    const graceMs = options.deletionGracePeriodMs ?? NAMESPACE_DELETION_GRACE_PERIOD_MS;
    const onError = options.onError ?? (() => {});
    const queue = new WorkQueue<string>({ clock, rateLimiter: nsControllerRateLimiter(clock) });
    const handlers = new Registrations();
    const informer = options.factory.informerFor(RESOURCES.namespaces);
    this.namespaces = informer.lister();
    // enqueueNamespace: only namespaces marked for deletion, after the grace period.
    const enqueue = (ns: DeepReadonly<Namespace>) => {
      if (ns.metadata?.deletionTimestamp) queue.addAfter(objectKey(ns), graceMs);
    };
    handlers.add(informer, { onAdd: enqueue, onUpdate: (_, ns) => enqueue(ns) });
    const resources =
      options.customResources === true
        ? new CustomResourceTypes(options.factory, options.resources, handlers, {
            namespaced: true,
          }).resources
        : options.resources;
    this.deleter = new NamespacedResourcesDeleter({ client: options.client, resources, clock, onError });
    this.workers = new Workers({
      queue,
      handlers,
      sync: (key) => this.sync(key),
      onError,
      // namespace_controller.go worker: content remains, come back after half the estimate plus a second.
      retryAfter: (err) =>
        err instanceof ResourcesRemainingError ? (Math.floor(err.estimate / 2) + 1) * 1000 : undefined,
    });
  }

  /** Waits for the namespace informer, then runs the workers (--concurrent-namespace-syncs). */
  run(workers = this.defaultWorkers): Promise<void> {
    return this.workers.run(workers);
  }

  stop(): Promise<void> {
    return this.workers.stop();
  }

  /** syncNamespaceFromKey: a namespace gone from the cache is done; otherwise the deleter's pass. */
  async sync(key: string): Promise<void> {
    if (this.namespaces.get(undefined, key) === undefined) return;
    await this.deleter.delete(key);
  }
}
