// Cases ported from plugins/nodeunschedulable/node_unschedulable_test.go (TestNodeUnschedulable)
// and plugins/nodename/node_name_test.go (TestNodeName).

import { describe, expect, it } from 'vitest';
import { runFilter } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { Toleration } from '../types.js';
import { ERR_REASON_NODE_NAME, nodeName } from './node-name.js';
import { ERR_REASON_UNSCHEDULABLE, nodeUnschedulable } from './node-unschedulable.js';

describe('NodeUnschedulable (TestNodeUnschedulable)', () => {
  const run = (unschedulable: boolean | undefined, tolerations: Toleration[] = []) => {
    const node = unschedulable === undefined ? makeNode('n') : makeNode('n', { unschedulable });
    const r = runFilter(nodeUnschedulable(), makePod('p', { tolerations }), { nodes: [node] });
    return r.kind === 'filter' ? r.statuses.n : undefined;
  };
  it('"Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)"', () => {
    expect(run(true)).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_UNSCHEDULABLE] });
  });
  it('"Schedule pod to normal node"', () => {
    expect(run(false)?.code).toBe('Success');
  });
  it('"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)"', () => {
    expect(run(true, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }])?.code).toBe('Success');
  });
  it('an Exists toleration of every key also tolerates it', () => {
    expect(run(true, [{ operator: 'Exists' }])?.code).toBe('Success');
  });
});

describe('NodeName (TestNodeName)', () => {
  const run = (wanted: string | undefined, node: string) => {
    const r = runFilter(nodeName(), makePod('p', wanted === undefined ? {} : { nodeName: wanted }), {
      nodes: [makeNode(node)],
    });
    return r.kind === 'filter' ? r.statuses[node] : undefined;
  };
  it('"no host specified"', () => expect(run(undefined, 'foo')?.code).toBe('Success'));
  it('"host matches"', () => expect(run('foo', 'foo')?.code).toBe('Success'));
  it('"host doesn\'t match"', () => {
    expect(run('bar', 'foo')).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_NODE_NAME] });
  });
});
