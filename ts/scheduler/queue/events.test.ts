import { beforeAll, describe, expect, it } from 'vitest';
import type { Node } from '../../api/types/core/v1.js';
import {
  ActionType,
  assignedPodUpdateEvents,
  EventAssignedPodUpdate,
  EventNodeAdd,
  EventNodeLabelChange,
  EventPodLabelChange,
  matchClusterEvents,
  nodeUpdateEvents,
} from './events.js';
import { KeyedHeap } from './heap.js';
import {
  eventMayHelp,
  isEventOfInterest,
  PluginEventsError,
  type PluginEventsTable,
  pluginEventsTable,
} from './plugin-events.js';
import { defaultPluginEvents } from './testing/default-plugin-events.js';

/** The default profile's events table, from the engine. */
let pluginEvents: PluginEventsTable;
beforeAll(async () => {
  pluginEvents = await defaultPluginEvents();
});

describe('matchClusterEvents', () => {
  it('matches on resource (or wildcard) and any shared action bit', () => {
    expect(matchClusterEvents({ resource: 'Node', actionType: ActionType.Add }, EventNodeAdd)).toBe(true);
    expect(matchClusterEvents({ resource: '*', actionType: ActionType.Add }, EventNodeAdd)).toBe(true);
    expect(matchClusterEvents({ resource: 'Pod', actionType: ActionType.Add }, EventNodeAdd)).toBe(false);
    expect(matchClusterEvents({ resource: 'Node', actionType: ActionType.Update }, EventNodeAdd)).toBe(false);
    expect(matchClusterEvents({ resource: 'Node', actionType: ActionType.Update }, EventNodeLabelChange)).toBe(true);
  });

  it('Update covers every UpdateXYZ bit and neither Add nor Delete', () => {
    expect(ActionType.Update & ActionType.Add).toBe(0);
    expect(ActionType.Update & ActionType.Delete).toBe(0);
    expect(ActionType.Update | ActionType.Add | ActionType.Delete).toBe(ActionType.All);
  });
});

describe('nodeUpdateEvents', () => {
  const node: Node = {
    metadata: { labels: { zone: 'a' } },
    spec: { taints: [] },
    status: {
      allocatable: { cpu: '4' },
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '1' }],
    },
  };

  it('reports each kind of scheduling-relevant change', () => {
    const labels = (e: ReturnType<typeof nodeUpdateEvents>) => e.map((x) => x.label);
    expect(labels(nodeUpdateEvents(node, { ...node, spec: { unschedulable: true, taints: [] } }))).toEqual([
      'NodeSpecUnschedulableChange',
    ]);
    expect(labels(nodeUpdateEvents(node, { ...node, metadata: { labels: { zone: 'b' } } }))).toEqual([
      'NodeLabelChange',
    ]);
    expect(labels(nodeUpdateEvents(node, { ...node, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }))).toEqual(
      ['NodeTaintChange'],
    );
    expect(labels(nodeUpdateEvents(node, { ...node, status: { ...node.status, allocatable: { cpu: '8' } } }))).toEqual([
      'NodeAllocatableChange',
    ]);
  });

  it('ignores heartbeats', () => {
    const beat = {
      ...node,
      status: { ...node.status, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2' }] },
    };
    expect(nodeUpdateEvents(node, beat)).toEqual([]);
  });
});

describe('assignedPodUpdateEvents', () => {
  it('labels → PodLabelChange; anything else → AssignedPodUpdate', () => {
    expect(assignedPodUpdateEvents({ metadata: { labels: { a: '1' } } }, { metadata: { labels: { a: '2' } } })).toEqual(
      [EventPodLabelChange],
    );
    expect(assignedPodUpdateEvents({}, {})).toEqual([EventAssignedPodUpdate]);
  });
});

describe('plugin events table', () => {
  it('NodeResourcesFit cares about NodeAdd, not about a pod label change', () => {
    const fit = new Set(['NodeResourcesFit']);
    expect(eventMayHelp(pluginEvents, fit, EventNodeAdd)).toBe(true);
    expect(eventMayHelp(pluginEvents, fit, EventPodLabelChange)).toBe(false);
    expect(eventMayHelp(pluginEvents, new Set(['InterPodAffinity']), EventPodLabelChange)).toBe(true);
  });

  it('some plugin is interested in node adds; none in CSIDriver adds', () => {
    expect(isEventOfInterest(pluginEvents, EventNodeAdd)).toBe(true);
    expect(isEventOfInterest(pluginEvents, { resource: 'CSIDriver', actionType: ActionType.Add })).toBe(false);
  });

  it('comes from the engine with the ActionType bits of this queue', () => {
    // The default profile's plugins that register events (default_plugins.go).
    expect(Object.keys(pluginEvents).sort()).toEqual(
      [
        'SchedulingGates',
        'NodeUnschedulable',
        'NodeName',
        'TaintToleration',
        'NodeAffinity',
        'NodePorts',
        'NodeResourcesFit',
        'VolumeRestrictions',
        'NodeVolumeLimits',
        'VolumeBinding',
        'VolumeZone',
        'PodTopologySpread',
        'InterPodAffinity',
        'DefaultPreemption',
      ].sort(),
    );
    const nodeAdd = ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel;
    expect(pluginEvents.NodeResourcesFit).toEqual([
      { resource: 'Pod', actionType: ActionType.Delete | ActionType.UpdatePodScaleDown },
      { resource: 'Node', actionType: nodeAdd | ActionType.UpdateNodeAllocatable },
    ]);
    expect(pluginEvents.PodTopologySpread).toEqual([
      { resource: 'Pod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
      { resource: 'Node', actionType: nodeAdd | ActionType.Delete },
    ]);
    expect(pluginEvents.SchedulingGates).toEqual([]);
  });

  it('refuses what the engine registered that the queue cannot read', () => {
    expect(() => pluginEventsTable({ X: [{ resource: 'Gadget', actionType: ActionType.Add }] })).toThrow(
      PluginEventsError,
    );
    expect(() => pluginEventsTable({ X: [{ resource: 'Node', actionType: 1 << 12 }] })).toThrow(PluginEventsError);
    expect(pluginEventsTable({ X: [{ resource: '*', actionType: ActionType.All }] })).toEqual({
      X: [{ resource: '*', actionType: ActionType.All }],
    });
  });
});

describe('KeyedHeap', () => {
  it('pops in order after random inserts, updates and deletes', () => {
    const heap = new KeyedHeap<{ k: string; v: number }>(
      (x) => x.k,
      (a, b) => a.v < b.v,
    );
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const model = new Map<string, number>();
    for (let i = 0; i < 500; i++) {
      const k = `k${rand() % 60}`;
      const op = rand() % 3;
      if (op < 2) {
        const v = rand() % 1000;
        heap.addOrUpdate({ k, v });
        model.set(k, v);
      } else {
        expect(heap.delete(k)?.v).toBe(model.get(k));
        model.delete(k);
      }
      expect(heap.length).toBe(model.size);
    }
    const out: number[] = [];
    for (let x = heap.pop(); x !== undefined; x = heap.pop()) {
      expect(model.get(x.k)).toBe(x.v);
      out.push(x.v);
    }
    expect(out).toEqual([...model.values()].sort((a, b) => a - b));
  });
});
