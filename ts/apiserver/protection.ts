/**
 * Request protection as kube-apiserver's generic filters apply it, for every caller of `handle`
 * (in process or behind node/https.ts): the max-in-flight limits (429), the request deadline from
 * `?timeout=` or the default (504), and bounded request bodies (413).
 */

import { newBadRequest, newRequestEntityTooLarge, newTimeoutError, newTooManyRequests } from '../api/status.js';
import type { Clock } from '../sim/clock.js';
import { parseResourcePath } from './request-info.js';

/** --max-requests-inflight default (k8s.io/apiserver pkg/server/config.go NewConfig). */
export const DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
/** --max-mutating-requests-inflight default (k8s.io/apiserver pkg/server/config.go NewConfig). */
export const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;
/** --request-timeout default, 60s (k8s.io/apiserver pkg/server/config.go NewConfig RequestTimeout). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** MaxRequestBodyBytes, 3 MiB (k8s.io/apiserver pkg/server/config.go NewConfig). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
/** The Retry-After a rejected request gets (k8s.io/apiserver pkg/server/filters/maxinflight.go `retryAfter`). */
export const RETRY_AFTER_SECONDS = 1;
/** maxJSONPatchOperations (k8s.io/apiserver pkg/endpoints/handlers/patch.go). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** Verbs that never count as mutating (maxinflight.go `nonMutatingRequestVerbs`). */
const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);
/**
 * kube-apiserver's LongRunningFunc (k8s.io/kubernetes pkg/controlplane/apiserver/config.go):
 * verbs watch and proxy, subresources attach, exec, proxy, log, portforward. These hold no
 * in-flight slot and have no deadline.
 */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export interface ProtectionOptions {
  /** Read-only requests at once; 0 = no limit. Default 400. */
  maxRequestsInFlight?: number;
  /** Mutating requests at once; 0 = no limit. Default 200. */
  maxMutatingRequestsInFlight?: number;
  /** The longest a request may take, and the cap on `?timeout=`. Default 60 s. */
  requestTimeoutMs?: number;
  /** The largest request body read. Default 3 MiB. */
  maxRequestBodyBytes?: number;
}

/** What the filters need to know of a request (RequestInfo.Verb and the long-running check). */
export interface RequestClass {
  verb: string;
  mutating: boolean;
  longRunning: boolean;
}

/** RequestInfoFactory's verb for a request, and whether it is mutating or long-running. */
export function classifyRequest(method: string, url: URL): RequestClass {
  const m = method.toUpperCase();
  const path = url.pathname.replace(/\/+$/, '');
  const rp = parseResourcePath(path);
  let verb: string;
  if (rp === undefined) {
    verb = m === 'HEAD' ? 'get' : m.toLowerCase();
  } else if (m === 'GET' || m === 'HEAD') {
    const watchParam = url.searchParams.get('watch');
    const watching = watchParam === 'true' || watchParam === '1' || /^\/apis?(?:\/[^/]+)*\/watch\//.test(path);
    if (watching) verb = 'watch';
    else verb = rp.name === '' ? 'list' : 'get';
  } else if (m === 'POST') verb = 'create';
  else if (m === 'PUT') verb = 'update';
  else if (m === 'PATCH') verb = 'patch';
  else if (m === 'DELETE') verb = rp.name === '' ? 'deletecollection' : 'delete';
  else verb = m.toLowerCase();
  const longRunning =
    LONG_RUNNING_VERBS.has(verb) || (rp !== undefined && LONG_RUNNING_SUBRESOURCES.has(rp.subresource));
  return { verb, mutating: !NON_MUTATING_VERBS.has(verb), longRunning };
}

/**
 * WithMaxInFlightLimit (maxinflight.go): separate budgets for read-only and mutating requests;
 * a request over budget is refused at once, except for system:masters.
 */
export class InFlightLimiter {
  private readOnly = 0;
  private mutating = 0;

