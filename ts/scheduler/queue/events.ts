// Cluster events that may make an unschedulable pod schedulable: kube-scheduler's ClusterEvent,
// ActionType and the named events of pkg/scheduler/framework/events.go and types.go, plus the two
// extractors that turn a Node or assigned-Pod update into the events it stands for.

import type { Node, Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';

/** A bit set of what happened to a resource (framework.ActionType in pkg/scheduler/framework/types.go). */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodTolerations: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  UpdatePodGeneratedResourceClaim: 1 << 11,
  /** Every bit: `All = 1<<iota - 1`. */
  All: (1 << 12) - 1,
  /** Every UpdateXYZ bit. */
  Update: ((1 << 12) - 1) & ~((1 << 0) | (1 << 1)),
} as const;

/** framework.EventResource values; `*` is the wildcard. */
export const EVENT_RESOURCES = [
  'Pod',
  'Node',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'CSINode',
  'CSIDriver',
  'CSIStorageCapacity',
  'StorageClass',
  'VolumeAttachment',
  'ResourceClaim',
  'ResourceSlice',
  'DeviceClass',
  '*',
] as const;

/** framework.EventResource. */
export type EventResource = (typeof EVENT_RESOURCES)[number];

export function isEventResource(name: string): name is EventResource {
  return (EVENT_RESOURCES as readonly string[]).includes(name);
}

/** framework.ClusterEvent: a resource, what happened to it (ActionType bits) and a label for logs. */
export interface ClusterEvent {
  readonly resource: EventResource;
  readonly actionType: number;
  readonly label?: string;
}

const event = (resource: EventResource, actionType: number, label: string): ClusterEvent => ({
  resource,
  actionType,
  label,
});

// The named events of pkg/scheduler/framework/events.go.
export const EventAssignedPodAdd = event('Pod', ActionType.Add, 'AssignedPodAdd');
export const EventAssignedPodUpdate = event('Pod', ActionType.Update, 'AssignedPodUpdate');
export const EventAssignedPodDelete = event('Pod', ActionType.Delete, 'AssignedPodDelete');
export const EventNodeAdd = event('Node', ActionType.Add, 'NodeAdd');
export const EventNodeDelete = event('Node', ActionType.Delete, 'NodeDelete');
export const EventPodLabelChange = event('Pod', ActionType.UpdatePodLabel, 'PodLabelChange');
export const EventPodRequestScaledDown = event('Pod', ActionType.UpdatePodScaleDown, 'PodRequestScaledDown');
export const EventPodTolerationChange = event('Pod', ActionType.UpdatePodTolerations, 'PodTolerationChange');
/** spec.unschedulable is reported as a taint change, as upstream does. */
export const EventNodeSpecUnschedulableChange = event(
  'Node',
  ActionType.UpdateNodeTaint,
  'NodeSpecUnschedulableChange',
);
export const EventNodeAllocatableChange = event('Node', ActionType.UpdateNodeAllocatable, 'NodeAllocatableChange');
export const EventNodeLabelChange = event('Node', ActionType.UpdateNodeLabel, 'NodeLabelChange');
export const EventNodeTaintChange = event('Node', ActionType.UpdateNodeTaint, 'NodeTaintChange');
export const EventNodeConditionChange = event('Node', ActionType.UpdateNodeCondition, 'NodeConditionChange');
export const EventNodeAnnotationChange = event('Node', ActionType.UpdateNodeAnnotation, 'NodeAnnotationChange');
/** Wildcard events: they move every unschedulable pod, whatever rejected it. */
export const EventUnschedulableTimeout = event('*', ActionType.All, 'UnschedulableTimeout');
export const EventForceActivate = event('*', ActionType.All, 'ForceActivate');
export const EventWildCard = event('*', ActionType.All, 'WildCard');

/** framework.ClusterEventIsWildCard. */
export function isWildCard(e: ClusterEvent): boolean {
  return e.resource === '*' && e.actionType === ActionType.All;
}

/** framework.MatchClusterEvents: does a registered interest cover an incoming event? */
export function matchClusterEvents(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  return (
    (registered.resource === '*' || registered.resource === incoming.resource) &&
    (registered.actionType & incoming.actionType) !== 0
  );
}

/**
 * framework.NodeSchedulingPropertiesChange: the events a Node update stands for (none when only
 * e.g. heartbeats changed). Example: a label edit → [EventNodeLabelChange].
 */
export function nodeUpdateEvents(oldNode: DeepReadonly<Node>, newNode: DeepReadonly<Node>): ClusterEvent[] {
  const events: ClusterEvent[] = [];
  if ((oldNode.spec?.unschedulable ?? false) !== (newNode.spec?.unschedulable ?? false)) {
    events.push(EventNodeSpecUnschedulableChange);
  }
  if (!deepEqual(oldNode.status?.allocatable ?? {}, newNode.status?.allocatable ?? {})) {
    events.push(EventNodeAllocatableChange);
  }
  if (!deepEqual(oldNode.metadata?.labels ?? {}, newNode.metadata?.labels ?? {})) events.push(EventNodeLabelChange);
  if (!deepEqual(oldNode.spec?.taints ?? [], newNode.spec?.taints ?? [])) events.push(EventNodeTaintChange);
  // Conditions compare by type and status only: heartbeat timestamps change every few seconds.
  const conditions = (n: DeepReadonly<Node>) => (n.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`);
  if (!deepEqual(conditions(oldNode), conditions(newNode))) events.push(EventNodeConditionChange);
  if (!deepEqual(oldNode.metadata?.annotations ?? {}, newNode.metadata?.annotations ?? {})) {
    events.push(EventNodeAnnotationChange);
  }
  return events;
}

/**
 * framework.PodSchedulingPropertiesChange for an assigned pod: label, toleration and request
 * changes. Any other change is reported as the generic EventAssignedPodUpdate. Upstream reports
 * only request decreases as PodRequestScaledDown; comparing quantities needs parsing, so here any
 * request change counts (a superset: at worst a pod is retried once too often).
 */
export function assignedPodUpdateEvents(oldPod: DeepReadonly<Pod>, newPod: DeepReadonly<Pod>): ClusterEvent[] {
  const events: ClusterEvent[] = [];
  if (!deepEqual(oldPod.metadata?.labels ?? {}, newPod.metadata?.labels ?? {})) events.push(EventPodLabelChange);
  if ((oldPod.spec?.tolerations?.length ?? 0) !== (newPod.spec?.tolerations?.length ?? 0)) {
    events.push(EventPodTolerationChange);
  }
  const requests = (p: DeepReadonly<Pod>) => (p.spec?.containers ?? []).map((c) => c.resources?.requests ?? {});
  if (!deepEqual(requests(oldPod), requests(newPod))) events.push(EventPodRequestScaledDown);
  return events.length > 0 ? events : [EventAssignedPodUpdate];
}

/** Structural equality of JSON values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => deepEqual(ao[k], bo[k]));
}
