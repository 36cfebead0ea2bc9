/**
 * resourceVersion / resourceVersionMatch → which state a get or list reads
 * (../shared/reference/store.md §3.1), and the label and field selectors of a list or watch.
 */

import { type ErrorList, FieldPath, forbidden, notSupported } from '../../../api/field-errors.js';
import { convertFieldSelector, matchesFieldSelector } from '../../../api/fields/object-fields.js';
import { type FieldSelector, parseFieldSelector } from '../../../api/fields/selector.js';
import { parseLabelSelector, type Selector } from '../../../api/labels/selector.js';
import type { KubeObject } from '../../../api/meta.js';
import { newBadRequest, newInvalid, type StatusError } from '../../../api/status.js';
import type { ReadAt } from '../../../storage/storage.js';
import type { ResourceInfo } from '../resources.js';

/** A resourceVersion parameter as a revision; 400 for anything but a decimal number. */
export function parseResourceVersion(rv: string): bigint {
  if (!/^\d+$/.test(rv)) throw newBadRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return BigInt(rv);
}

/** GET of one object: unset → most recent, "0" → any, N → not older than N. */
export function getReadAt(rv: string | null): ReadAt {
  if (rv === null || rv === '' || rv === '0') return {};
  return { minRevision: parseResourceVersion(rv) };
}

export interface ListRead extends ReadAt {
  limit?: number;
  continue?: string;
}

/**
 * A boolean query parameter as DecodeParameters reads one (runtime/conversion.go
 * Convert_Slice_string_To_bool): absent → undefined; "0" or "false" (any case) → false; anything
 * else, the empty string included, → true.
 */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** The 422 a failed ValidateListOptions gives (handlers/get.go ListResource: NewInvalid of ListOptions). */
function invalidListOptions(errs: ErrorList): StatusError {
  return newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}

const RV_MATCH = FieldPath.root('resourceVersionMatch');

/**
 * ValidateListOptions for a list (pkg/apis/meta/internalversion/validation/validation.go at
 * v1.32, WatchList enabled as 1.32 ships it); throws the 422.
 */
