/**
 * What a Pod Security check is and what it answers (k8s.io/pod-security-admission policy/checks.go):
 * a check has an ID, a level and revisions keyed by the policy version they apply from; a result
 * allows the pod or names a reason (`host namespaces`) and an optional detail (`hostNetwork=true`).
 * Results aggregate to `reason (detail), reason, …` for one object and to `reason, reason` when
 * existing pods are summarised.
 */
import type { PodMetadata, PodSpec } from './pod-spec.js';

export interface CheckResult {
  readonly allowed: boolean;
  /** Succinct, always shown: `host ports`, `privileged`. */
  readonly forbiddenReason?: string;
  /** Specific values, shown when checking one object: `container "c" must not set …`. */
  readonly forbiddenDetail?: string;
}

export type CheckPodFn = (meta: PodMetadata, spec: PodSpec) => CheckResult;

export const ALLOWED: CheckResult = { allowed: true };

export function forbiddenResult(reason: string, detail: string): CheckResult {
  return { allowed: false, forbiddenReason: reason, forbiddenDetail: detail };
}

export interface VersionedCheck {
  /** The first policy version (v1.<minimumMinor>) this revision applies to. */
  readonly minimumMinor: number;
  readonly checkPod: CheckPodFn;
  /** Baseline checks this restricted check replaces while it applies (a stricter check of the same fields). */
  readonly overrideCheckIDs?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  /** Revisions in strictly increasing version order. */
  readonly versions: readonly VersionedCheck[];
}

// policy.UnknownForbiddenReason.
const UNKNOWN_FORBIDDEN_REASON = 'unknown forbidden reason';

/** AggregateCheckResult: the reasons and details of the forbidding checks, in check order. */
export interface AggregateCheckResult {
  readonly allowed: boolean;
  readonly forbiddenReasons: readonly string[];
  readonly forbiddenDetails: readonly string[];
}

export function aggregateCheckResults(results: readonly CheckResult[]): AggregateCheckResult {
  const forbiddenReasons: string[] = [];
  const forbiddenDetails: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    forbiddenReasons.push(r.forbiddenReason || UNKNOWN_FORBIDDEN_REASON);
    forbiddenDetails.push(r.forbiddenDetail ?? '');
  }
  return { allowed: forbiddenReasons.length === 0, forbiddenReasons, forbiddenDetails };
}

/** ForbiddenReason: `host ports, privileged`. */
export function forbiddenReason(a: AggregateCheckResult): string {
  return a.forbiddenReasons.join(', ');
}

/** ForbiddenDetail: `hostPort (container "c" uses hostPort 80), privileged (…)`. */
export function forbiddenDetail(a: AggregateCheckResult): string {
  return a.forbiddenReasons
    .map((reason, i) => {
      const detail = a.forbiddenDetails[i] ?? '';
      return detail === '' ? reason : `${reason} (${detail})`;
    })
    .join(', ');
}
