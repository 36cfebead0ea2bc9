/**
 * The run of the controllers that keep something in every namespace — the serviceaccounts
 * controller (pkg/controller/serviceaccount/serviceaccounts_controller.go) and the root CA
 * publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go), v1.32: a queue of
 * namespace names fed by the shared namespace informer (namespaceAdded; namespaceUpdated when the
 * controller takes the update) and by whatever else the controller watches, workers that sync
 * one namespace at a time. run() resolves once every namespace that exists has been synced once,
 * so that what pods need is there as soon as the controller runs.
 *
 *   const loop = new NamespaceWorkers({ factory, clock, sync: (ns) => this.sync(ns), onError });
 *   loop.watch(serviceAccounts, { onDelete: (sa) => loop.enqueue(sa.metadata?.namespace ?? '') });
 *   await loop.run(1);  …  await loop.stop();
 */
import type { KubeObject } from '../../api/meta.js';
import type { Namespace } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey } from '../../client/informers/keys.js';
import type { EventHandler, SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { Registrations, Workers } from './workers.js';

export interface NamespaceWorkersOptions {
  /** The shared informers: namespaces, and what the controller watches besides. */
  factory: SharedInformerFactory;
  clock?: Clock;
  /** syncNamespace: reconciles one namespace (by name). */
  sync(namespace: string): Promise<void>;
  /** A failed sync (utilruntime.HandleError); the namespace comes back rate-limited. */
  onError?: (err: unknown, namespace: string) => void;
  /** namespaceUpdated: whether an updated namespace is synced again (default: always). */
  syncUpdated?: (ns: DeepReadonly<Namespace>) => boolean;
}

export class NamespaceWorkers {
  /** The shared namespace informer (its lister is the controllers' view of namespaces). */
  readonly namespaces: SharedIndexInformer<Namespace>;
  private readonly queue: WorkQueue<string>;
  private readonly handlers = new Registrations();
  private readonly workers: Workers<string>;

  constructor(options: NamespaceWorkersOptions) {
    this.queue = new WorkQueue<string>({ clock: options.clock ?? realClock });
    this.namespaces = options.factory.informerFor(RESOURCES.namespaces);
    const syncUpdated = options.syncUpdated ?? (() => true);
    this.handlers.add(this.namespaces, {
      onAdd: (ns) => this.queue.add(objectKey(ns)),
      onUpdate: (_, ns) => {
        if (syncUpdated(ns)) this.queue.add(objectKey(ns));
      },
    });
    this.workers = new Workers({
      queue: this.queue,
      handlers: this.handlers,
      sync: options.sync,
      onError: options.onError ?? (() => {}),
      firstPass: () => this.namespaces.getIndexer().listKeys(),
    });
  }

  /** Another informer whose events bring namespaces back (call before run()). */
  watch<T extends KubeObject>(informer: SharedIndexInformer<T>, handler: EventHandler<T>): void {
    this.handlers.add(informer, handler);
  }

  enqueue(namespace: string): void {
    if (namespace !== '') this.queue.add(namespace);
  }

  /** Waits for the informers, syncs every namespace once, then runs `workers` workers. */
  run(workers: number): Promise<void> {
    return this.workers.run(workers);
  }

  stop(): Promise<void> {
    return this.workers.stop();
  }
}
