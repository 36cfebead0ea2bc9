/**
 * The resources whose REST only creates and never stores, by group and resource, and who answers
 * them: authentication.k8s.io SelfSubjectReview and TokenReview (authn/; as
 * pkg/registry/authentication/rest/storage_authentication.go registers them), authorization.k8s.io's
 * four access reviews (auth/access-review.ts; pkg/registry/authorization/rest), and kubewasm's
 * SchedulingExplanation (kubewasm/schedulingexplanations/), answered from the scheduler in this
 * process. The router (endpoints/router.ts) sends such a request here before any verb routing.
 */

import { handleAccessReview } from '../auth/access-review.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { RequestAuthenticator } from '../authn/authenticator.js';
import { handleSelfSubjectReview } from '../authn/self-subject-review.js';
import { handleTokenReview } from '../authn/token-review.js';
import type { UserInfo } from '../authn/tokens.js';
import { decodingAs } from '../decode/codec.js';
import type { ResourceRequest } from './generic/context.js';
import {
  handleSchedulingExplanation,
  type SchedulingExplainer,
} from './kubewasm/schedulingexplanations/scheduling-explanation.js';
import type { ResourceInfo } from './resources.js';

/** A request to a create-only resource. */
export interface CreateOnlyRequest {
  req: ResourceRequest;
  method: string;
  user: UserInfo | undefined;
  /** The body as JSON text; `kind` names the type in its decode errors. */
  body(kind?: string): Promise<string>;
}

/** What the create-only resources answer with, from the server. */
export interface CreateOnlyServices {
  now(): number;
  authorizer(): Authorizer;
  authenticator: RequestAuthenticator;
  apiAudiences: readonly string[];
  explainer(): SchedulingExplainer | undefined;
}

export type CreateOnlyRest = (r: CreateOnlyRequest, s: CreateOnlyServices) => Promise<Response>;

/** The body of a POST (the only verb these serve; the handlers refuse the others), '' otherwise. */
const postBody = (r: CreateOnlyRequest): Promise<string> =>
  r.method === 'POST' ? r.body(r.req.info.kind) : Promise.resolve('');

const accessReview: CreateOnlyRest = (r, s) =>
  decodingAs(r.req.info.kind, async () =>
    handleAccessReview(s.authorizer(), r.req, r.method, r.user, await postBody(r)),
  );

const CREATE_ONLY: Readonly<Record<string, CreateOnlyRest>> = {
  'authentication.k8s.io/selfsubjectreviews': (r, s) =>
    decodingAs(r.req.info.kind, async () =>
      handleSelfSubjectReview(r.req, r.method, r.user, await postBody(r), s.now()),
    ),
  'authentication.k8s.io/tokenreviews': (r, s) =>
    decodingAs(r.req.info.kind, async () =>
      handleTokenReview(r.req, r.method, await postBody(r), s.authenticator, s.apiAudiences),
    ),
  'authorization.k8s.io/localsubjectaccessreviews': accessReview,
  'authorization.k8s.io/selfsubjectaccessreviews': accessReview,
  'authorization.k8s.io/selfsubjectrulesreviews': accessReview,
  'authorization.k8s.io/subjectaccessreviews': accessReview,
  'scheduling.kubewasm.io/schedulingexplanations': async (r, s) =>
    handleSchedulingExplanation(s.explainer(), r.method, r.req.name, await r.body()),
};

/** The create-only REST of a resource, if it is one. */
export function createOnlyRest(info: Pick<ResourceInfo, 'group' | 'resource'>): CreateOnlyRest | undefined {
  const key = `${info.group}/${info.resource}`;
  return Object.hasOwn(CREATE_ONLY, key) ? CREATE_ONLY[key] : undefined;
}
