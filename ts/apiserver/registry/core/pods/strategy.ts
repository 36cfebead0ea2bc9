/**
 * The pod strategy (pkg/registry/core/pod/strategy.go, v1.32): SetDefaults_Pod and the pod spec
 * defaults (defaults.ts), the Pending status a pod starts with, the fields of feature gates off in
 * 1.32 dropped, the status strategy (ownerReferences and qosClass kept), and graceful deletion
 * (CheckGracefulDelete). The subresources are binding.ts, eviction.ts and log.ts.
 */
import type { Pod } from '../../../../api/types/core/v1.js';
import { keepStoredMetadata, keepStoredSpec, keepStoredStatus, startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';
import { applyPodDefaults, applyPodSpecDefaults, dropDisabledPodFields } from './defaults.js';

/**
 * The v1 ↔ internal round trip of the IPs (pkg/apis/core/v1/conversion.go
 * Convert_v1_PodStatus_To_core_PodStatus and back): a lone podIP (hostIP) becomes the list's only
 * entry; with a list, the single field is its first entry — so a client that writes either reads
 * both, as controllers (EndpointSlices read podIPs) expect.
 */
function roundTripIPs(status: Obj, single: 'podIP' | 'hostIP', list: 'podIPs' | 'hostIPs'): void {
  const ips = Array.isArray(status[list]) ? (status[list] as unknown[]) : [];
  if (ips.length === 0 && typeof status[single] === 'string' && status[single] !== '') {
    status[list] = [{ ip: status[single] }];
    return;
  }
  const first = ips[0];
  if (isObj(first) && typeof first.ip === 'string') status[single] = first.ip;
}

export const podStrategy: ResourceStrategy = {
  defaults(o) {
    const spec = child(o, 'spec');
    applyPodSpecDefaults(spec);
    applyPodDefaults(spec);
    if (isObj(o.status)) {
      roundTripIPs(o.status, 'podIP', 'podIPs');
      roundTripIPs(o.status, 'hostIP', 'hostIPs');
    }
  },
  prepareForCreate(obj, info) {
    startStatus(info, obj, { phase: 'Pending' });
    dropDisabledPodFields(child(obj as Obj, 'spec'), undefined);
  },
  update: {
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      const oldSpec = (old as Obj).spec;
      dropDisabledPodFields(child(obj as Obj, 'spec'), isObj(oldSpec) ? oldSpec : undefined);
    },
  },
  status: {
    /** podStatusStrategy.PrepareForUpdate: the stored spec and ownerReferences; the stored qosClass when the new status has none. */
    prepareForUpdate(obj, old) {
      keepStoredSpec(obj, old);
      keepStoredMetadata(obj, old, 'ownerReferences');
      const o = obj as Obj;
      const prev = old as Obj;
      const status: Obj = isObj(o.status) ? o.status : {};
      const oldStatus: Obj = isObj(prev.status) ? prev.status : {};
      if ((status.qosClass ?? '') === '' && oldStatus.qosClass !== undefined) status.qosClass = oldStatus.qosClass;
      if (o.status !== undefined || status.qosClass !== undefined) o.status = status;
    },
  },
  /**
   * podStrategy.CheckGracefulDelete: the requested period, else spec.terminationGracePeriodSeconds;
   * 0 for a pod never scheduled or already terminated.
   */
  checkGracefulDelete(obj, options) {
    const pod = obj as Pod;
    let period = options.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 0;
    if ((pod.spec?.nodeName ?? '') === '') period = 0;
    if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') period = 0;
    options.gracePeriodSeconds = period;
    return true;
  },
};
