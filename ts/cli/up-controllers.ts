/**
 * What `kubewasm up` runs beside the apiserver for services and namespaces: the
 * --service-cluster-ip-range / --service-node-port-range flags, the kubernetesservice controller
 * (the `kubernetes` Service at the range's first address, its Endpoints and EndpointSlice), the
 * namespace controller, the garbage collector and the system namespaces controller, all on the
 * in-process client.
 */

import { parseGoDuration } from '../api/go-duration.js';
import { IpRange } from '../apiserver/allocators/ip-range.js';
import { parsePortRange } from '../apiserver/allocators/port-range.js';
import {
  DEFAULT_SERVICE_CLUSTER_IP_RANGE,
  DEFAULT_SERVICE_NODE_PORT_RANGE,
} from '../apiserver/allocators/service-allocation.js';
import { RESOURCES } from '../apiserver/registry/resources.js';
import type { Client } from '../client/client.js';
import type { ResourceType } from '../client/resources.js';
import { CustomResourceTypes } from '../controllers/crd-resources.js';
import { GarbageCollector } from '../controllers/garbage-collector.js';
import { KubernetesServiceController } from '../controllers/kubernetes-service.js';
import { NamespaceController } from '../controllers/namespace.js';
import { ResourceQuotaController } from '../controllers/resource-quota.js';
import { RootCAPublisher } from '../controllers/root-ca-publisher.js';
import { ServiceAccountsController } from '../controllers/service-account.js';
import { SystemNamespacesController } from '../controllers/system-namespaces.js';
import { realClock } from '../sim/clock.js';
import type { Flags } from './flags.js';

export const SERVICE_FLAG_SPEC = {
  'service-cluster-ip-range': 'string',
  'service-node-port-range': 'string',
  'resource-quota-sync-period': 'string',
} as const;

export const SERVICE_FLAG_USAGE = `  --service-cluster-ip-range CIDR   ClusterIPs for Services (default ${DEFAULT_SERVICE_CLUSTER_IP_RANGE}, IPv4)
  --service-node-port-range RANGE   NodePorts for Services (default ${DEFAULT_SERVICE_NODE_PORT_RANGE})
  --resource-quota-sync-period D    full recalculation of quota usage (default 5m0s)`;

export interface ServiceRanges {
  serviceClusterIPRange: string;
  serviceNodePortRange: string;
  /** --resource-quota-sync-period in ms (kube-controller-manager's flag, default 5m0s). */
  resourceQuotaSyncPeriodMs?: number;
}

/** The ranges from the flags, checked (throws with the reason). */
export function serviceRanges(flags: Flags): ServiceRanges {
  const serviceClusterIPRange = String(flags.values['service-cluster-ip-range'] ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE);
  const serviceNodePortRange = String(flags.values['service-node-port-range'] ?? DEFAULT_SERVICE_NODE_PORT_RANGE);
  const ips = IpRange.parse(serviceClusterIPRange);
  if (ips.free() < 1) throw new Error(`--service-cluster-ip-range ${serviceClusterIPRange} holds no usable address`);
  parsePortRange(serviceNodePortRange);
  const quotaSync = flags.values['resource-quota-sync-period'];
  if (quotaSync === undefined) return { serviceClusterIPRange, serviceNodePortRange };
  const resourceQuotaSyncPeriodMs = parseGoDuration(String(quotaSync));
  if (resourceQuotaSyncPeriodMs <= 0) {
    throw new Error(`--resource-quota-sync-period ${String(quotaSync)} must be positive`);
  }
  return { serviceClusterIPRange, serviceNodePortRange, resourceQuotaSyncPeriodMs };
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

/** Starts the kubernetesservice and namespace controllers. */
export async function startControllers(options: {
  /** The loopback client (system:apiserver): for the controllers that run inside kube-apiserver itself. */
  client: Client;
  /**
   * A kube-controller-manager controller's client, as its own ServiceAccount in kube-system
   * (--use-service-account-credentials): `controllerClient('namespace-controller')`.
   */
  controllerClient: (serviceAccount: string) => Promise<Client>;
  ranges: ServiceRanges;
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
  await kubernetesService.start();
  // The namespaced types to empty a deleted namespace of: the built-in ones and, as CRDs come and
  // go, the custom ones (controllers/crd-resources.ts; read as discovery would be, on the loopback client).
  const namespacedTypes = new CustomResourceTypes(
    options.client,
    servedResources().filter((r) => r.namespaced),
    { namespaced: true, clock: realClock },
  );
  namespacedTypes.start();
  const namespaces = new NamespaceController({
    client: await options.controllerClient('namespace-controller'),
    resources: namespacedTypes.resources,
    clock: realClock,
    onError: (err, ns) => console.error(`kubewasm namespace controller: ${ns}: ${String(err)}`),
  });
  await namespaces.start();
  const gc = new GarbageCollector({
    client: await options.controllerClient('generic-garbage-collector'),
    resources: servedResources(),
    clock: realClock,
    onError: (err, uid) => console.error(`kubewasm garbage collector: ${uid}: ${String(err)}`),
  });
  await gc.start();
  const systemNamespaces = new SystemNamespacesController(options.client, {
    clock: realClock,
    onError: (err) => console.error(`kubewasm system namespaces: ${String(err)}`),
  });
  await systemNamespaces.start();
  const resourceQuotas = new ResourceQuotaController({
    client: await options.controllerClient('resourcequota-controller'),
    resources: servedResources().filter((r) => r.namespaced),
    clock: realClock,
    ...(options.ranges.resourceQuotaSyncPeriodMs === undefined
      ? {}
      : { resyncPeriodMs: options.ranges.resourceQuotaSyncPeriodMs }),
    onError: (err, key) => console.error(`kubewasm resource quota controller: ${key}: ${String(err)}`),
  });
  await resourceQuotas.start();
  // The ServiceAccount admission plugin's `default` ServiceAccount and kube-root-ca.crt ConfigMap.
  const serviceAccounts = new ServiceAccountsController({
    client: await options.controllerClient('service-account-controller'),
    clock: realClock,
    onError: (err, ns) => console.error(`kubewasm serviceaccounts controller: ${ns}: ${String(err)}`),
  });
  await serviceAccounts.start();
  const rootCA =
    options.rootCA === undefined
      ? undefined
      : new RootCAPublisher({
          client: await options.controllerClient('root-ca-cert-publisher'),
          rootCA: options.rootCA,
          clock: realClock,
          onError: (err, ns) => console.error(`kubewasm root-ca-cert-publisher: ${ns}: ${String(err)}`),
        });
  await rootCA?.start();
  return {
    async stop() {
      await namespacedTypes.stop();
      await rootCA?.stop();
      await serviceAccounts.stop();
      await resourceQuotas.stop();
      await systemNamespaces.stop();
      await gc.stop();
      await namespaces.stop();
      await kubernetesService.stop();
    },
  };
}
