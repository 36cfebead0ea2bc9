/**
 * What `kubewasm up` runs beside the apiserver for services and namespaces: the
 * --service-cluster-ip-range / --service-node-port-range flags, the kubernetesservice controller
 * (the `kubernetes` Service at the range's first address, its Endpoints and EndpointSlice), the
 * namespace controller, the garbage collector and the system namespaces controller, all on the
 * in-process client.
 */
import { IpRange } from '../apiserver/allocators/ip-range.js';
import { parsePortRange } from '../apiserver/allocators/port-range.js';
import {
  DEFAULT_SERVICE_CLUSTER_IP_RANGE,
  DEFAULT_SERVICE_NODE_PORT_RANGE,
} from '../apiserver/allocators/service-allocation.js';
import { RESOURCES } from '../apiserver/resources.js';
import type { Client } from '../client/client.js';
import type { ResourceType } from '../client/resources.js';
import { GarbageCollector } from '../controllers/garbage-collector.js';
import { KubernetesServiceController } from '../controllers/kubernetes-service.js';
import { NamespaceController } from '../controllers/namespace.js';
import { SystemNamespacesController } from '../controllers/system-namespaces.js';
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

/** Starts the kubernetesservice and namespace controllers. */
export async function startControllers(options: {
  client: Client;
  ranges: ServiceRanges;
  host: string;
  port: number;
}): Promise<Controllers> {
  const kubernetesService = new KubernetesServiceController({
    client: options.client,
    clusterIP: IpRange.parse(options.ranges.serviceClusterIPRange).indexed(1),
    publicIP: options.host,
    port: options.port,
    clock: realClock,
    onError: (err) => console.error(`kubewasm kubernetesservice: ${String(err)}`),
  });
  await kubernetesService.start();
  const namespaces = new NamespaceController({
    client: options.client,
    resources: servedResources().filter((r) => r.namespaced),
    clock: realClock,
    onError: (err, ns) => console.error(`kubewasm namespace controller: ${ns}: ${String(err)}`),
  });
  await namespaces.start();
  const gc = new GarbageCollector({
    client: options.client,
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
  return {
    async stop() {
      await systemNamespaces.stop();
      await gc.stop();
      await namespaces.stop();
      await kubernetesService.stop();
    },
  };
}
