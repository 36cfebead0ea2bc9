// NodeUnschedulable (plugins/nodeunschedulable): nodes with spec.unschedulable are filtered out
// unless the pod tolerates the node.kubernetes.io/unschedulable:NoSchedule taint.

import { type FilterPlugin, SUCCESS, unresolvable } from '../framework.js';
import { tolerationsTolerateTaint } from './taint-toleration.js';

/** nodeunschedulable.ErrReasonUnschedulable. */
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
/** v1.TaintNodeUnschedulable. */
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export function nodeUnschedulable(): FilterPlugin {
  return {
    name: 'NodeUnschedulable',
    preFilter(pod) {
      const tolerates = tolerationsTolerateTaint(pod.spec.tolerations ?? [], {
        key: TAINT_NODE_UNSCHEDULABLE,
        effect: 'NoSchedule',
      });
      return {
        kind: 'filter',
        filter: (node) =>
          node.node.spec?.unschedulable === true && !tolerates ? unresolvable(ERR_REASON_UNSCHEDULABLE) : SUCCESS,
      };
    },
  };
}
