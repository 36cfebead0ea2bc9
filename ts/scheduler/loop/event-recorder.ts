// core/v1 Events about pods, as kube-scheduler's recorder writes them (Scheduled, FailedScheduling).
// Writes go out without blocking the scheduling cycle; `flush()` waits for the ones in flight.

import type { KubeObject } from '../../api/meta.js';
import { type Client, RESOURCES } from '../../client/index.js';
import type { Clock } from '../../sim/clock.js';

/** kube-scheduler's component name in Event.source (v1.DefaultSchedulerName). */
export const SCHEDULER_COMPONENT = 'default-scheduler';

export type EventType = 'Normal' | 'Warning';

/** The pod an event is about. */
export type PodRef = KubeObject;

/** An RFC 3339 time with second precision, as metav1.Time marshals. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class EventRecorder {
  private readonly inFlight = new Set<Promise<void>>();
  private seq = 0;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly onError: (err: unknown, event: KubeObject) => void,
    private readonly component = SCHEDULER_COMPONENT,
  ) {}

  /** Records an event about `pod`; failures go to `onError`, never to the caller. */
  record(pod: PodRef, type: EventType, reason: string, message: string): void {
    const event = this.build(pod, type, reason, message);
    const namespace = pod.metadata?.namespace ?? 'default';
    const write = this.client.create(RESOURCES.events, namespace, event).then(
      () => undefined,
      (err: unknown) => this.onError(err, event),
    );
    this.inFlight.add(write);
    void write.finally(() => this.inFlight.delete(write));
  }

  /** The Event object (exported for tests): name `<pod>.<hex>` as client-go's `%v.%x` of UnixNano. */
  build(pod: PodRef, type: EventType, reason: string, message: string): KubeObject {
    const now = this.clock.now();
    const meta = pod.metadata ?? {};
    // UnixNano in hex; the sequence keeps names apart when a virtual clock stands still.
    const stamp = (BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16);
    const time = rfc3339(now);
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${meta.name ?? 'pod'}.${stamp}`, namespace: meta.namespace ?? 'default' },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: meta.namespace,
        name: meta.name,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      reason,
      message,
      type,
      source: { component: this.component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      reportingComponent: this.component,
      reportingInstance: this.component,
    } as KubeObject;
  }

  /** Resolves once every event write started so far has answered. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
