/**
 * What `kubewasm up` runs beside the apiserver: the --service-cluster-ip-range /
 * --service-node-port-range flags and kube-apiserver's own controllers on the loopback client
 * (kubernetesservice: the `kubernetes` Service at the range's first address, its Endpoints and
 * EndpointSlice; systemnamespaces), and kube-controller-manager — its --controllers,
 * --resource-quota-sync-period — with one shared informer factory (listing and watching with the
 * controller manager's own credential) and the controllers of controllers/controller-descriptors.ts,
 * each with its own ServiceAccount's client.
 */
import { IpRange } from '../apiserver/allocators/ip-range.js';
import { parsePortRange } from '../apiserver/allocators/port-range.js';
import {
  DEFAULT_SERVICE_CLUSTER_IP_RANGE,
  DEFAULT_SERVICE_NODE_PORT_RANGE,
} from '../apiserver/allocators/service-allocation.js';
import { parseGoDuration } from '../apiserver/protection.js';
import { RESOURCES } from '../apiserver/resources.js';
import type { Client } from '../client/client.js';
import { SharedInformerFactory } from '../client/informers/factory.js';
import type { ResourceType } from '../client/resources.js';
import { newControllerDescriptors } from '../controllers/controller-descriptors.js';
import type { ControllerManagerOptions } from '../controllers/framework/context.js';
import type { Logger } from '../controllers/framework/logger.js';
import { ControllerManager, parseControllers, splitControllersFlag } from '../controllers/framework/manager.js';
import { KubernetesServiceController } from '../controllers/kubernetesservice/kubernetes-service-controller.js';
import { SystemNamespacesController } from '../controllers/systemnamespaces/system-namespaces-controller.js';
import { realClock } from '../sim/clock.js';
import type { Flags } from './flags.js';

export const SERVICE_FLAG_SPEC = {
  'service-cluster-ip-range': 'string',
  'service-node-port-range': 'string',
} as const;

export const SERVICE_FLAG_USAGE = `  --service-cluster-ip-range CIDR   ClusterIPs for Services (default ${DEFAULT_SERVICE_CLUSTER_IP_RANGE}, IPv4)
  --service-node-port-range RANGE   NodePorts for Services (default ${DEFAULT_SERVICE_NODE_PORT_RANGE})`;

export interface ServiceRanges {
  serviceClusterIPRange: string;
  serviceNodePortRange: string;
}

/** kube-controller-manager's flags that `kubewasm up` takes. */
export const CONTROLLER_MANAGER_FLAG_SPEC = {
  controllers: 'string',
  'resource-quota-sync-period': 'string',
} as const;

export const CONTROLLER_MANAGER_FLAG_USAGE = `  --controllers LIST                kube-controller-manager's controllers to run (default *): '*' all
                                    on by default, 'foo' enables, '-foo' disables; all controllers:
                                    ${newControllerDescriptors().knownControllers().join(', ')}
  --resource-quota-sync-period D    full recalculation of quota usage (default 5m0s)`;

/** The controller manager's options from the flags, checked (throws with kube-controller-manager's reason). */
export function controllerManagerOptions(
  flags: Flags,
): Pick<ControllerManagerOptions, 'controllers' | 'resourceQuotaSyncPeriodMs'> {
  const value = flags.values.controllers;
  // --controllers default: ["*"].
  const controllers =
    value === undefined ? ['*'] : parseControllers(splitControllersFlag(String(value)), newControllerDescriptors());
  const quotaSync = flags.values['resource-quota-sync-period'];
  if (quotaSync === undefined) return { controllers };
  const resourceQuotaSyncPeriodMs = parseGoDuration(String(quotaSync));
  if (resourceQuotaSyncPeriodMs <= 0) {
    throw new Error(`--resource-quota-sync-period ${String(quotaSync)} must be positive`);
  }
  return { controllers, resourceQuotaSyncPeriodMs };
}

