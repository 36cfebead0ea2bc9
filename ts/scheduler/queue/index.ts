// kube-scheduler's scheduling queue: activeQ, backoffQ and unschedulablePods, moved by cluster events.
export * from './events.js';
export { KeyedHeap } from './heap.js';
export { DEFAULT_PLUGIN_EVENTS, eventMayHelp, isEventOfInterest, type PluginEventsTable } from './plugin-events.js';
export * from './scheduling-queue.js';
