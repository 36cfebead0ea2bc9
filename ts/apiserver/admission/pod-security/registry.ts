/**
 * The check registry (k8s.io/pod-security-admission policy/registry.go): for every policy version
 * v1.0 … v1.<max> it precomputes which revision of each check applies (the newest one not newer
 * than the version); restricted runs every baseline check a restricted check does not override,
 * then its own. Checks run baseline first, then restricted, each group by check ID, so messages
 * list violations in a stable order. A version above the newest check revision (and `latest`)
 * evaluates as that newest version: v1.32 in Kubernetes 1.32.
 */
import type { Check, CheckPodFn, CheckResult, VersionedCheck } from './check.js';
import { BASELINE_CHECKS } from './checks-baseline.js';
import { RESTRICTED_CHECKS } from './checks-restricted.js';
import type { LevelVersion } from './levels.js';
import type { PodMetadata, PodSpec } from './pod-spec.js';

/** policy.Evaluator. */
export interface Evaluator {
  /** The results of every check of the level at the version (none for privileged). */
  evaluatePod(lv: LevelVersion, meta: PodMetadata, spec: PodSpec): CheckResult[];
  /** The newest policy version any check has a revision for. */
  readonly maxMinor: number;
}

/** The revision of `check` that applies at v1.<minor>, if any. */
function revisionAt(check: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const v of check.versions) if (v.minimumMinor <= minor) found = v;
  return found;
}

/** NewEvaluator(DefaultChecks()). */
export function newEvaluator(checks: readonly Check[] = [...BASELINE_CHECKS, ...RESTRICTED_CHECKS]): Evaluator {
  const maxMinor = Math.max(...checks.map((c) => c.versions[c.versions.length - 1]?.minimumMinor ?? 0));
  const byId = (level: Check['level']) =>
    checks.filter((c) => c.level === level).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const baseline = byId('baseline');
  const restricted = byId('restricted');
  const baselineAt: CheckPodFn[][] = [];
  const restrictedAt: CheckPodFn[][] = [];
  for (let minor = 0; minor <= maxMinor; minor++) {
    const overrides = new Set<string>();
    const ownChecks: CheckPodFn[] = [];
    for (const c of restricted) {
      const r = revisionAt(c, minor);
      if (r === undefined) continue;
      ownChecks.push(r.checkPod);
      for (const id of r.overrideCheckIDs ?? []) overrides.add(id);
    }
    const base: CheckPodFn[] = [];
    const inherited: CheckPodFn[] = [];
    for (const c of baseline) {
      const r = revisionAt(c, minor);
      if (r === undefined) continue;
      base.push(r.checkPod);
      if (!overrides.has(c.id)) inherited.push(r.checkPod);
    }
    baselineAt[minor] = base;
    restrictedAt[minor] = [...inherited, ...ownChecks];
  }
  return {
    maxMinor,
    evaluatePod(lv, meta, spec) {
      if (lv.level === 'privileged') return [];
      const minor = lv.version.latest ? maxMinor : Math.min(lv.version.minor, maxMinor);
      const fns = (lv.level === 'baseline' ? baselineAt : restrictedAt)[minor] ?? [];
      return fns.map((fn) => fn(meta, spec));
    },
  };
}