/** The ranges from the flags, checked (throws with the reason). */
export function serviceRanges(flags: Flags): ServiceRanges {
  const serviceClusterIPRange = String(flags.values['service-cluster-ip-range'] ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE);
  const serviceNodePortRange = String(flags.values['service-node-port-range'] ?? DEFAULT_SERVICE_NODE_PORT_RANGE);
  const ips = IpRange.parse(serviceClusterIPRange);
  if (ips.free() < 1) throw new Error(`--service-cluster-ip-range ${serviceClusterIPRange} holds no usable address`);
  parsePortRange(serviceNodePortRange);
  return { serviceClusterIPRange, serviceNodePortRange };
}

/**
 * The served resources that can be listed, one (the preferred) version per group and resource: the
 * garbage collector and the namespace deleter select resources by their verbs, so create-only ones
 * (access reviews) are left out.
 */
export function servedResources(): ResourceType[] {
  const seen = new Set<string>();
  const out: ResourceType[] = [];
  for (const r of RESOURCES) {
    if (r.verbs !== undefined && !r.verbs.includes('list')) continue;
    const key = `${r.group}/${r.resource}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ group: r.group, version: r.version, resource: r.resource, kind: r.kind, namespaced: r.namespaced });
  }
  return out;
}

export interface Controllers {
  stop(): Promise<void>;
}

/** Log lines to stderr as `kubewasm <component>: <message>: <error>`; informational ones are not printed. */
function stderrLogger(component: string): Logger {
  return {
    info() {},
    error: (err, message) => console.error(`kubewasm ${component}: ${message}: ${String(err)}`),
    withName: (name) => stderrLogger(name),
  };
}

/**
 * Starts kube-apiserver's controllers (kubernetesservice, systemnamespaces) and the controller
 * manager's enabled ones; resolves once every one runs (the per-namespace ones have made what
 * each namespace needs).
 */
export async function startControllers(options: {
  /** The loopback client (system:apiserver): for the controllers that run inside kube-apiserver itself. */
  client: Client;
  /** The controller manager's own client (system:kube-controller-manager): the shared informers list and watch with it. */
  informersClient: Client;
  /**
   * A kube-controller-manager controller's client, as its own ServiceAccount in kube-system
   * (--use-service-account-credentials): `controllerClient('namespace-controller')`.
   */
  controllerClient: (serviceAccount: string) => Promise<Client>;
  ranges: ServiceRanges;
  /** --controllers and the controllers' flags. */
  controllerManager: Pick<ControllerManagerOptions, 'controllers' | 'resourceQuotaSyncPeriodMs'>;
  /** The apiserver's advertised address (advertise-address.ts); none: the Endpoints are not written. */
  advertiseAddress: string | undefined;
  port: number;
  /** The cluster CA (PEM) the root-ca-cert-publisher puts in every namespace. */
  rootCA?: string;
}): Promise<Controllers> {
  const kubernetesService = new KubernetesServiceController({
    client: options.client,
    clusterIP: IpRange.parse(options.ranges.serviceClusterIPRange).indexed(1),
    ...(options.advertiseAddress === undefined ? {} : { publicIP: options.advertiseAddress }),
    port: options.port,
    clock: realClock,
    onError: (err) => console.error(`kubewasm kubernetesservice: ${String(err)}`),
  });
  await kubernetesService.run();
  const systemNamespaces = new SystemNamespacesController(options.client, {
    clock: realClock,
    onError: (err) => console.error(`kubewasm system namespaces: ${String(err)}`),
  });
  await systemNamespaces.run();
  // kube-controller-manager: one factory for every controller (rootClientBuilder's "shared-informers").
  const informerFactory = new SharedInformerFactory(options.informersClient, {
    clock: realClock,
    onError: (err, gvr) => console.error(`kubewasm shared informers: ${gvr.resource}: ${String(err)}`),
  });
  const manager = new ControllerManager(newControllerDescriptors(), {
    informerFactory,
    clientBuilder: { client: options.controllerClient },
    clock: realClock,
    logger: stderrLogger('kube-controller-manager'),
    options: {
      ...options.controllerManager,
      ...(options.rootCA === undefined ? {} : { rootCA: options.rootCA }),
    },
    resources: servedResources(),
  });
  await manager.start();
  return {
    async stop() {
      await manager.stop();
      await informerFactory.shutdown();
      await systemNamespaces.stop();
      await kubernetesService.stop();
    },
  };
}
