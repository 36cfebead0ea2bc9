/**
 * TriggerTimeTracker (k8s.io/endpointslice util/trigger_time_tracker.go, v0.32): the time of the
 * earliest change since the last sync that the endpoints of a Service reflect — a pod's Ready
 * transition or the Service's creation — exported as the `endpoints.kubernetes.io/last-change-trigger-time`
 * annotation (for latency SLIs). A Service seen for the first time gives its creationTimestamp.
 *
 *   const t = tracker.computeEndpointLastChangeTriggerTime(namespace, service, pods);
 *   if (t !== undefined) annotations[ENDPOINTS_LAST_CHANGE_TRIGGER_TIME] = rfc3339Nano(t);
 */
import type { Pod, Service } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { keyOf } from '../../client/informers/keys.js';
import { podReadyCondition } from './endpoint-utils.js';

interface ServiceState {
  /** ms; undefined: the zero time. */
  lastServiceTriggerTime: number | undefined;
  lastPodTriggerTimes: Map<string, number>;
}

export class TriggerTimeTracker {
  private readonly serviceStates = new Map<string, ServiceState>();

  /**
   * ComputeEndpointLastChangeTriggerTime: the trigger time (ms) to export, undefined for none (Go's
   * zero time: the annotation is cleared). The state is updated whatever the sync then does.
   */
  computeEndpointLastChangeTriggerTime(
    namespace: string,
    service: DeepReadonly<Service>,
    pods: readonly DeepReadonly<Pod>[],
  ): number | undefined {
    const key = keyOf(namespace, service.metadata?.name ?? '');
    const known = this.serviceStates.get(key);
    const state: ServiceState = known ?? { lastServiceTriggerTime: undefined, lastPodTriggerTimes: new Map() };
    let minChanged: number | undefined;
    const podTriggerTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (t === undefined) continue;
      const name = pod.metadata?.name ?? '';
      podTriggerTimes.set(name, t);
      const last = state.lastPodTriggerTimes.get(name);
      if (last === undefined || t > last) minChanged = earliest(minChanged, t);
    }
    const serviceTriggerTime = parseTime(service.metadata?.creationTimestamp);
    if (
      serviceTriggerTime !== undefined &&
      (state.lastServiceTriggerTime === undefined || serviceTriggerTime > state.lastServiceTriggerTime)
    ) {
      minChanged = earliest(minChanged, serviceTriggerTime);
    }
    this.serviceStates.set(key, { lastServiceTriggerTime: serviceTriggerTime, lastPodTriggerTimes: podTriggerTimes });
    // A new Service: its creation is what triggered the endpoints.
    if (known === undefined) return serviceTriggerTime;
    return minChanged;
  }

  /** DeleteService: forgets the Service's state. */
  deleteService(namespace: string, name: string): void {
    this.serviceStates.delete(keyOf(namespace, name));
  }
}

/** getPodTriggerTime: the Ready condition's lastTransitionTime. */
function podTriggerTime(pod: DeepReadonly<Pod>): number | undefined {
  return parseTime(podReadyCondition(pod)?.lastTransitionTime);
}

function parseTime(t: string | null | undefined): number | undefined {
  if (t === undefined || t === null || t === '') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

const earliest = (a: number | undefined, b: number): number => (a === undefined || b < a ? b : a);

/**
 * time.RFC3339Nano of a time in ms, UTC: fraction digits without trailing zeros, none for a whole
 * second (`2024-05-01T12:00:00Z`, `2024-05-01T12:00:00.5Z`).
 */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2024-05-01T12:00:00.500Z
  const [whole = '', frac = ''] = iso.slice(0, -1).split('.');
  const trimmed = frac.replace(/0+$/, '');
  return trimmed === '' ? `${whole}Z` : `${whole}.${trimmed}Z`;
}
