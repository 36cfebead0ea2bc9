/**
 * The routes behind the handler chain (what k8s.io/apiserver pkg/server/handler.go's director
 * dispatches to): discovery (discovery.ts), service account issuer discovery, OpenAPI v3, then the
 * resources — the resource and its served version found, the create-only resources answered by
 * their own REST, every other request through the REST handlers by verb and subresource.
 */
import { newMethodNotAllowed, newMethodNotSupported, newPathNotFound } from '../../api/status.js';
import { accessReviewKind, handleAccessReview } from '../auth/access-review.js';
import { rbacWriteCheck } from '../auth/enforce.js';
import { handleSelfSubjectReview } from '../authn/self-subject-review.js';
import { JWKS_PATH, jwks, OPENID_CONFIG_PATH, openIdConfiguration } from '../authn/service-account-jwt.js';
import { handleTokenReview } from '../authn/token-review.js';
import type { UserInfo } from '../authn/tokens.js';
import type { ServerConfig } from '../config.js';
import { customResourceStorage } from '../crd/cr-storage.js';
import { customOpenApiDocument, customOpenApiIndex } from '../crd/openapi.js';
import { refuseStrategicMergePatch } from '../crd/patch-types.js';
import { handleCustomScale } from '../crd/scale.js';
import { bodyAsJson, checkPatchBody } from '../decode/body.js';
import { asDecodeErrorOf } from '../decode/codec.js';
import type { Handler } from '../filters/chain.js';
import { parseResourcePath } from '../filters/request-info.js';
import type { Incoming } from '../incoming.js';
import { loadOpenApiData } from '../openapi/data.js';
import { openApiDocument, openApiIndex } from '../openapi/documents.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { versionedStorage } from '../registry/generic/versioned-storage.js';
import {
  handleSchedulingExplanation,
  isSchedulingExplanation,
} from '../registry/kubewasm/schedulingexplanations/scheduling-explanation.js';
import { findResource, type ResourceInfo } from '../registry/resources.js';
import { createObject } from './create.js';
import { deleteCollection, deleteObject } from './delete.js';
import {
  AGGREGATED_DISCOVERY_TYPE,
  aggregatedDiscovery,
  apiGroupList,
  apiResourceList,
  apiVersions,
  wantsAggregated,
} from './discovery.js';
import { getObject, listObjects } from './get.js';
import { patchObject } from './patch.js';
import { jsonResponse } from './response.js';
import { handleSubresource } from './subresources.js';
import { updateObject } from './update.js';
import { watchObjects } from './watch.js';

/** The routes of a server: a Handler for the end of the chain. */
export function apiRoutes(config: ServerConfig): Handler {
  /**
   * The context a resource's handlers use: a version stored as another one converts (conversion.ts),
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
  /** Requests already given a deprecated version's warning (serve() answers them a second time, inside). */
  const warnedRequests = new WeakSet<Incoming>();

  async function serve(request: Incoming, url: URL, path: string, user: UserInfo | undefined): Promise<Response> {
    const accept = request.headers.get('Accept');
    await config.crds.start();

    if (request.method === 'GET') {
      if (path === '/api' || path === '/apis') {
        if (path === '/apis') await config.crds.synced();
        if (wantsAggregated(accept)) {
          return jsonResponse(200, aggregatedDiscovery(path === '/api', config.crds.all()), {
            contentType: AGGREGATED_DISCOVERY_TYPE,
          });
        }
        return jsonResponse(200, path === '/api' ? apiVersions(url.host) : apiGroupList(config.crds.all()));
      }
      const gv = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
      if (gv) {
        if (!gv[1]) await config.crds.synced();
        const list = gv[1]
          ? apiResourceList('', gv[1])
          : apiResourceList(gv[2] as string, gv[3] as string, config.crds.all());
        if (list === undefined) throw newPathNotFound();
        return jsonResponse(200, list);
      }
      // Service account issuer discovery (pkg/routes/openidmetadata.go): cacheable for an hour.
      if (path === OPENID_CONFIG_PATH || path === JWKS_PATH) {
        const res =
          path === JWKS_PATH
            ? jsonResponse(200, await jwks([await config.issuer.key()]), { contentType: 'application/jwk-set+json' })
            : jsonResponse(200, openIdConfiguration(config.issuer.issuer, url.host));
        res.headers.set('Cache-Control', 'public, max-age=3600');
        return res;
      }
      if (path === '/openapi/v3') {
        await config.crds.synced();
        const index = await openApiIndex();
        // The custom resource group versions (crd/openapi.ts) after the built-in ones.
        const custom = customOpenApiIndex(await loadOpenApiData(), config.crds.all());
        return jsonResponse(200, { paths: { ...index.paths, ...custom } });
      }
      if (path.startsWith('/openapi/v3/')) {
        const key = path.slice('/openapi/v3/'.length);
        await config.crds.synced();
        const doc =
          (await openApiDocument(key)) ?? customOpenApiDocument(await loadOpenApiData(), config.crds.all(), key);
        if (doc === undefined) throw newPathNotFound();
        return jsonResponse(200, doc);
      }
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
    /** Creates and updates report a body that does not decode as kube-apiserver does, naming the kind. */
    const decodingAs = async (kind: string, work: () => Promise<Response>): Promise<Response> => {
      try {
        return await work();
      } catch (err) {
        throw asDecodeErrorOf(err, kind);
      }
    };
    const watching = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    if (isSchedulingExplanation(info)) {
      return handleSchedulingExplanation(config.options.explainer?.(), request.method, req.name, await body());
    }
    // authentication.k8s.io/v1: create-only, never stored (authn/self-subject-review.ts, authn/token-review.ts).
    if (info.group === 'authentication.k8s.io' && info.kind === 'SelfSubjectReview') {
      return decodingAs(info.kind, async () =>
        handleSelfSubjectReview(
          { ...req, info },
          request.method,
          user,
          request.method === 'POST' ? await body(info.kind) : '',
          ctx.clock.now(),
        ),
      );
    }
    if (info.group === 'authentication.k8s.io' && info.kind === 'TokenReview') {
      return decodingAs(info.kind, async () =>
        handleTokenReview(
          { ...req, info },
          request.method,
          request.method === 'POST' ? await body(info.kind) : '',
          config.authenticator,
          config.issuer.audiences,
        ),
      );
    }
    if (accessReviewKind(info) !== undefined) {
      return decodingAs(info.kind, async () =>
        handleAccessReview(
          config.authorizer(),
          req,
          request.method,
          user,
          request.method === 'POST' ? await body(info.kind) : '',
        ),
      );
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
