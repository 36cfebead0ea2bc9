/**
 * The answer of a request about one object (k8s.io/apiserver pkg/endpoints/handlers/response.go
 * transformResponseObject): the object as JSON, or a one-row meta.k8s.io/v1 Table when the client
 * asked for one (`kubectl get`), with the request's warnings.
 */
import type { KubeObject } from '../../api/meta.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { jsonResponse } from './response.js';
import { toTable, wantsTable } from './table.js';

/** Answers with one object, or a one-row Table when the client asked for a Table. */
export function objectResponse(
  ctx: RestContext,
  req: ResourceRequest,
  status: number,
  obj: KubeObject,
  warnings: string[] = [],
): Response {
  if (wantsTable(req.accept)) {
    const table = toTable(req.info, [obj], {
      now: ctx.clock.now(),
      resourceVersion: obj.metadata?.resourceVersion ?? '',
    });
    return jsonResponse(status, table, { warnings });
  }
  return jsonResponse(status, obj, { warnings });
}
