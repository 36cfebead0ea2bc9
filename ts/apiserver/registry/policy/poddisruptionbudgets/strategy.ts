/** The PodDisruptionBudget strategy (pkg/registry/policy/poddisruptionbudget/strategy.go, v1.32): the zero status. */
import { startStatus } from '../../generic/default-strategy.js';
import type { ResourceStrategy } from '../../strategy.js';

export const podDisruptionBudgetStrategy: ResourceStrategy = {
  // The zero PodDisruptionBudgetStatus as Go serializes it: the counts have no omitempty.
  prepareForCreate: (obj, info) =>
    startStatus(info, obj, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
};
