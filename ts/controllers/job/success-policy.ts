/**
 * The success policy of Indexed Jobs (pkg/controller/job/success_policy.go at v1.32): the Job
 * meets its success criteria (SuccessCriteriaMet, reason SuccessPolicy) as soon as one rule holds —
 * all of its succeededIndexes succeeded, or at least succeededCount of them (or of all indexes,
 * for a rule with only a count).
 *
 *   const { message, met } = matchSuccessPolicy(job.spec.successPolicy, completions, succeededIndexes);
 *   // met: "Matched rules at index 0"
 */
import type { JobCondition, SuccessPolicy } from '../../api/types/batch/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { type Interval, type OrderedIntervals, parseIndexesFromString, totalIndexes } from './indexed-job-utils.js';
import { findConditionByType, JOB_FEATURE_GATES, JOB_SUCCESS_CRITERIA_MET, type ReadonlyJob } from './job-util.js';

/** delayTerminalCondition (job_controller.go): JobManagedBy or JobPodReplacementPolicy on — both are in 1.32. */
export const DELAY_TERMINAL_CONDITION = JOB_FEATURE_GATES.JobManagedBy || JOB_FEATURE_GATES.JobPodReplacementPolicy;

/** matchSuccessPolicy: the message of the first rule that holds. */
export function matchSuccessPolicy(
  successPolicy: DeepReadonly<SuccessPolicy> | undefined,
  completions: number,
  succeededIndexes: OrderedIntervals,
): { message: string; met: boolean } {
  if (!JOB_FEATURE_GATES.JobSuccessPolicy || successPolicy === undefined || succeededIndexes.length === 0) {
    return { message: '', met: false };
  }
  const rulesMatchedMsg = 'Matched rules at index';
  for (const [index, rule] of successPolicy.rules.entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIndexesFromString(rule.succeededIndexes, completions);
      // A rule whose indexes are all beyond completions matches nothing.
      if (required.length === 0) continue;
      if (matchSucceededIndexesRule(required, succeededIndexes, rule.succeededCount)) {
        return { message: `${rulesMatchedMsg} ${index}`, met: true };
      }
    } else if (rule.succeededCount !== undefined && totalIndexes(succeededIndexes) >= rule.succeededCount) {
      return { message: `${rulesMatchedMsg} ${index}`, met: true };
    }
  }
  return { message: '', met: false };
}

/** hasSuccessCriteriaMetCondition: the SuccessCriteriaMet=True condition, if the Job has it. */
export function hasSuccessCriteriaMetCondition(job: ReadonlyJob): DeepReadonly<JobCondition> | undefined {
  const c = findConditionByType(job.status?.conditions, JOB_SUCCESS_CRITERIA_MET);
  return c !== undefined && c.status === 'True' ? c : undefined;
}

/** isSuccessCriteriaMetCondition. */
export function isSuccessCriteriaMetCondition(cond: DeepReadonly<JobCondition> | undefined): boolean {
  return cond !== undefined && cond.type === JOB_SUCCESS_CRITERIA_MET && cond.status === 'True';
}

/** matchSucceededIndexesRule: how many of the rule's indexes succeeded, against all of them or the count. */
export function matchSucceededIndexesRule(
  ruleIndexes: OrderedIntervals,
  succeededIndexes: OrderedIntervals,
  succeededCount: number | undefined,
): boolean {
  let contains = 0;
  let s = 0;
  let r = 0;
  while (r < ruleIndexes.length && s < succeededIndexes.length) {
    const rule = ruleIndexes[r] as Interval;
    const succ = succeededIndexes[s] as Interval;
    const overlap = Math.min(rule.last, succ.last) - Math.max(rule.first, succ.first) + 1;
    if (overlap > 0) contains += overlap;
    if (succ.last < rule.last) s++;
    else if (succ.last > rule.last) r++;
    else {
      s++;
      r++;
    }
  }
  return contains === totalIndexes(ruleIndexes) || (succeededCount !== undefined && contains >= succeededCount);
}
