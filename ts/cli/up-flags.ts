/**
 * `kubewasm up`'s flags, as the components they belong to name them — kube-apiserver's protection
 * filters (--max-requests-inflight, --max-mutating-requests-inflight, --request-timeout) and
 * service ranges (--service-cluster-ip-range, --service-node-port-range), kube-controller-manager's
 * --controllers (every 1.32 controller name and alias), --resource-quota-sync-period,
 * --cluster-cidr and --leader-elect — each
 * turned into the assembly's options and checked, a bad value refused with the reason (the caller
 * prints it with the usage).
 */

import { parseGoDuration } from '../api/go-duration.js';
import { isIPv6String, isValidCIDR } from '../api/validation/kinds/ip.js';
import { IpRange } from '../apiserver/allocators/ip-range.js';
import { parsePortRange } from '../apiserver/allocators/port-range.js';
import {
  DEFAULT_SERVICE_CLUSTER_IP_RANGE,
  DEFAULT_SERVICE_NODE_PORT_RANGE,
} from '../apiserver/allocators/service-allocation.js';
import type { ProtectionOptions } from '../apiserver/config.js';
import { newControllerDescriptors } from '../controllers/controller-descriptors.js';
import type { ControllerManagerOptions } from '../controllers/framework/context.js';
import { parseControllers, splitControllersFlag } from '../controllers/framework/manager.js';
import type { Flags } from './flags.js';

/** kube-apiserver's flags for the protection filters (ts/apiserver/protection.ts). */
export const PROTECTION_FLAG_SPEC = {
  'max-requests-inflight': 'string',
  'max-mutating-requests-inflight': 'string',
  'request-timeout': 'string',
} as const;

export const PROTECTION_FLAG_USAGE = `  --max-requests-inflight N           read-only requests at once, 0 = no limit (default 400)
  --max-mutating-requests-inflight N  mutating requests at once, 0 = no limit (default 200)
  --request-timeout DURATION          longest a request may take (default 60s)`;

export function protectionOptions(flags: Flags): ProtectionOptions {
  const out: ProtectionOptions = {};
  const count = (name: string): number | undefined => {
    const v = flags.values[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`invalid --${name} ${String(v)}`);
    return n;
  };
  const reads = count('max-requests-inflight');
  if (reads !== undefined) out.maxRequestsInFlight = reads;
  const writes = count('max-mutating-requests-inflight');
  if (writes !== undefined) out.maxMutatingRequestsInFlight = writes;
  const timeout = flags.values['request-timeout'];
  if (timeout !== undefined) {
    const ms = parseGoDuration(String(timeout));
    if (ms <= 0) throw new Error(`invalid --request-timeout ${String(timeout)}`);
    out.requestTimeoutMs = ms;
  }
  return out;
}

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

/** kube-controller-manager's flags that `kubewasm up` takes. */
export const CONTROLLER_MANAGER_FLAG_SPEC = {
  controllers: 'string',
  'resource-quota-sync-period': 'string',
  'cluster-cidr': 'string',
  'leader-elect': 'boolean',
} as const;

/** `text` in lines of at most `width` characters, each after `indent`, broken at spaces. */
function wrap(text: string, indent: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}

const descriptors = newControllerDescriptors();
const USAGE_INDENT = ' '.repeat(36);

export const CONTROLLER_MANAGER_FLAG_USAGE = `  --controllers LIST                kube-controller-manager's controllers to run (default *): '*' all
                                    on by default, 'foo' enables, '-foo' disables; all controllers:
${wrap(descriptors.knownControllers().join(', '), USAGE_INDENT, 100)}
${wrap(`disabled by default: ${descriptors.controllersDisabledByDefault().join(', ')}`, USAGE_INDENT, 100)}
  --resource-quota-sync-period D    full recalculation of quota usage (default 5m0s; 0 turns it off)
  --cluster-cidr CIDR[,CIDR]        the pods' range, a /24 (IPv6: /64) of it per node (default 10.244.0.0/16)
  --leader-elect[=false]            run the controllers only while holding the Lease kube-system/
                                    kube-controller-manager, so that another can stand by (default true)`;

/** The controller manager's options from the flags, checked (throws with kube-controller-manager's reason). */
export function controllerManagerOptions(
  flags: Flags,
): Pick<ControllerManagerOptions, 'controllers' | 'resourceQuotaSyncPeriodMs' | 'clusterCIDR' | 'leaderElect'> {
  const value = flags.values.controllers;
  // --controllers default: ["*"].
  const controllers = value === undefined ? ['*'] : parseControllers(splitControllersFlag(String(value)), descriptors);
  const quotaSync = flags.values['resource-quota-sync-period'];
  const clusterCIDR = flags.values['cluster-cidr'];
  const leaderElect = flags.values['leader-elect'];
  return {
    controllers,
    // Any duration, as kube-controller-manager takes it: 0 or less turns the periodic resync off
    // (resource_quota_controller.go Run: "periodic quota controller resync disabled").
    ...(quotaSync === undefined ? {} : { resourceQuotaSyncPeriodMs: parseGoDuration(String(quotaSync)) }),
    ...(clusterCIDR === undefined ? {} : { clusterCIDR: checkClusterCIDR(String(clusterCIDR)) }),
    ...(leaderElect === undefined ? {} : { leaderElect: leaderElect === true }),
  };
}

/** core.go validateCIDRs: CIDRs that parse; two or more only dual-stack (one of each family), at most two. */
function checkClusterCIDR(value: string): string {
  const cidrs = value
    .trim()
    .split(',')
    .map((c) => c.trim());
  const bad = cidrs.find((c) => !isValidCIDR(c));
  if (bad !== undefined) throw new Error(`--cluster-cidr: invalid CIDR address: ${bad}`);
  const v6 = cidrs.map((c) => isIPv6String(c.slice(0, c.indexOf('/'))));
  const dualStack = v6.includes(true) && v6.includes(false);
  if (cidrs.length > 1 && !dualStack) {
    throw new Error(
      `--cluster-cidr: len of ClusterCIDRs==${cidrs.length} and they are not configured as dual stack (at least one from each IPFamily`,
    );
  }
  if (cidrs.length > 2) {
    throw new Error(`--cluster-cidr: length of clusterCIDRs is:${cidrs.length} more than max allowed of 2`);
  }
  return cidrs.join(',');
}
