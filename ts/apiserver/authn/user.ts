/**
 * The well-known users and groups of authentication (k8s.io/apiserver pkg/authentication/user/user.go)
 * and the two authenticators that only shape a user: the group adder every authenticated user
 * passes through, and the anonymous user.
 */
import type { UserInfo } from './tokens.js';

/** user.go: Anonymous, AllAuthenticated, AllUnauthenticated, SystemPrivilegedGroup, APIServerUser. */
export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const APISERVER_USER = 'system:apiserver';
/** user.go: KubeControllerManager, KubeScheduler (the users their bootstrap roles are bound to). */
export const KUBE_CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';
export const KUBE_SCHEDULER_USER = 'system:kube-scheduler';

/**
 * group/authenticated_group_adder.go: `system:authenticated` appended, unless the user already has
 * it or `system:unauthenticated`.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}

/** request/anonymous/anonymous.go: the user of a request without credentials (--anonymous-auth). */
export function anonymousUser(): UserInfo {
  return { name: ANONYMOUS_USER, uid: '', groups: [ALL_UNAUTHENTICATED] };
}
