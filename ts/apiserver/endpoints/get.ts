/**
 * GET of one object and of a collection (k8s.io/apiserver pkg/endpoints/handlers/get.go
 * GetResource, ListResource, v1.32): the read options from the query (resourceVersion,
 * resourceVersionMatch, limit/continue, label and field selectors; registry/generic/read-options.ts),
 * the generic store's Get or List, the object, list or Table as the client asked. Watches are watch.ts.
 */
import { decodeStored } from '../decode/codec.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { getReadAt, listReadAt, parseSelectors } from '../registry/generic/read-options.js';
import { decodeList, storeGet, storeList } from '../registry/generic/store.js';
import { groupVersion } from '../registry/resources.js';
import { objectResponse } from './object-response.js';
import { jsonResponse } from './response.js';
import { toTable, wantsTable } from './table.js';

/** GET of one object. */
export async function getObject(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const stored = await storeGet(ctx, req, getReadAt(req.query.get('resourceVersion')));
  return objectResponse(ctx, req, 200, decodeStored(stored));
}

/** GET of a collection (not a watch). */
export async function listObjects(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const { info } = req;
  const read = listReadAt(req.query);
  const selectors = parseSelectors(info, req.query);
  const rvText = req.query.get('resourceVersion') ?? undefined;
  const stored = await storeList(ctx, req, read, rvText && rvText !== '0' ? rvText : undefined);
  // Decoded in the turn that serializes it (registry/generic/store.ts storeList says why).
  const page = decodeList(info, selectors, stored);
  const resourceVersion = String(page.revision);
  const metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion };
  if (page.continue !== undefined) metadata.continue = page.continue;
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
  if (wantsTable(req.accept)) {
    return jsonResponse(
      200,
      toTable(info, page.items, {
        now: ctx.clock.now(),
        resourceVersion,
        ...(metadata.continue !== undefined ? { continue: metadata.continue } : {}),
      }),
    );
  }
  // A custom resource's list kind is its CRD's listKind.
  const kind = info.custom?.listKind ?? `${info.kind}List`;
  return jsonResponse(200, { kind, apiVersion: groupVersion(info), metadata, items: page.items });
}
