import { describe, expect, it } from 'vitest';
import { ReferenceScheduler } from './schedule-one.js';
import { buildSnapshot } from './snapshot.js';
import { basicWorkload, bindRoundRobin, makeNodes, makePods } from './workload.js';

describe('workload generator', () => {
  it('builds scheduler_perf default nodes and pods', () => {
    const [n0, n1] = makeNodes({ count: 2 });
    expect(n0?.status?.allocatable).toEqual({ pods: '110', cpu: '4', memory: '32Gi' });
    expect(n0?.metadata.labels).toEqual({
      'kubernetes.io/hostname': 'scheduler-perf-0',
      'topology.kubernetes.io/zone': 'zone-0',
    });
    expect(n1?.metadata.labels?.['topology.kubernetes.io/zone']).toBe('zone-1');
    const [p] = makePods({ count: 1 });
    expect(p?.spec.containers[0]?.resources?.requests).toEqual({ cpu: '100m', memory: '500Mi' });
  });

  it('labels nodes round-robin like labelNodePrepareStrategy', () => {
    const nodes = makeNodes({
      count: 4,
      zones: 0,
      labelStrategy: { key: 'topology.kubernetes.io/zone', values: ['moon-1', 'moon-2', 'moon-3'] },
    });
    expect(nodes.map((n) => n.metadata.labels?.['topology.kubernetes.io/zone'])).toEqual([
      'moon-1',
      'moon-2',
      'moon-3',
      'moon-1',
    ]);
    expect(nodes[0]?.metadata.labels?.['kubernetes.io/hostname']).toBe('scheduler-perf-0');
  });

  it('is deterministic and schedulable', () => {
    const w = basicWorkload({ nodes: 10, initPods: 20, measurePods: 30 });
    expect(basicWorkload({ nodes: 10, initPods: 20, measurePods: 30 })).toEqual(w);
    const snapshot = buildSnapshot({ nodes: w.nodes, pods: bindRoundRobin(w.initPods, w.nodes) });
    const results = new ReferenceScheduler({ seed: 1 }).scheduleAll(snapshot, w.measurePods);
    expect(results.every((r) => r.nodeName !== null)).toBe(true);
    // 50 pods over 10 equal nodes: least-allocated spreads them evenly.
    expect(snapshot.nodeInfos.map((n) => n.pods.length)).toEqual(Array(10).fill(5));
  });

  it('fills a node to its 110-pod cap', () => {
    const nodes = makeNodes({ count: 1 });
    const snapshot = buildSnapshot({ nodes });
    const results = new ReferenceScheduler().scheduleAll(
      snapshot,
      makePods({ count: 111, requests: { cpu: '1m', memory: '1Mi' } }),
    );
    expect(results.filter((r) => r.nodeName !== null)).toHaveLength(110);
    expect(results[110]?.message).toBe('0/1 nodes are available: 1 Too many pods.');
  });
});
