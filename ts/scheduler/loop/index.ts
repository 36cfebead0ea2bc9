// The scheduler's control loop: informers → engine cache + scheduling queue → bind + Events.
export { EventRecorder, rfc3339, SCHEDULER_COMPONENT } from './event-recorder.js';
export * from './scheduler.js';
