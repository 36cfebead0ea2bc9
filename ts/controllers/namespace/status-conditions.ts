/**
 * The namespace deletion conditions (pkg/controller/namespace/deletion/status_condition_utils.go,
 * v1.32): what a terminating namespace's status says about its content — remaining resources,
 * remaining finalizers, failed deletions — each maintained type in its failing or its "ok" form.
 */
import type { Namespace, NamespaceCondition } from '../../api/types/core/v1.js';

/** A condition as the deleter writes it: always with a reason and a message. */
export type DeletionCondition = NamespaceCondition & { reason: string; message: string };

// deletion/status_condition_utils.go: the conditions the deleter maintains and their "ok" forms.
const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
const OK: Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: {
    reason: 'ContentHasNoFinalizers',
    message: 'All content-preserving finalizers finished',
  },
};

/** ProcessContentTotals + ProcessDeleteContentErr: the failing conditions of one pass. */
export function deletionConditions(
  remaining: string[],
  byFinalizer: ReadonlyMap<string, number>,
  errors: readonly Error[],
): DeletionCondition[] {
  const out: DeletionCondition[] = [];
  if (errors.length > 0) {
    const msgs = errors.map((e) => e.message).sort();
    out.push({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${errors.length} remaining: ${msgs.join(', ')}`,
    });
  }
  if (remaining.length > 0) {
    out.push({
      type: 'NamespaceContentRemaining',
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${[...remaining].sort().join(', ')}`,
    });
  }
  const finalizers = [...byFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`);
  if (finalizers.length > 0) {
    out.push({
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers.sort().join(', ')}`,
    });
  }
  return out;
}

/** updateConditions: every maintained type set to its failing or ok form; true when something changed. */
export function updateConditions(ns: Namespace, failing: readonly DeletionCondition[], now: string): boolean {
  ns.status ??= {};
  const status = ns.status;
  status.conditions ??= [];
  const conditions = status.conditions;
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const next = failing.find((c) => c.type === type) ?? { type, status: 'False' as const, ...OK[type] };
    const old = conditions.find((c) => c.type === type);
    if (old === undefined) {
      conditions.push({ ...next, lastTransitionTime: now });
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      old.status = next.status;
      old.reason = next.reason;
      old.message = next.message;
      changed = true;
    }
  }
  return changed;
}
