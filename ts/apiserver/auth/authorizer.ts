/**
 * The authorizer chain kube-apiserver runs for `--authorization-mode=RBAC`: the privileged group
 * authorizer (system:masters may do anything; pkg/kubeapiserver/authorizer/config.go,
 * authorizerfactory.NewPrivilegedGroups) before RBAC (plugin/pkg/auth/authorizer/rbac/rbac.go).
 *
 *   const authz = createAuthorizer(informers, storage);   // the apiserver's shared informers
 *   await authz.authorize(attributesFor(user, 'GET', url)); // → { decision: 'allow', reason: 'RBAC: allowed by …' }
 */
import type { PolicyRule } from '../../api/types/rbac/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { Storage } from '../../storage/storage.js';
import type { Attributes, UserInfo } from './attributes.js';
import { RbacIndex } from './rbac-index.js';
import { ruleAllows } from './rule-match.js';
import { type RuleSource, visitRulesFor } from './rule-resolver.js';

export type { PolicyRule } from '../../api/types/rbac/v1.js';
export type { Attributes, UserInfo } from './attributes.js';

/** authorizer.Decision. */
export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why: `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"`, or the resolution errors of a denial. */
  reason: string;
}

/** authorizer.ResourceRuleInfo (what SelfSubjectRulesReview reports). */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** authorizer.NonResourceRuleInfo. */
export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

/** RulesFor's answer (authorizer.RuleResolver). */
export interface SubjectRules {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** True when a rule source could not be read (RBAC itself reports false; errors go in evaluationError). */
  incomplete: boolean;
  /** The resolution errors (a binding to a missing role…), '' when none. */
  evaluationError: string;
}

export interface Authorizer {
  /** Decides one request (authorizer.Authorizer.Authorize). */
  authorize(attributes: Attributes): Promise<AuthorizationResult>;
  /** The rules `user` holds in `namespace` ('' for cluster-wide only): RBACAuthorizer.RulesFor. */
  rulesFor(user: UserInfo, namespace: string): Promise<SubjectRules>;
  /** The PolicyRules `user` holds in `namespace` and the resolution errors (DefaultRuleResolver.RulesFor). */
  policyRulesFor(user: UserInfo, namespace: string): Promise<{ rules: DeepReadonly<PolicyRule>[]; errors: string[] }>;
  /** Resolves once every RBAC change made so far is visible to the authorizer (tests, bootstrap). */
  synced(): Promise<void>;
  /** Lets go of what it reads (the RBAC authorizer's informers are their factory's, which its owner stops). */
  stop(): void;
}

/** The authorizer with the RBAC index it reads (escalation checks resolve rules from it too). */
export interface RbacAuthorizer extends Authorizer {
  readonly index: RbacIndex;
}

/** Whether `a` is the RBAC authorizer (and so has the index escalation checks can share). */
export function isRbacAuthorizer(a: Authorizer): a is RbacAuthorizer {
  return 'index' in a && (a as Partial<RbacAuthorizer>).index instanceof RbacIndex;
}

// user.SystemPrivilegedGroup (k8s.io/apiserver pkg/authentication/user/user.go).
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/**
 * utilerrors.NewAggregate(errs).Error(): one error as itself, several as `[e1, e2]`
 * (k8s.io/apimachinery pkg/util/errors/errors.go; duplicates listed once).
 */
export function aggregateMessage(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  if (unique.length === 0) return '';
  if (unique.length === 1) return unique[0] as string;
  return `[${unique.join(', ')}]`;
}

/**
 * The privileged group authorizer, then RBAC, over the RBAC objects of the apiserver's `informers`
 * (whose client must be in system:masters, as kube-apiserver's loopback client is; rbac-index.ts);
 * `storage` is where synced() learns the revision to reach.
 */
export function createAuthorizer(informers: SharedInformerFactory, storage: Storage): RbacAuthorizer {
  const index = new RbacIndex(informers, storage);

  async function policyRulesFor(
    user: UserInfo,
    namespace: string,
  ): Promise<{ rules: DeepReadonly<PolicyRule>[]; errors: string[] }> {
    await index.start();
    const rules: DeepReadonly<PolicyRule>[] = [];
    const errors: string[] = [];
    visitRulesFor(index, user, namespace, (_source, rule, err) => {
      if (rule !== undefined) rules.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  return {
    index,
    async authorize(a) {
      // privilegedGroupAuthorizer: allow, no reason.
      if (a.user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return { decision: 'allow', reason: '' };
      await index.start();
      let allowedBy: RuleSource | undefined;
      const errors: string[] = [];
      visitRulesFor(index, a.user, a.namespace, (source, rule, err) => {
        if (rule !== undefined && source !== undefined && ruleAllows(a, rule)) {
          allowedBy = source;
          return false;
        }
        if (err !== undefined) errors.push(err);
        return true;
      });
      if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy.describe()}` };
      // RBAC never denies: no opinion, with the resolution errors as the reason.
      return { decision: 'noOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '' };
    },

    async rulesFor(user, namespace) {
      const { rules, errors } = await policyRulesFor(user, namespace);
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      for (const r of rules) {
        if ((r.resources ?? []).length > 0) {
          resourceRules.push({
            verbs: [...r.verbs],
            apiGroups: [...(r.apiGroups ?? [])],
            resources: [...(r.resources ?? [])],
            resourceNames: [...(r.resourceNames ?? [])],
          });
        }
        if ((r.nonResourceURLs ?? []).length > 0) {
          nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...(r.nonResourceURLs ?? [])] });
        }
      }
      return { resourceRules, nonResourceRules, incomplete: false, evaluationError: aggregateMessage(errors) };
    },

    policyRulesFor,
    synced: () => index.synced(),
    stop: () => index.stop(),
  };
}
