// kube-scheduler's event identity; the recorder itself is the components' one (ts/client/event-recorder.ts).

export { EventRecorder, type EventType } from '../../client/event-recorder.js';

/** kube-scheduler's component name in Event.source (v1.DefaultSchedulerName). */
export const SCHEDULER_COMPONENT = 'default-scheduler';

/** An RFC 3339 time with second precision, as metav1.Time marshals. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
