/**
 * The authorization step of the handler chain (k8s.io/apiserver pkg/endpoints/filters/authorization.go
 * WithAuthorization): the request's attributes decided by the authorizer; anything but allow is
 * 403 Forbidden with responsewriters' message (`pods is forbidden: User "jane" cannot list resource
 * "pods" in API group "" in the namespace "default"`), the authorizer's reason appended.
 */
import { forbiddenStatusError } from '../../api/status.js';
import { type Attributes, attributesFor, type UserInfo } from './attributes.js';
import type { Authorizer } from './authorizer.js';
import { checkRbacWrite } from './escalation.js';
import type { RbacIndex } from './rbac-index.js';

/** Authorizes `method url` for `user`; returns its attributes, or throws the 403. */
export async function authorizeRequest(
  authz: Authorizer,
  user: UserInfo,
  method: string,
  url: URL,
): Promise<Attributes> {
  const a = attributesFor(user, method, url);
  const { decision, reason } = await authz.authorize(a);
  if (decision === 'allow') return a;
  throw forbiddenStatusError(
    {
      user: a.user.name,
      verb: a.verb,
      resourceRequest: a.resourceRequest,
      path: a.path,
      group: a.apiGroup,
      resource: a.resource,
      subresource: a.subresource,
      namespace: a.namespace,
      name: a.name,
    },
    reason,
  );
}

/** The escalation check (escalation.ts) for a write to an RBAC resource, undefined for any other resource. */
export function rbacWriteCheck(
  authz: Authorizer,
  index: RbacIndex,
  user: UserInfo,
  target: { group: string; resource: string; namespace: string; name: string },
): ((obj: Record<string, unknown>, old: Record<string, unknown> | undefined) => Promise<void>) | undefined {
  if (target.group !== 'rbac.authorization.k8s.io') return undefined;
  return (obj, old) => checkRbacWrite(authz, index, user, target, obj, old);
}