function validateListOptions(query: URLSearchParams): void {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const errs: ErrorList = [];
  if (match !== '') {
    if (rv === '')
      errs.push(forbidden(RV_MATCH, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if ((query.get('continue') ?? '') !== '') {
      errs.push(forbidden(RV_MATCH, 'resourceVersionMatch is forbidden when continue is provided'));
    }
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errs.push(notSupported(RV_MATCH, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0') {
      errs.push(forbidden(RV_MATCH, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (query.has('sendInitialEvents')) {
    errs.push(forbidden(FieldPath.root('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length > 0) throw invalidListOptions(errs);
}

/** LIST: the table of store.md §3.1, with `resourceVersionMatch` making the choice explicit. */
export function listReadAt(query: URLSearchParams): ListRead {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const cont = query.get('continue') ?? '';
  const limitText = query.get('limit') ?? '';
  const out: ListRead = {};
  if (limitText !== '') {
    // ListOptions.Limit is an int64 decoded by strconv.ParseInt (the parameter codec's
    // Convert_Slice_string_To_int64); zero or negative means no limit.
    if (!/^[+-]?\d+$/.test(limitText)) {
      throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(limitText)}: invalid syntax`);
    }
    const limit = BigInt(limitText);
    if (limit > 9223372036854775807n || limit < -9223372036854775808n) {
      throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(limitText)}: value out of range`);
    }
    if (limit > 0n) out.limit = limit > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(limit);
  }
  validateListOptions(query);
  if (cont !== '') {
    // etcd3/store.go GetList: a continue token carries its own revision.
    if (rv !== '' && rv !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    out.continue = cont;
    return out;
  }
  switch (match) {
    case '':
      if (rv === '' || rv === '0') return out;
      if (out.limit !== undefined) return { ...out, revision: parseResourceVersion(rv) };
      return { ...out, minRevision: parseResourceVersion(rv) };
    case 'NotOlderThan':
      return rv === '0' ? out : { ...out, minRevision: parseResourceVersion(rv) };
    default:
      return { ...out, revision: parseResourceVersion(rv) };
  }
}

/** How a watch starts, after SetListOptionsDefaults and ValidateListOptions. */
export interface WatchStart {
  /** The resourceVersion parameter ('' when unset). */
  resourceVersion: string;
  /**
   * Whether the stream begins with ADDED events for the current state (watch-list, KEP-3157). Unset
   * with resourceVersion "" or "0" defaults to true (SetListOptionsDefaults), which is the legacy
   * "Get State and Start at Most Recent/Any" of those watches.
   */
  sendInitialEvents: boolean;
  allowWatchBookmarks: boolean;
  /** Seconds until the server ends the stream; undefined = the server's default. */
  timeoutSeconds: number | undefined;
}

/**
 * A watch's list options: decoded (400 for a malformed timeoutSeconds), defaulted
 * (internalversion/defaults.go SetListOptionsDefaults with WatchList on) and validated
 * (validation.go validateWatchOptions; 422 `ListOptions.meta.k8s.io "" is invalid: …`).
 * allowWatchBookmarks is deliberately not required with sendInitialEvents (validation_test.go:
 * "validating allowWatchBookmarks would break backward compatibility"); without it the
 * initial-events-end bookmark is simply not sent.
 */
export function watchStart(query: URLSearchParams): WatchStart {
  const rv = query.get('resourceVersion') ?? '';
  let match = query.get('resourceVersionMatch') ?? '';
  let sendInitialEvents = queryBool(query, 'sendInitialEvents');
  const timeoutText = query.get('timeoutSeconds');
  let timeoutSeconds: number | undefined;
  if (timeoutText !== null && timeoutText !== '') {
    if (!/^[+-]?\d+$/.test(timeoutText)) {
      throw newBadRequest(`strconv.ParseInt: parsing ${JSON.stringify(timeoutText)}: invalid syntax`);
    }
    const n = Number(timeoutText);
    if (n > 0) timeoutSeconds = n;
  }
  if (sendInitialEvents === undefined && match === '' && (rv === '' || rv === '0')) {
    sendInitialEvents = true;
    match = 'NotOlderThan';
  }
  const errs: ErrorList = [];
  if (sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push(forbidden(RV_MATCH, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (sendInitialEvents === undefined) {
      errs.push(
        forbidden(RV_MATCH, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
      );
    }
    if (match !== 'NotOlderThan') errs.push(notSupported(RV_MATCH, match, ['NotOlderThan']));
    if ((query.get('continue') ?? '') !== '') {
      errs.push(forbidden(RV_MATCH, 'resourceVersionMatch is forbidden when continue is provided'));
    }
  }
  if (errs.length > 0) throw invalidListOptions(errs);
  if (rv !== '') parseResourceVersion(rv);
  return {
    resourceVersion: rv,
    sendInitialEvents: sendInitialEvents ?? false,
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks') ?? false,
    timeoutSeconds,
  };
}

/** A list's or watch's selectors, parsed and checked (400 BadRequest with Kubernetes' text). */
export interface Selectors {
  labels: Selector;
  fields: FieldSelector;
  /** Whether both are empty. */
  everything: boolean;
}

export function parseSelectors(info: ResourceInfo, query: URLSearchParams): Selectors {
  let labels: Selector;
  let fields: FieldSelector;
  try {
    labels = parseLabelSelector(query.get('labelSelector') ?? '');
  } catch (err) {
    // labels.Parse's own text (`unable to parse requirement: …`), as the query conversion returns it.
    throw newBadRequest((err as Error).message);
  }
  try {
    fields = convertFieldSelector(
      { group: info.group, version: info.version, kind: info.kind },
      parseFieldSelector(query.get('fieldSelector') ?? ''),
    );
  } catch (err) {
    throw newBadRequest((err as Error).message);
  }
  return { labels, fields, everything: labels.empty() && fields.empty() };
}

/** Whether an object passes both selectors. */
export function selects(info: ResourceInfo, s: Selectors, obj: KubeObject): boolean {
  if (s.everything) return true;
  return s.labels.matches(obj.metadata?.labels ?? {}) && matchesFieldSelector(s.fields, info, obj, info.namespaced);
}
