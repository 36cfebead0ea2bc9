// The plugins' queueing events as the scheduling queue reads them: plugin name → the cluster
// events it registered (kube-scheduler's EnqueueExtensions.EventsToRegister). The tables live
// beside the plugins, in Rust (`EVENTS_TO_REGISTER` in crates/sched/src/plugins/*.rs, with the
// k/k sources they follow); the engine hands over the table of its profile's plugins once
// (SchedulerEngine.eventsToRegister) and pluginEventsTable checks it into this shape.

import { ActionType, type ClusterEvent, isEventResource, matchClusterEvents } from './events.js';

/** Plugin name → the events it registered. */
export type PluginEventsTable = Readonly<Record<string, readonly ClusterEvent[]>>;

/** An event as the engine reports it: the resource name and the ActionType bits. */
export interface RegisteredEventJson {
  readonly resource: string;
  readonly actionType: number;
}

/** A thing the engine registered that this queue cannot read: a bug on one side of the boundary. */
export class PluginEventsError extends Error {
  override readonly name = 'PluginEventsError';
}

/**
 * The table for the queue from the engine's answer, checked: every resource one the queue knows,
 * every actionType made of ActionType bits. Example:
 *   pluginEventsTable(engine.eventsToRegister()).NodeResourcesFit → [{Pod, Delete|…}, {Node, …}]
 */
export function pluginEventsTable(
  registered: Readonly<Record<string, readonly RegisteredEventJson[]>>,
): PluginEventsTable {
  const table: Record<string, ClusterEvent[]> = {};
  for (const [plugin, events] of Object.entries(registered)) {
    table[plugin] = events.map(({ resource, actionType }) => {
      if (!isEventResource(resource)) {
        throw new PluginEventsError(`${plugin} registered an event for the unknown resource ${resource}`);
      }
      if (!Number.isInteger(actionType) || actionType <= 0 || (actionType & ~ActionType.All) !== 0) {
        throw new PluginEventsError(`${plugin} registered the unknown action type ${actionType} on ${resource}`);
      }
      return { resource, actionType };
    });
  }
  return table;
}

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
