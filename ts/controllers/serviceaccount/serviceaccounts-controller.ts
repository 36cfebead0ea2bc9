/**
 * The serviceaccounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go,
 * v1.32): every Active namespace has a `default` ServiceAccount — made when a namespace appears or
 * becomes Active, and again when it is deleted. The ServiceAccount admission plugin needs it for
 * every pod that names no service account.
 *
 *   const sa = new ServiceAccountsController({ factory, client });
 *   factory.start();
 *   await sa.run();  …  await sa.stop();
 *
 * run() resolves once every namespace that exists has been synced once, so that pods can be made
 * as soon as the controllers are up (framework/namespace-workers.ts).
 */

import { hasStatusCause, isAlreadyExists, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { Namespace, ServiceAccount } from '../../api/types/core/v1.js';
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { SERVICE_ACCOUNT_CONTROLLER } from '../framework/names.js';
import { NamespaceWorkers } from '../framework/namespace-workers.js';

// DefaultServiceAccountsControllerOptions: the one ServiceAccount every namespace gets.
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];
// kube-controller-manager startServiceAccountController: Run(ctx, 1).
export const DEFAULT_WORKERS = 1;

export interface ServiceAccountsControllerOptions {
  /** The shared informers: namespaces and serviceaccounts. */
  factory: SharedInformerFactory;
  /** The controller's own client: the creates. */
  client: Client;
  clock?: Clock;
  /** The ServiceAccounts to ensure (default: `default`). */
  serviceAccounts?: readonly string[];
  onError?: (err: unknown, namespace: string) => void;
}

export class ServiceAccountsController implements Controller {
  readonly name = SERVICE_ACCOUNT_CONTROLLER;
  private readonly client: Client;
  private readonly namespaces: Lister<Namespace>;
  private readonly serviceAccounts: Lister<ServiceAccount>;
  private readonly ensure: readonly string[];
  private readonly loop: NamespaceWorkers;

  constructor(options: ServiceAccountsControllerOptions) {
    this.client = options.client;
    this.ensure = options.serviceAccounts ?? DEFAULT_SERVICE_ACCOUNTS;
    // namespaceAdded, namespaceUpdated: every namespace that appears or changes.
    this.loop = new NamespaceWorkers({
      factory: options.factory,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      sync: (namespace) => this.sync(namespace),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    this.namespaces = this.loop.namespaces.lister();
    const serviceAccounts = options.factory.informerFor(RESOURCES.serviceaccounts);
    this.serviceAccounts = serviceAccounts.lister();
    // serviceAccountDeleted: its namespace is looked at again.
    this.loop.watch(serviceAccounts, {
      onDelete: (sa) => {
        if (this.ensure.includes(sa.metadata?.name ?? '')) this.loop.enqueue(sa.metadata?.namespace ?? '');
      },
    });
  }

  /** Waits for the informers, syncs every namespace once, then runs the workers. */
  run(workers = DEFAULT_WORKERS): Promise<void> {
    return this.loop.run(workers);
  }

  stop(): Promise<void> {
    return this.loop.stop();
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
        if (isAlreadyExists(err) || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) continue;
        failures.push(err);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
