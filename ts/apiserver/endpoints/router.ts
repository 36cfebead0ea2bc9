/**
 * The routes behind the handler chain (what k8s.io/apiserver pkg/server/handler.go's director
 * dispatches to, and endpoints/installer.go lays out): the non-resource paths (non-resource.ts),
 * then the resources — the resource and its served version found (a custom resource's CRD read up
 * to now if need be), the create-only resources answered by their own REST
 * (registry/create-only.ts), every other request through the REST handlers by verb (create.ts,
 * get.ts, update.ts, patch.ts, delete.ts, watch.ts) and subresource (subresources.ts).
 */
import { newMethodNotAllowed, newMethodNotSupported, newPathNotFound } from '../../api/status.js';
import { rbacWriteCheck } from '../auth/enforce.js';
import type { UserInfo } from '../authn/tokens.js';
import type { ServerConfig } from '../config.js';
import { customResourceStorage } from '../crd/cr-storage.js';
import { refuseStrategicMergePatch } from '../crd/patch-types.js';
import { handleCustomScale } from '../crd/scale.js';
import { bodyAsJson, checkPatchBody } from '../decode/body.js';
import { decodingAs } from '../decode/codec.js';
import type { Handler } from '../filters/chain.js';
import { parseResourcePath } from '../filters/request-info.js';
import type { Incoming } from '../incoming.js';
import { loadOpenApiData } from '../openapi/data.js';
import { type CreateOnlyServices, createOnlyRest } from '../registry/create-only.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { versionedStorage } from '../registry/generic/versioned-storage.js';
import { findResource, type ResourceInfo } from '../registry/resources.js';
import { createObject } from './create.js';
import { deleteCollection, deleteObject } from './delete.js';
import { getObject, listObjects } from './get.js';
import { nonResourceGet } from './non-resource.js';
import { patchObject } from './patch.js';
import { handleSubresource } from './subresources.js';
import { updateObject } from './update.js';
import { watchObjects } from './watch.js';

