/**
 * kube-controller-manager as a process of its own (`kubewasm controller-manager --kubeconfig FILE`):
 * the controllers of controller-manager.ts against an apiserver it reaches through `connect` — over
 * HTTPS from a kubeconfig, as kubeadm's control-plane static pod runs it — with informers of its
 * own, listing and watching as the controller manager's identity (its `system:kube-controller-manager`
 * role may list and watch everything: "used for start informers"). With leader election on (the
 * default) it leads, or stands by until the leader's Lease lapses.
 *
 *   const remote = loadKubeconfig('.kubewasm/controller-manager.conf');
 *   const cm = await startStandaloneControllerManager({ connect: (t) => remoteTransport(remote, t), token: remote.token, options });
 */
import { createClient } from '../client/client.js';
import { SharedInformerFactory } from '../client/informers/factory.js';
import type { BearerToken, Transport } from '../client/transport.js';
import type { ControllerManagerOptions } from '../controllers/framework/context.js';
import { type Clock, realClock } from '../sim/clock.js';
import { discardLogger, type Logger } from '../sim/logger.js';
import { servedResources } from './cluster.js';
import { type RunningControllerManager, startControllerManager, trimManagedFields } from './controller-manager.js';

export interface StandaloneControllerManagerOptions {
  /** A transport to the apiserver with a bearer token (node-remote.ts remoteTransport). */
  connect: (token: BearerToken) => Transport;
  /** The controller manager's own token (its kubeconfig user's). */
  token: string;
  options: ControllerManagerOptions;
  clock?: Clock;
  logger?: Logger;
  readinessTimeoutMs?: number;
  /** The Lease was lost and the controllers stopped (controller-manager.ts). */
  onLeaderElectionLost?: () => void;
}

/** Starts the informers' factory and the controller manager on it; stop() ends both. */
export async function startStandaloneControllerManager(
  options: StandaloneControllerManagerOptions,
): Promise<RunningControllerManager> {
  const clock = options.clock ?? realClock;
  const logger = options.logger ?? discardLogger;
  // controllermanager.go CreateControllerContext: rootClientBuilder.ClientOrDie("shared-informers"),
  // objects trimmed of their managedFields before they are cached.
  const informers = new SharedInformerFactory(createClient(options.connect(options.token)), {
    clock,
    transform: trimManagedFields,
    onError: (err, gvr) => logger.withName('shared-informers').error(err, 'list or watch failed', { ...gvr }),
  });
  let manager: RunningControllerManager;
  try {
    manager = await startControllerManager({
      connect: options.connect,
      token: options.token,
      informers,
      options: options.options,
      // The resources of the kubewasm API this client is built with (ts/api/resources.ts), custom
      // ones followed through their CRDs: kube-controller-manager reads the same from discovery.
      resources: servedResources(),
      clock,
      logger,
      ...(options.readinessTimeoutMs === undefined ? {} : { readinessTimeoutMs: options.readinessTimeoutMs }),
      ...(options.onLeaderElectionLost === undefined ? {} : { onLeaderElectionLost: options.onLeaderElectionLost }),
    });
  } catch (err) {
    await informers.shutdown();
    throw err;
  }
  return {
    get controllers() {
      return manager.controllers;
    },
    async stop() {
      await manager.stop();
      await informers.shutdown();
    },
  };
}
