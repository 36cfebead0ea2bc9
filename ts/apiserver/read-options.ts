/**
 * resourceVersion / resourceVersionMatch → which state a get or list reads
 * (../shared/reference/store.md §3.1), and the label and field selectors of a list or watch.
 */

import { convertFieldSelector, matchesFieldSelector } from '../api/fields/object-fields.js';
import { type FieldSelector, parseFieldSelector } from '../api/fields/selector.js';
import { parseLabelSelector, type Selector } from '../api/labels/selector.js';
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import type { ReadAt } from '../storage/storage.js';
import type { ResourceInfo } from './resources.js';

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

/** LIST: the table of store.md §3.1, with `resourceVersionMatch` making the choice explicit. */
export function listReadAt(query: URLSearchParams): ListRead {
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const cont = query.get('continue') ?? '';
  const limitText = query.get('limit') ?? '';
  const out: ListRead = {};
  if (limitText !== '') {
    const limit = Number(limitText);
    if (!Number.isInteger(limit) || limit < 0) throw newBadRequest(`invalid limit: ${JSON.stringify(limitText)}`);
    if (limit > 0) out.limit = limit;
  }
  if (cont !== '') {
    if (rv !== '' && rv !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    if (match !== '') throw newBadRequest('resourceVersionMatch is forbidden when continue is provided');
    out.continue = cont;
    return out;
  }
  switch (match) {
    case '':
      if (rv === '' || rv === '0') return out;
      if (out.limit !== undefined) return { ...out, revision: parseResourceVersion(rv) };
      return { ...out, minRevision: parseResourceVersion(rv) };
    case 'NotOlderThan':
      if (rv === '') throw newBadRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
      return rv === '0' ? out : { ...out, minRevision: parseResourceVersion(rv) };
    case 'Exact':
      if (rv === '') throw newBadRequest('resourceVersionMatch is forbidden unless resourceVersion is provided');
      if (rv === '0') throw newBadRequest('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
      return { ...out, revision: parseResourceVersion(rv) };
    default:
      throw newBadRequest(
        `resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""`,
      );
  }
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
    throw newBadRequest(`unable to parse requirement: ${(err as Error).message}`);
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
