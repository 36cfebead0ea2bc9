/**
 * The serviceaccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go,
 * v1.32): every Active namespace has a `default` ServiceAccount — made when a namespace appears or
 * becomes Active, and again when it is deleted. The ServiceAccount admission plugin needs it for
 * every pod that names no service account.
 *
 *   const sa = new ServiceAccountsController({ client });
 *   await sa.start();  …  await sa.stop();
 */
import type { KubeObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import { isApiError, isNamespaceTerminating } from '../client/errors.js';
import { objectKey } from '../client/informers/keys.js';
import { SharedIndexInformer as Informer } from '../client/informers/shared-informer.js';
import { RESOURCES } from '../client/resources.js';
import { WorkQueue } from '../client/workqueue.js';
import { type Clock, realClock } from '../sim/clock.js';
import { PerNamespaceRun } from './per-namespace.js';

// DefaultServiceAccountsControllerOptions: the one ServiceAccount every namespace gets.
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];
// kube-controller-manager startServiceAccountController: Run(ctx, 1).
export const DEFAULT_WORKERS = 1;

interface Namespace extends KubeObject {
  status?: { phase?: string };
}

export interface ServiceAccountsControllerOptions {
  client: Client;
  clock?: Clock;
  workers?: number;
  /** The ServiceAccounts to ensure (default: `default`). */
  serviceAccounts?: readonly string[];
  onError?: (err: unknown, namespace: string) => void;
}

export class ServiceAccountsController {
  private readonly client: Client;
  private readonly namespaces: Informer<Namespace>;
  private readonly serviceAccounts: Informer;
  private readonly queue: WorkQueue<string>;
  private readonly ensure: readonly string[];
  private readonly onError: (err: unknown, namespace: string) => void;
  private readonly run: PerNamespaceRun;

  constructor(options: ServiceAccountsControllerOptions) {
    const clock = options.clock ?? realClock;
    this.client = options.client;
    this.ensure = options.serviceAccounts ?? DEFAULT_SERVICE_ACCOUNTS;
    this.onError = options.onError ?? ((err, ns) => console.error(`serviceaccounts controller: ${ns}:`, err));
    this.queue = new WorkQueue<string>({ clock });
    this.namespaces = new Informer<Namespace>(this.client, RESOURCES.namespaces, { clock });
    this.serviceAccounts = new Informer(this.client, RESOURCES.serviceaccounts, { clock });
    const enqueue = (ns: Namespace) => this.queue.add(objectKey(ns));
    this.namespaces.addEventHandler({ onAdd: enqueue, onUpdate: (_, ns) => enqueue(ns) });
    // serviceAccountDeleted: its namespace is looked at again.
    this.serviceAccounts.addEventHandler({
      onDelete: (sa) => {
        if (this.ensure.includes(sa.metadata?.name ?? '')) this.queue.add(sa.metadata?.namespace ?? '');
      },
    });
    this.run = new PerNamespaceRun({
      namespaces: this.namespaces,
      informers: [this.namespaces, this.serviceAccounts],
      queue: this.queue,
      sync: (namespace) => this.sync(namespace),
      onError: (err, namespace) => this.onError(err, namespace),
      workers: options.workers ?? DEFAULT_WORKERS,
    });
  }

  /** Starts the informers and the workers; resolves once the existing namespaces are done once. */
  start(): Promise<void> {
    return this.run.start();
  }

  stop(): Promise<void> {
    return this.run.stop();
  }

  /** syncNamespace: the missing ServiceAccounts of an Active namespace are created. */
  async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.get(undefined, namespace);
    // Inactive (Terminating) namespaces get none.
    if (ns === undefined || (ns.status?.phase ?? 'Active') !== 'Active') return;
    const failures: unknown[] = [];
    for (const name of this.ensure) {
      if (this.serviceAccounts.get(namespace, name) !== undefined) continue;
      try {
        await this.client.create(RESOURCES.serviceaccounts, namespace, { metadata: { name, namespace } });
      } catch (err) {
        // Already there, or the namespace is going away: nothing to make.
        if ((isApiError(err) && err.code === 409) || isNamespaceTerminating(err)) continue;
        failures.push(err);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
