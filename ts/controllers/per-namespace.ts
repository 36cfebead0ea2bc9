/**
 * The run of a controller that keeps something in every namespace (service-account.ts: the
 * `default` ServiceAccount; root-ca-publisher.ts: `kube-root-ca.crt`), keyed by namespace name:
 * its informers started and synced, every namespace synced once before start() resolves (so that
 * pods can be made as soon as it does), then the workers on the queue.
 *
 *   const run = new PerNamespaceRun({ namespaces, informers: [namespaces, kept], queue, sync, onError, workers });
 *   await run.start();  …  await run.stop();
 */
import { runWorker, type WorkQueue } from '../client/workqueue.js';

interface Startable {
  start(): void;
  synced(): Promise<unknown>;
  stop(): Promise<void>;
}

export interface PerNamespaceRunOptions {
  /** The namespace informer: its keys are the first pass. */
  namespaces: { keys(): string[] };
  /** Every informer of the controller, the namespace one included. */
  informers: readonly Startable[];
  queue: WorkQueue<string>;
  sync: (namespace: string) => Promise<void>;
  onError: (err: unknown, namespace: string) => void;
  workers: number;
}

export class PerNamespaceRun {
  private running: Promise<void>[] = [];

  constructor(private readonly options: PerNamespaceRunOptions) {}

  /** Starts the informers and the workers; resolves once the existing namespaces are done once. */
  async start(): Promise<void> {
    const { namespaces, informers, queue, sync, onError, workers } = this.options;
    for (const i of informers) i.start();
    await Promise.all(informers.map((i) => i.synced()));
    for (const key of namespaces.keys()) {
      try {
        await sync(key);
      } catch (err) {
        onError(err, key);
      }
    }
    for (let i = 0; i < workers; i++) this.running.push(runWorker(queue, sync, onError));
  }

  async stop(): Promise<void> {
    this.options.queue.shutDown();
    await Promise.all(this.options.informers.map((i) => i.stop()));
    await Promise.all(this.running);
    this.running = [];
  }
}
