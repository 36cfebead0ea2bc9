// NodePorts (plugins/nodeports): a node whose pods already use one of the pod's host ports is
// filtered out. PreFilter skips pods without host ports (app containers and sidecars).

import { type FilterPlugin, SUCCESS, unschedulable } from '../framework.js';
import { DEFAULT_BIND_ALL_HOST_IP, type HostPort, podHostPorts } from '../snapshot.js';

/** nodeports.ErrReason. */
export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

/**
 * HostPortInfo.CheckConflict: 0.0.0.0 conflicts with the same protocol/port on any IP; a specific
 * IP conflicts with itself and with 0.0.0.0.
 */
export function hostPortConflicts(used: readonly HostPort[], want: HostPort): boolean {
  if (want.port <= 0) return false;
  return used.some(
    (u) =>
      u.protocol === want.protocol &&
      u.port === want.port &&
      (want.ip === DEFAULT_BIND_ALL_HOST_IP || u.ip === DEFAULT_BIND_ALL_HOST_IP || u.ip === want.ip),
  );
}

export function nodePorts(): FilterPlugin {
  return {
    name: 'NodePorts',
    preFilter(pod) {
      const wanted = podHostPorts(pod);
      if (wanted.length === 0) return { kind: 'skip' };
      return {
        kind: 'filter',
        filter: (node) =>
          wanted.some((w) => hostPortConflicts(node.usedPorts, w)) ? unschedulable(ERR_REASON_NODE_PORTS) : SUCCESS,
      };
    },
  };
}
