// NodeName (plugins/nodename): a pod with spec.nodeName set fits only that node.

import { type FilterPlugin, SUCCESS, unresolvable } from '../framework.js';

/** nodename.ErrReason. */
export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

export function nodeName(): FilterPlugin {
  return {
    name: 'NodeName',
    preFilter(pod) {
      const wanted = pod.spec.nodeName ?? '';
      return {
        kind: 'filter',
        filter: (node) => (wanted === '' || wanted === node.name ? SUCCESS : unresolvable(ERR_REASON_NODE_NAME)),
      };
    },
  };
}
