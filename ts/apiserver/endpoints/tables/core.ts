/**
 * core/v1 printers for endpoints, resourcequotas and replicationcontrollers
 * (pkg/printers/internalversion/printers.go, v1.32).
 */
import {
  AGE,
  arr,
  col,
  formatLabels,
  type Layout,
  num,
  type Obj,
  obj,
  str,
  templateColumns,
  templateSpec,
} from './column.js';

/** formatEndpoints(endpoints, nil): up to 3 `ip:port` (or bare IPs without ports), then `+ N more...`. */
export function formatEndpoints(o: Obj): string {
  const subsets = arr(o.subsets).map(obj);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = arr(ss.addresses).map(obj);
    const ports = arr(ss.ports).map(obj);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        // net.JoinHostPort brackets IPv6 addresses.
        const ip = str(a.ip);
        list.push(`${ip.includes(':') ? `[${ip}]` : ip}:${String(port.port ?? 0)}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

/** printResourceQuota: `name: used/hard` for each hard resource, sorted, limits.* in the Limit column. */
function quotaColumns(o: Obj): { request: string; limit: string } {
  const status = obj(o.status);
  const hard = obj(status.hard);
  const used = obj(status.used);
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const usedQ = typeof used[name] === 'string' ? (used[name] as string) : '0';
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(`${name}: ${usedQ}/${str(hard[name])}`);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

export const CORE_LAYOUTS: Record<string, Layout> = {
  // printReplicationController, its column descriptions the v1 types' SwaggerDoc.
  '/ReplicationController': [
    col(
      'Desired',
      'integer',
      'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
      (o) => (typeof obj(o.spec).replicas === 'number' ? obj(o.spec).replicas : 1),
    ),
    col(
      'Current',
      'integer',
      'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
      (o) => num(obj(o.status).replicas),
    ),
    col('Ready', 'integer', 'The number of ready replicas for this replication controller.', (o) =>
      num(obj(o.status).readyReplicas),
    ),
    AGE,
    ...templateColumns(templateSpec, {
      description:
        'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      cell: (o) => formatLabels(obj(o.spec).selector),
    }),
  ],
  '/Endpoints': [
    col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.', formatEndpoints),
    AGE,
  ],
  '/ResourceQuota': [
    col(
      'Request',
      'string',
      'Request represents a minimum amount of cpu/memory that a container may consume.',
      (o) => quotaColumns(o).request,
    ),
    col(
      'Limit',
      'string',
      'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
      (o) => quotaColumns(o).limit,
    ),
    AGE,
  ],
};
