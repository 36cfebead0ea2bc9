/**
 * The pod failure policy (pkg/controller/job/pod_failure_policy.go at v1.32): the first rule of
 * spec.podFailurePolicy that a failed pod matches — by a container's non-zero exit code
 * (onExitCodes, In / NotIn, optionally one container) or a pod condition (onPodConditions, e.g.
 * DisruptionTarget=True) — decides whether the failure fails the Job (FailJob), its index
 * (FailIndex), counts against the backoff limit (Count), or is ignored (Ignore).
 *
 *   const { message, countFailed, action } = matchPodFailurePolicy(job.spec.podFailurePolicy, pod);
 *   if (message !== undefined) failJob(message);    // FailJob
 */
import type {
  PodFailurePolicy,
  PodFailurePolicyAction,
  PodFailurePolicyOnExitCodesRequirement,
} from '../../api/types/batch/v1.js';
import type { ContainerStatus, PodCondition, PodStatus } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { ReadonlyPod } from './job-util.js';

export interface PodFailurePolicyMatch {
  /** The Job failure message of a FailJob rule. */
  message: string | undefined;
  /** Whether the failure counts against backoffLimit (false only for Ignore). */
  countFailed: boolean;
  /** The action of the matching rule, if one matched. */
  action: PodFailurePolicyAction | undefined;
}

/** matchPodFailurePolicy: no policy, or no rule matching, counts the failure. */
export function matchPodFailurePolicy(
  policy: DeepReadonly<PodFailurePolicy> | undefined,
  failedPod: ReadonlyPod,
): PodFailurePolicyMatch {
  if (policy === undefined) return { message: undefined, countFailed: true, action: undefined };
  const status = failedPod.status ?? {};
  const ns = failedPod.metadata?.namespace ?? '';
  const name = failedPod.metadata?.name ?? '';
  for (const [index, rule] of policy.rules.entries()) {
    if (rule.onExitCodes !== undefined) {
      const cs = matchOnExitCodes(status, rule.onExitCodes);
      if (cs === undefined) continue;
      const exitCode = cs.state?.terminated?.exitCode ?? 0;
      const msg = `Container ${cs.name} for pod ${ns}/${name} failed with exit code ${exitCode} matching ${rule.action} rule at index ${index}`;
      const decided = decide(rule.action, msg);
      if (decided !== undefined) return decided;
    } else if (rule.onPodConditions !== undefined) {
      const cond = matchOnPodConditions(status, rule.onPodConditions);
      if (cond === undefined) continue;
      const msg = `Pod ${ns}/${name} has condition ${cond.type} matching ${rule.action} rule at index ${index}`;
      const decided = decide(rule.action, msg);
      if (decided !== undefined) return decided;
    }
  }
  return { message: undefined, countFailed: true, action: undefined };
}

/** The switch on a matching rule's action; an unknown action matches nothing (the next rule is tried). */
function decide(action: PodFailurePolicyAction, failJobMessage: string): PodFailurePolicyMatch | undefined {
  switch (action) {
    case 'Ignore':
      return { message: undefined, countFailed: false, action: 'Ignore' };
    // JobBackoffLimitPerIndex is on (1.32 default), so FailIndex is an action.
    case 'FailIndex':
      return { message: undefined, countFailed: true, action: 'FailIndex' };
    case 'Count':
      return { message: undefined, countFailed: true, action: 'Count' };
    case 'FailJob':
      return { message: failJobMessage, countFailed: true, action: 'FailJob' };
    default:
      return undefined;
  }
}

/** matchOnExitCodes: the containers first, then the init containers. */
function matchOnExitCodes(
  status: DeepReadonly<PodStatus>,
  requirement: DeepReadonly<PodFailurePolicyOnExitCodesRequirement>,
): DeepReadonly<ContainerStatus> | undefined {
  return (
    matchingContainer(status.containerStatuses ?? [], requirement) ??
    matchingContainer(status.initContainerStatuses ?? [], requirement)
  );
}

/** matchOnPodConditions: the first of the pod's conditions that a pattern names with its status. */
function matchOnPodConditions(
  status: DeepReadonly<PodStatus>,
  patterns: DeepReadonly<PodFailurePolicy['rules'][number]['onPodConditions'] & object>,
): DeepReadonly<PodCondition> | undefined {
  for (const cond of status.conditions ?? []) {
    for (const pattern of patterns) {
      if (cond.type === pattern.type && cond.status === pattern.status) return cond;
    }
  }
  return undefined;
}

/** getMatchingContainerFromList: a terminated container with a non-zero exit code the operator matches. */
function matchingContainer(
  statuses: readonly DeepReadonly<ContainerStatus>[],
  requirement: DeepReadonly<PodFailurePolicyOnExitCodesRequirement>,
): DeepReadonly<ContainerStatus> | undefined {
  for (const cs of statuses) {
    const terminated = cs.state?.terminated;
    if (terminated === undefined) continue;
    if (requirement.containerName !== undefined && requirement.containerName !== cs.name) continue;
    if (terminated.exitCode !== 0 && exitCodeOperatorMatches(terminated.exitCode, requirement)) return cs;
  }
  return undefined;
}

/** isOnExitCodesOperatorMatching. */
function exitCodeOperatorMatches(
  exitCode: number,
  requirement: DeepReadonly<PodFailurePolicyOnExitCodesRequirement>,
): boolean {
  switch (requirement.operator) {
    case 'In':
      return requirement.values.includes(exitCode);
    case 'NotIn':
      return !requirement.values.includes(exitCode);
    default:
      return false;
  }
}