/** The routes of a server: a Handler for the end of the chain. */
export function apiRoutes(config: ServerConfig): Handler {
  /**
   * The context a resource's handlers use: a version stored as another one converts (registry/generic/versioned-storage.ts),
   * a custom resource reads with its version's apiVersion and defaults (crd/cr-storage.ts).
   */
  const contextFor = (info: ResourceInfo): RestContext =>
    info.custom !== undefined
      ? { ...config.rest, storage: customResourceStorage(config.rest.storage, info) }
      : info.storageVersion === undefined
        ? config.rest
        : { ...config.rest, storage: versionedStorage(config.rest.storage, info) };
  const subresourceServices = {
    ...(config.options.kubeletLogs === undefined ? {} : { kubeletLogs: config.options.kubeletLogs }),
    tokenIssuer: config.issuer,
  };
  const createOnlyServices: CreateOnlyServices = {
    now: () => config.clock.now(),
    authorizer: config.authorizer,
    authenticator: config.authenticator,
    apiAudiences: config.issuer.audiences,
    explainer: () => config.options.explainer?.(),
  };
  /** Requests already given a deprecated version's warning (serve() answers them a second time, inside). */
  const warnedRequests = new WeakSet<Incoming>();

  async function serve(request: Incoming, url: URL, path: string, user: UserInfo | undefined): Promise<Response> {
    const accept = request.headers.get('Accept');
    config.crds.start();

    if (request.method === 'GET') {
      const answer = await nonResourceGet(config, url, path, accept);
      if (answer !== undefined) return answer;
    }

    const rp = parseResourcePath(path);
    if (rp === undefined) throw newPathNotFound();
    // Field validation decodes request bodies against the schemas (loaded on the first write).
    if (request.method !== 'GET' && request.method !== 'DELETE') await loadOpenApiData();
    let info = findResource(rp.group, rp.version, rp.resource, config.crds);
    if (info === undefined) {
      // Perhaps a custom resource whose CRD changed a moment ago: read the CRDs up to now.
      await config.crds.synced();
      info = findResource(rp.group, rp.version, rp.resource, config.crds);
    }
    if (info === undefined) throw newPathNotFound();
    // A deprecated custom resource version: every answer carries its warning (customresource_handler.go).
    const deprecation = info.custom?.warning;
    if (deprecation !== undefined && !warnedRequests.has(request)) {
      warnedRequests.add(request);
      const res = await serve(request, url, path, user);
      res.headers.append('Warning', `299 - ${JSON.stringify(deprecation)}`);
      return res;
    }
    // A cluster-scoped resource under a namespace is no route; `/namespaces/<name>` is the Namespace's
    // own URL, whose name requestinfo.go reads as the namespace too.
    if (!info.namespaced && rp.namespace !== '' && info.resource !== 'namespaces') throw newPathNotFound();
    const ctx = contextFor(info);
    const req: ResourceRequest = {
      info,
      namespace: info.namespaced ? rp.namespace : '',
      name: rp.name,
      query: url.searchParams,
      accept,
      ...(user === undefined ? {} : { user }),
      userAgent: request.headers.get('User-Agent') ?? '',
    };
    // RBAC escalation prevention on role and binding writes (auth/escalation.ts).
    const admit =
      user === undefined
        ? undefined
        : rbacWriteCheck(config.authorizer(), config.rbac().index, user, {
            group: info.group,
            resource: info.resource,
            namespace: req.namespace,
            name: rp.name,
          });
    if (admit !== undefined) req.admit = admit;
    /**
     * The request body as JSON text, read to the body limit (413); YAML and protobuf converted.
     * `kind` (creates and updates) checks it decodes as one, with the apiserver's decode errors.
     */
    const body = (kind?: string): Promise<string> => bodyAsJson(request, config.maxBodyBytes, kind);
    const watching = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    // The create-only resources, never stored (registry/create-only.ts).
    const createOnly = createOnlyRest(info);
    if (createOnly !== undefined) {
      return createOnly({ req, method: request.method, user, body }, createOnlyServices);
    }

    if (req.name === '') {
      switch (request.method) {
        case 'GET':
          return watching ? watchObjects(ctx, req) : listObjects(ctx, req);
        case 'POST':
          // All-namespace collections are routed for list and watch only.
          if (info.namespaced && req.namespace === '') throw newMethodNotAllowed();
          // customresource_handler.go: no new instances while the CRD is being deleted.
          if (info.custom?.terminating) {
            throw newMethodNotSupported({ group: info.group, resource: info.resource }, 'create');
          }
          return decodingAs(info.kind, async () => createObject(ctx, req, await body(info.kind)));
        case 'DELETE':
          if (info.namespaced && req.namespace === '') throw newMethodNotAllowed();
          return deleteCollection(ctx, req, await body());
        default:
          throw newMethodNotAllowed();
      }
    }
    if (info.namespaced && req.namespace === '') throw newPathNotFound();
    if (info.custom !== undefined && request.method === 'PATCH') {
      refuseStrategicMergePatch(request.headers.get('Content-Type') ?? '');
    }
    if (rp.subresource === 'scale' && info.custom?.scale !== undefined) {
      const contentType = request.headers.get('Content-Type') ?? '';
      const text = request.method === 'PATCH' ? () => request.textWithin(config.maxBodyBytes) : () => body('Scale');
      return handleCustomScale(ctx, req, request.method, contentType, text);
    }
    if (rp.subresource !== '') {
      return handleSubresource(ctx, req, rp.subresource, request, body, subresourceServices);
    }
    switch (request.method) {
      case 'GET':
        return watching ? watchObjects(ctx, req) : getObject(ctx, req);
      case 'PUT':
        return decodingAs(info.kind, async () => updateObject(ctx, req, await body(info.kind)));
      case 'PATCH': {
        const contentType = request.headers.get('Content-Type') ?? '';
        const text = await request.textWithin(config.maxBodyBytes);
        checkPatchBody(contentType, text);
        return patchObject(ctx, req, contentType, text);
      }
      case 'DELETE':
        return deleteObject(ctx, req, await body());
      default:
        throw newMethodNotAllowed();
    }
  }

  return (r) => serve(r.request, r.url, r.path, r.user);
}
