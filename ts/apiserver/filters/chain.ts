/**
 * The handler chain's two types (k8s.io/apiserver pkg/server/config.go DefaultBuildHandlerChain
 * composes http.Handlers the same way): a Handler answers a request; a Filter wraps the next
 * handler in one concern — authentication, the in-flight limit, … — and is a function of it.
 * handler-chain.ts lists them in order.
 */
import type { UserInfo } from '../authn/tokens.js';
import type { Incoming } from '../incoming.js';

/** What the filters need to know of a request (RequestInfo.Verb and the long-running check). */
export interface RequestClass {
  verb: string;
  mutating: boolean;
  longRunning: boolean;
}

/**
 * A request as it passes down the chain: what the filters before a filter learned of it, each
 * recorded by the filter that learns it (as Go's filters put it in the request's context).
 */
export interface ChainRequest {
  readonly request: Incoming;
  readonly url: URL;
  /** The URL path without trailing slashes ('/' stays '/'). */
  readonly path: string;
  /** The RequestInfo verb, mutating and long-running (filters/request-info.ts). */
  readonly info: RequestClass;
  /** The deadline of a request that is not long-running (filters/request-deadline.ts). */
  deadlineMs: number | undefined;
  /** Who asks: set by authentication, switched by impersonation. */
  user: UserInfo | undefined;
}

export type Handler = (request: ChainRequest) => Promise<Response>;

export type Filter = (next: Handler) => Handler;
