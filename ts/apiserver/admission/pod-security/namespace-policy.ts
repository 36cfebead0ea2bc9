/**
 * A namespace's Pod Security policy from its `pod-security.kubernetes.io/*` labels, as
 * api.PolicyToEvaluate (k8s.io/pod-security-admission api/helpers.go) resolves it: a missing label
 * takes the configured default; a bad value is reported as a field error on
 * `metadata.labels[<label>]` and replaced — an enforce level by `restricted` (fail closed), an audit
 * or warn level by `privileged` (fail open), a version by `latest`.
 */
import { type ErrorList, FieldPath, invalid } from '../../../api/field-errors.js';
import { LATEST, type Level, type LevelVersion, parseLevel, parseVersion, type Version } from './levels.js';

// api/constants.go.
const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

/** api.Policy: what is enforced, audited and warned about in a namespace. */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

/**
 * kube-apiserver's default PodSecurityConfiguration (admission/api/v1 defaults.go): every mode
 * `privileged` at `latest`, no exemptions.
 */
export const DEFAULT_POLICY: Policy = {
  enforce: { level: 'privileged', version: LATEST },
  audit: { level: 'privileged', version: LATEST },
  warn: { level: 'privileged', version: LATEST },
};

/** Policy.FullyPrivileged: nothing to check in any mode. */
export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

const labelsPath = FieldPath.root('metadata', 'labels');

/** PolicyToEvaluate: the policy (always usable) and the label errors, in label order. */
export function policyToEvaluate(
  labels: Readonly<Record<string, string>> | undefined,
  defaults: Policy = DEFAULT_POLICY,
): { policy: Policy; errors: ErrorList } {
  const errors: ErrorList = [];
  if (labels === undefined || Object.keys(labels).length === 0) return { policy: defaults, errors };
  const has = (k: string) => Object.hasOwn(labels, k);
  const level = (label: string, current: Level, failOpen: boolean): Level => {
    if (!has(label)) return current;
    const value = labels[label] as string;
    const parsed = parseLevel(value);
    if (parsed.error === undefined) return parsed.level;
    errors.push(invalid(labelsPath.key(label), value, parsed.error));
    return failOpen ? 'privileged' : parsed.level;
  };
  const version = (label: string, current: Version): Version => {
    if (!has(label)) return current;
    const value = labels[label] as string;
    const parsed = parseVersion(value);
    if (parsed.error !== undefined) errors.push(invalid(labelsPath.key(label), value, parsed.error));
    return parsed.version;
  };
  const enforceLevel = level(ENFORCE_LEVEL_LABEL, defaults.enforce.level, false);
  const enforceVersion = version(ENFORCE_VERSION_LABEL, defaults.enforce.version);
  const auditLevel = level(AUDIT_LEVEL_LABEL, defaults.audit.level, true);
  const auditVersion = version(AUDIT_VERSION_LABEL, defaults.audit.version);
  const warnLevel = level(WARN_LEVEL_LABEL, defaults.warn.level, true);
  const warnVersion = version(WARN_VERSION_LABEL, defaults.warn.version);
  return {
    policy: {
      enforce: { level: enforceLevel, version: enforceVersion },
      audit: { level: auditLevel, version: auditVersion },
      warn: { level: warnLevel, version: warnVersion },
    },
    errors,
  };
}