  constructor(
    private readonly readOnlyLimit: number,
    private readonly mutatingLimit: number,
  ) {}

  /** A release function, or undefined when the request's budget is used up. */
  tryAcquire(mutating: boolean): (() => void) | undefined {
    const limit = mutating ? this.mutatingLimit : this.readOnlyLimit;
    const current = mutating ? this.mutating : this.readOnly;
    if (limit > 0 && current >= limit) return undefined;
    if (mutating) this.mutating++;
    else this.readOnly++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (mutating) this.mutating--;
      else this.readOnly--;
    };
  }

  /** Requests being served now, per budget. */
  get inFlight(): { readOnly: number; mutating: number } {
    return { readOnly: this.readOnly, mutating: this.mutating };
  }
}

/**
 * The 429 a full budget answers with: maxinflight.go's text and `Retry-After: 1`. Kubernetes writes
 * that text as text/plain (http.Error); here it is the message of a TooManyRequests Status, with
 * the retryAfterSeconds client-go derives from the header, because every response of this server
 * is JSON (client-node cannot parse anything else).
 */
export function tooManyRequests(): { error: Error; headers: Record<string, string> } {
  return {
    error: newTooManyRequests('Too many requests, please try again later.', RETRY_AFTER_SECONDS),
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  };
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in milliseconds; throws Error with Go's text (`time: invalid duration "x"`). */
export function parseGoDuration(orig: string): number {
  const invalid = (): Error => new Error(`time: invalid duration ${JSON.stringify(orig)}`);
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s);
    const intPart = num?.[1] ?? '';
    const fracPart = num?.[2] ?? '';
    if (intPart === '' && fracPart.length <= 1) throw invalid();
    s = s.slice(intPart.length + fracPart.length);
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? '';
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const scale = Object.hasOwn(DURATION_UNITS, unit) ? DURATION_UNITS[unit] : undefined;
    if (scale === undefined) {
      throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(orig)}`);
    }
    s = s.slice(unit.length);
    total += Number(`${intPart === '' ? '0' : intPart}${fracPart === '.' ? '' : fracPart}`) * scale;
  }
  return neg ? -total : total;
}

/**
 * WithRequestDeadline (k8s.io/apiserver pkg/endpoints/filters/request_deadline.go): `?timeout=`
 * shortens the default deadline, never lengthens it; 0 or a negative value means the default. A
 * malformed value is 400 BadRequest.
 */
export function requestDeadlineMs(query: URLSearchParams, defaultMs: number): number {
  const value = query.get('timeout') ?? '';
  if (value === '') return defaultMs;
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (err) {
    throw newBadRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`);
  }
  return ms > 0 && ms < defaultMs ? ms : defaultMs;
}

/**
 * WithTimeoutForNonLongRunningRequests (k8s.io/apiserver pkg/server/filters/timeout.go): the
 * response, or after `ms` the 504 `Timeout: request did not complete within the allotted timeout`
 * while the handler keeps running to its end, as Go's does.
 */
export function withDeadline(
  work: Promise<Response>,
  ms: number,
  clock: Clock,
  timedOut: (err: Error) => Response,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let done = false;
    const cancel = clock.setTimer(() => {
      if (done) return;
      done = true;
      resolve(timedOut(newTimeoutError('request did not complete within the allotted timeout', 0)));
    }, ms);
    work.then(
      (res) => {
        if (done) {
          // Too late: nobody reads this response any more.
          res.body?.cancel().catch(() => {});
          return;
        }
        done = true;
        cancel();
        resolve(res);
      },
      (err: unknown) => {
        if (done) return;
        done = true;
        cancel();
        reject(err);
      },
    );
  });
}

/**
 * handlers/rest.go limitedReadBody: the body read to at most `limit` bytes; one byte more is 413
 * `Request entity too large: limit is 3145728`.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw newRequestEntityTooLarge(`limit is ${limit}`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
