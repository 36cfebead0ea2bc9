/**
 * What kube-apiserver does once it serves, before anything else may rely on it — its post-start
 * hooks and the controllers that run inside it (pkg/controlplane/instance.go and the storage
 * providers' PostStartHooks, v1.32), all as the loopback `system:apiserver`:
 *
 *   start-system-namespaces-controller      default, kube-system, kube-public, kube-node-lease —
 *                                           created here, once, and kept by that controller
 *   scheduling/bootstrap-system-priority-classes   system-node-critical, system-cluster-critical
 *   rbac/bootstrap-roles                    the default cluster roles and bindings, reconciled
 *   bootstrap-controller (kubernetesservice) the `kubernetes` Service and its endpoints — started
 *                                           once the serving address and port are known
 */

import { isAlreadyExists } from '../api/status.js';
import { reconcileBootstrapPolicy } from '../apiserver/auth/bootstrap-policy.js';
import { SYSTEM_PRIORITY_CLASSES } from '../apiserver/registry/scheduling/priorityclasses/strategy.js';
import type { ApiServer } from '../apiserver/server.js';
import type { Client } from '../client/client.js';
import { RESOURCES } from '../client/resources.js';
import { KubernetesServiceController } from '../controllers/kubernetesservice/kubernetes-service-controller.js';
import { SystemNamespacesController } from '../controllers/systemnamespaces/system-namespaces-controller.js';
import type { Clock } from '../sim/clock.js';
import type { Logger } from '../sim/logger.js';

export interface PostStartOptions {
  api: ApiServer;
  /** The loopback client (system:apiserver). */
  loopback: Client;
  loopbackToken: string;
  clock: Clock;
  logger: Logger;
}

/** The running parts the hooks left behind (the controllers inside kube-apiserver). */
export interface PostStart {
  stop(): Promise<void>;
}

/** Runs the hooks in order; resolves once the system namespaces, priority classes and RBAC policy are in place. */
export async function runPostStartHooks(options: PostStartOptions): Promise<PostStart> {
  const { loopback, clock, logger } = options;
  const systemNamespaces = new SystemNamespacesController(loopback, {
    clock,
    onError: (err) => logger.withName('system-namespaces-controller').error(err, 'ensuring the system namespaces'),
  });
  // Its first pass creates the namespaces (and throws if it cannot); then every minute.
  await systemNamespaces.run();

  const priorityLog = logger.withName('scheduling/bootstrap-system-priority-classes');
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    try {
      await loopback.create(RESOURCES.priorityclasses, undefined, pc);
    } catch (err) {
      if (!isAlreadyExists(err)) priorityLog.error(err, 'creating a system priority class');
    }
  }

  const rbacLog = logger.withName('rbac/bootstrap-roles');
  const base = 'https://kubernetes.default.svc';
  for (const failure of await reconcileBootstrapPolicy((req) => options.api.handle(req), base, options.loopbackToken)) {
    rbacLog.error(new Error(failure), 'reconciling the bootstrap policy');
  }
  return { stop: () => systemNamespaces.stop() };
}

export interface KubernetesServiceOptions {
  loopback: Client;
  /** The Service's ClusterIP: the first address of --service-cluster-ip-range. */
  clusterIP: string;
  /** --advertise-address; none: only the Service is kept, no Endpoints. */
  advertiseAddress: string | undefined;
  /** The port the apiserver serves on. */
  port: number;
  clock: Clock;
  logger: Logger;
}

/** kube-apiserver's bootstrap controller: the `kubernetes` Service and its endpoints, kept from now on. */
export async function startKubernetesService(options: KubernetesServiceOptions): Promise<PostStart> {
  const log = options.logger.withName('kubernetes-service-controller');
  const controller = new KubernetesServiceController({
    client: options.loopback,
    clusterIP: options.clusterIP,
    ...(options.advertiseAddress === undefined ? {} : { publicIP: options.advertiseAddress }),
    port: options.port,
    clock: options.clock,
    onError: (err) => log.error(err, 'reconciling the kubernetes service'),
  });
  await controller.run();
  return { stop: () => controller.stop() };
}
