// Which cluster events each default plugin says may undo its rejection: the EventsToRegister
// tables of pkg/scheduler/framework/plugins/* (read at k/k HEAD, 2026), as registered with
// SchedulerQueueingHints off (every hint then answers Queue, so registration alone decides). Since k/k issue #109437 every
// plugin that registers Node/Add also registers UpdateNodeTaint|UpdateNodeLabel, because a
// preCheck may have dropped the Node/Add of a node that was not ready yet.

import { ActionType, type ClusterEvent, type EventResource, matchClusterEvents } from './events.js';

/** Plugin name → the events it registered. */
export type PluginEventsTable = Readonly<Record<string, readonly ClusterEvent[]>>;

const on = (resource: EventResource, actionType: number): ClusterEvent => ({ resource, actionType });

/** Node/Add plus the label and taint updates added for #109437. */
const NODE_ADD = ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel;

export const DEFAULT_PLUGIN_EVENTS: PluginEventsTable = {
  // schedulinggates: registers only with queueing hints on; off, the pod update removing the
  // gates retries the pod (Update → isPodUpdated). (PreEnqueue gating itself is not modelled.)
  SchedulingGates: [],
  // nodeunschedulable: a new node, or spec.unschedulable flipping (reported as UpdateNodeTaint).
  NodeUnschedulable: [on('Node', NODE_ADD)],
  // nodename: only a node with that name appearing helps.
  NodeName: [on('Node', NODE_ADD)],
  // tainttoleration: a new node or changed taints. A pod gaining a toleration is registered only
  // with hints on; off, the pod's own update retries it (Update → isPodUpdated).
  TaintToleration: [on('Node', NODE_ADD)],
  // nodeaffinity: a new node or changed node labels.
  NodeAffinity: [on('Node', NODE_ADD)],
  // nodeports: an assigned pod going away frees its host ports; or a new node.
  NodePorts: [on('Pod', ActionType.Delete), on('Node', NODE_ADD)],
  // noderesources Fit: an assigned pod deleted or scaled down (UpdatePodScaleDown: with
  // InPlacePodVerticalScaling, on by default) frees resources; a new node or more allocatable adds them.
  NodeResourcesFit: [
    on('Pod', ActionType.Delete | ActionType.UpdatePodScaleDown),
    on('Node', NODE_ADD | ActionType.UpdateNodeAllocatable),
  ],
  // volumerestrictions: a conflicting pod deleted; a claim appearing; a new node.
  VolumeRestrictions: [on('Pod', ActionType.Delete), on('PersistentVolumeClaim', ActionType.Add), on('Node', NODE_ADD)],
  // nodevolumelimits (CSILimits): a new CSINode, a pod releasing volumes, a claim appearing.
  NodeVolumeLimits: [
    on('CSINode', ActionType.Add),
    on('Pod', ActionType.Delete),
    on('PersistentVolumeClaim', ActionType.Add),
  ],
  // volumebinding: any change to the storage objects binding depends on, or to nodes' topology.
  VolumeBinding: [
    on('StorageClass', ActionType.Add | ActionType.Update),
    on('PersistentVolumeClaim', ActionType.Add | ActionType.Update),
    on('PersistentVolume', ActionType.Add | ActionType.Update),
    on('Node', NODE_ADD),
    on('CSINode', ActionType.Add | ActionType.Update),
    on('CSIDriver', ActionType.Update),
    on('CSIStorageCapacity', ActionType.Add | ActionType.Update),
  ],
  // volumezone: volumes or classes appearing or changing zone labels; nodes with new labels.
  VolumeZone: [
    on('StorageClass', ActionType.Add),
    on('PersistentVolumeClaim', ActionType.Add | ActionType.Update),
    on('PersistentVolume', ActionType.Add | ActionType.Update),
    on('Node', NODE_ADD),
  ],
  // podtopologyspread: matching pods appearing, relabelled or leaving change the skew; nodes
  // appearing, leaving or relabelled change the domains.
  PodTopologySpread: [
    on('Pod', ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete),
    on('Node', NODE_ADD | ActionType.Delete),
  ],
  // interpodaffinity: pods appearing, relabelled or leaving; nodes appearing or relabelled.
  InterPodAffinity: [on('Pod', ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete), on('Node', NODE_ADD)],
  // dynamicresources (only with the DRA gate; not checked against the source line by line):
  // claims, slices and classes changing; nodes appearing.
  DynamicResources: [
    on('Node', NODE_ADD | ActionType.UpdateNodeAllocatable),
    on('ResourceClaim', ActionType.Add | ActionType.Update),
    on('Pod', ActionType.UpdatePodGeneratedResourceClaim),
    on('DeviceClass', ActionType.Add | ActionType.Update),
    on('ResourceSlice', ActionType.Add | ActionType.Update),
  ],
  // defaultpreemption: does not reject in Filter; registers nothing.
  DefaultPreemption: [],
};

/**
 * Whether `event` may make schedulable a pod that `rejectors` rejected (isPodWorthRequeuing with
 * hints off). No rejectors, a wildcard event, or a plugin missing from the table (upstream
 * registers every event for plugins without EnqueueExtensions) all mean yes.
 */
export function eventMayHelp(table: PluginEventsTable, rejectors: ReadonlySet<string>, event: ClusterEvent): boolean {
  if (rejectors.size === 0) return true;
  if (event.resource === '*' && event.actionType === ActionType.All) return true;
  for (const plugin of rejectors) {
    const registered = table[plugin];
    if (registered === undefined) return true;
    if (registered.some((r) => matchClusterEvents(r, event))) return true;
  }
  return false;
}

/** isEventOfInterest: does any plugin in the table (or a wildcard) care about `event` at all? */
export function isEventOfInterest(table: PluginEventsTable, event: ClusterEvent): boolean {
  if (event.resource === '*' && event.actionType === ActionType.All) return true;
  return Object.values(table).some((events) => events.some((r) => matchClusterEvents(r, event)));
}
