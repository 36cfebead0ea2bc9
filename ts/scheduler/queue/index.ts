// kube-scheduler's scheduling queue: activeQ, backoffQ and unschedulablePods, moved by cluster events.
export * from './events.js';
export { KeyedHeap } from './heap.js';
export {
  eventMayHelp,
  isEventOfInterest,
  PluginEventsError,
  type PluginEventsTable,
  pluginEventsTable,
  type RegisteredEventJson,
} from './plugin-events.js';
export * from './scheduling-queue.js';
