/**
 * The run every queue-driven controller of pkg/controller shares: its event handlers on shared
 * informers (which only enqueue keys), WaitForNamedCacheSync on them, then `workers` workers each
 * taking a key at a time (processNextWorkItem: sync, forget on success, rate-limited re-add on
 * failure) until the queue shuts down.
 *
 *   const handlers = new Registrations();
 *   handlers.add(namespaces, { onAdd: (ns) => queue.add(objectKey(ns)) });
 *   const workers = new Workers({ queue, handlers, sync: (key) => this.sync(key), onError });
 *   await workers.run(5);  …  await workers.stop();
 *
 * run() is called once (a second call rejects; one after stop() does nothing); stop() waits for
 * what run() is in the middle of — the cache wait, a key of the first pass — and for every worker.
 */

import type { KubeObject } from '../../api/meta.js';
import type {
  EventHandler,
  EventHandlerRegistration,
  SharedIndexInformer,
} from '../../client/informers/shared-informer.js';
import { runWorker, type WorkQueue } from '../../client/workqueue.js';

/** A controller's event handler registrations: synced together, removed together. */
export class Registrations {
  private readonly entries: Array<{
    informer: { removeEventHandler(r: EventHandlerRegistration): void };
    registration: EventHandlerRegistration;
  }> = [];

  /** Registers `handler` on `informer`. */
  add<T extends KubeObject>(informer: SharedIndexInformer<T>, handler: EventHandler<T>): EventHandlerRegistration {
    const registration = informer.addEventHandler(handler);
    this.entries.push({ informer, registration });
    return registration;
  }

  /** WaitForCacheSync: true once every registration has synced, false if an informer stopped first. */
  async synced(): Promise<boolean> {
    const results = await Promise.all(this.entries.map((e) => e.registration.synced()));
    return results.every(Boolean);
  }

  removeAll(): void {
    for (const { informer, registration } of this.entries.splice(0)) informer.removeEventHandler(registration);
  }
}

export interface WorkersOptions<K> {
  queue: WorkQueue<K>;
  /** The controller's handlers: run() waits for them to sync; stop() removes them. */
  handlers: Registrations;
  /** Reconciles one key from the listers. */
  sync(key: K): Promise<void>;
  /** A failed sync (utilruntime.HandleError). */
  onError(err: unknown, key: K): void;
  /** Keys synced once, in order, before run() resolves (e.g. every namespace that exists). */
  firstPass?: () => readonly K[];
  /**
   * The retry of a failed sync when it is not the rate-limited re-add: a delay in ms (the key is
   * added after it and not forgotten, nor reported), or undefined for the usual path.
   */
  retryAfter?: (err: unknown, key: K) => number | undefined;
  /**
   * handleErr's retry budget (the endpoint controllers' maxRetries): a key that has already been
   * re-added this many times in a row (numRequeues) is forgotten and reported, not re-added.
   */
  maxRetries?: number;
}

export class Workers<K> {
  /** The one run() call, while or after it runs. */
  private runCall: Promise<void> | undefined;
  private running: Promise<void>[] = [];
  private stopped = false;
  private signalStop: (() => void) | undefined;
  private readonly stopping = new Promise<boolean>((resolve) => {
    this.signalStop = () => resolve(false);
  });

  constructor(private readonly options: WorkersOptions<K>) {}

  /** Waits for the caches, does the first pass, starts the workers; resolves once they run. */
  run(workers: number): Promise<void> {
    if (this.runCall !== undefined) return Promise.reject(new Error('the workers have already been run'));
    this.runCall = this.runOnce(workers);
    return this.runCall;
  }

  private async runOnce(workers: number): Promise<void> {
    const { handlers, queue, firstPass } = this.options;
    const synced = await Promise.race([handlers.synced(), this.stopping]);
    if (!synced || this.stopped) return;
    for (const key of firstPass?.() ?? []) {
      if (this.stopped) return;
      await this.syncOnce(key);
    }
    if (this.stopped) return;
    for (let i = 0; i < workers; i++) this.running.push(this.worker(queue));
  }

  /**
   * Shuts the queue down, removes the handlers; resolves once run() has returned (a first-pass key
   * in flight finished) and every worker has finished its key.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.signalStop?.();
    this.options.queue.shutDown();
    this.options.handlers.removeAll();
    // run() reports its own failure to its caller; here it is only waited for.
    await this.runCall?.catch(() => {});
    await Promise.all(this.running);
    this.running = [];
  }

  private async syncOnce(key: K): Promise<void> {
    try {
      await this.options.sync(key);
    } catch (err) {
      this.options.onError(err, key);
    }
  }

  private worker(queue: WorkQueue<K>): Promise<void> {
    const { sync, onError, retryAfter, maxRetries } = this.options;
    if (retryAfter === undefined && maxRetries === undefined) return runWorker(queue, sync, onError);
    return (async () => {
      for (;;) {
        const key = await queue.get();
        if (key === undefined) return;
        try {
          await sync(key);
          queue.forget(key);
        } catch (err) {
          const delay = retryAfter?.(err, key);
          if (delay !== undefined) {
            queue.addAfter(key, delay);
          } else if (maxRetries !== undefined && queue.numRequeues(key) >= maxRetries) {
            // Dropped out of the queue: the next event about the key brings it back.
            queue.forget(key);
            onError(err, key);
          } else {
            onError(err, key);
            queue.addRateLimited(key);
          }
        } finally {
          queue.done(key);
        }
      }
    })();
  }
}
