/**
 * PriorityClasses (pkg/registry/scheduling/priorityclass, v1.32): SetDefaults_PriorityClass
 * (pkg/apis/scheduling/v1/defaults.go), the classes kube-apiserver creates at startup
 * (pkg/apis/scheduling/helpers.go SystemPriorityClasses), and the storage's Delete, which refuses
 * to delete them.
 */
import { newForbidden } from '../../../../api/status.js';
import type { PriorityClass } from '../../../../api/types/scheduling/v1.js';
import type { ResourceStrategy } from '../../strategy.js';

/** scheduling.SystemCriticalPriority: 2 × HighestUserDefinablePriority (1e9). */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** The built-in PriorityClasses, as kube-apiserver's scheduling post-start hook creates them. */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

export const priorityClassStrategy: ResourceStrategy = {
  defaults(o) {
    o.preemptionPolicy ??= 'PreemptLowerPriority';
    // Value has no omitempty: Go serializes a missing one as 0.
    o.value ??= 0;
  },
  /** storage.go Delete: 403 "this is a system priority class and cannot be deleted". */
  checkDelete(name, info) {
    if (SYSTEM_PRIORITY_CLASSES.some((pc) => pc.metadata?.name === name)) {
      throw newForbidden(
        { group: info.group, resource: info.resource },
        name,
        'this is a system priority class and cannot be deleted',
      );
    }
  },
};
