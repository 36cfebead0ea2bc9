/**
 * What the generic store (store.ts, delete.ts) and the REST handlers (endpoints/) are called
 * with: the server's shared parts (RestContext) and one routed resource request (ResourceRequest,
 * the role of k8s.io/apiserver pkg/endpoints/handlers RequestScope and the request's context).
 */
import type { Clock } from '../../../sim/clock.js';
import type { Storage } from '../../../storage/storage.js';
import type { AdmissionChain } from '../../admission/chain.js';
import type { ServiceAllocators } from '../../allocators/service-allocation.js';
import type { UserInfo } from '../../authn/tokens.js';
import type { ResourceInfo } from '../resources.js';

export interface RestContext {
  storage: Storage;
  clock: Clock;
  /** ClusterIP and NodePort allocation for Services (allocators/); absent: Services get none. */
  services?: ServiceAllocators;
  /** Admission (admission/chain.ts): mutating before the strategy, validating right before storage. */
  admission?: AdmissionChain;
}

/** One resource request, after routing. */
export interface ResourceRequest {
  info: ResourceInfo;
  /** '' for cluster-scoped resources and all-namespace lists. */
  namespace: string;
  name: string;
  query: URLSearchParams;
  accept: string | null;
  /**
   * A check of the proposed object before it is prepared and validated (old: the stored one on
   * updates); RBAC escalation prevention (auth/escalation.ts) throws its 403 from here.
   */
  admit?: (obj: Record<string, unknown>, old: Record<string, unknown> | undefined) => Promise<void>;
  /** Who asks (after authentication); admission plugins see it. */
  user?: UserInfo;
  /** The subresource written (`status`, `scale`, `binding`, …) as admission names it; '' or absent for the object. */
  subresource?: string;
  /** The User-Agent header: the field manager of a write without `fieldManager` (managerOrUserAgent). */
  userAgent?: string;
}

/** `dryRun=All` (the only value): the write is checked, admitted and answered, never stored. */
export const isDryRun = (opts: { dryRun?: readonly string[] }): boolean => (opts.dryRun ?? []).includes('All');
