// kube-scheduler's event identity; the recorder itself is the components' one (ts/client/event-recorder.ts).

export { EventRecorder, type EventType } from '../../client/event-recorder.js';

/** kube-scheduler's component name in Event.source (v1.DefaultSchedulerName). */
export const SCHEDULER_COMPONENT = 'default-scheduler';

/** metav1.Time on the wire. */
export { rfc3339 } from '../../api/time.js';
