/**
 * DELETE of one object and of a collection (k8s.io/apiserver pkg/endpoints/handlers/delete.go
 * DeleteResource, DeleteCollection, v1.32): DeleteOptions from the body and query, the generic
 * store's Delete or DeleteCollection (registry/generic/delete.ts), the object as deleted or as
 * marked for deletion, or the list of them.
 */
import { newMethodNotSupported } from '../../api/status.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { storeDelete, storeDeleteCollection } from '../registry/generic/delete.js';
import { parseSelectors } from '../registry/generic/read-options.js';
import { groupResource } from '../registry/generic/storage-call.js';
import { groupVersion } from '../registry/resources.js';
import { strategyFor } from '../registry/strategies.js';
import { objectResponse } from './object-response.js';
import { jsonResponse } from './response.js';
import { deleteOptions } from './rest-options.js';

/** DELETE of one object: the object as deleted, or as marked for deletion when it stays for now. */
export async function deleteObject(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  return objectResponse(ctx, req, 200, await storeDelete(ctx, req, deleteOptions(req.query, bodyText)));
}

/**
 * DELETE of a collection: every object the label and field selectors pick, each as a single
 * DELETE; answers with the list of what was deleted or marked for deletion.
 */
export async function deleteCollection(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { info } = req;
  // A REST without DeleteCollection (namespaces) has no route for it.
  if (strategyFor(info).noDeleteCollection) throw newMethodNotSupported(groupResource(info), 'deletecollection');
  const opts = deleteOptions(req.query, bodyText);
  const selectors = parseSelectors(info, req.query);
  const { items, revision } = await storeDeleteCollection(ctx, req, opts, selectors);
  return jsonResponse(200, {
    kind: info.custom?.listKind ?? `${info.kind}List`,
    apiVersion: groupVersion(info),
    metadata: { resourceVersion: String(revision) },
    items,
  });
}
