/**
 * The system namespaces controller (pkg/controlplane/controller/systemnamespaces, v1.32): the
 * namespaces the control plane relies on are created again when missing, checked every minute.
 * `default`, `kube-system` and `kube-public` cannot be deleted at all (NamespaceLifecycle);
 * `kube-node-lease` can, and comes back here once it is gone.
 *
 *   const c = new SystemNamespacesController(loopbackClient, { clock, onError });
 *   await c.run();  …  await c.stop();
 */

import { isAlreadyExists, isNotFound } from '../../api/status.js';
import type { Client } from '../../client/client.js';
import { RESOURCES } from '../../client/resources.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';

// systemnamespaces/controller.go: kube-system, kube-public, kube-node-lease (default comes from the
// kubernetesservice controller's createNamespaceIfNeeded, folded in here).
export const SYSTEM_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
// controlplane: the system namespaces are checked every minute.
export const SYSTEM_NAMESPACES_INTERVAL_MS = 60_000;
// kube-apiserver runs it (no --controllers name); the name its logs carry here.
export const SYSTEM_NAMESPACES_CONTROLLER = 'system-namespaces-controller';

export class SystemNamespacesController implements Controller {
  readonly name = SYSTEM_NAMESPACES_CONTROLLER;
  private cancel: (() => void) | undefined;
  private stopped = false;
  private inFlight: Promise<void> = Promise.resolve();
  private readonly clock: Clock;
  private readonly onError: (err: unknown) => void;

  constructor(
    private readonly client: Client,
    options: { clock?: Clock; onError?: (err: unknown) => void } = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.onError = options.onError ?? (() => {});
  }

  /** Ensures the namespaces once (errors thrown), then every interval in the background. */
  async run(): Promise<void> {
    await this.sync();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.inFlight;
  }

  /** Creates each missing system namespace. */
  async sync(): Promise<void> {
    for (const name of SYSTEM_NAMESPACES) {
      try {
        await this.client.get(RESOURCES.namespaces, undefined, name);
        continue;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      try {
        await this.client.create(RESOURCES.namespaces, undefined, { metadata: { name } });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.cancel = this.clock.setTimer(() => {
      this.inFlight = this.sync()
        .catch((err: unknown) => this.onError(err))
        .finally(() => this.schedule());
    }, SYSTEM_NAMESPACES_INTERVAL_MS);
  }
}
