/**
 * The apiserver as a web-standard handler: `handle(request) → Response`, callable in-process
 * (tests, a browser worker) or behind the Node HTTPS adapter (node/https.ts). One top-level error
 * handler turns every thrown value into a Kubernetes Status.
 *
 *   const api = createApiServer({ storage, tokens });
 *   const res = await api.handle(new Request('https://x/api/v1/namespaces', { headers: { Authorization: 'Bearer t' } }));
 */
import {
  newMethodNotSupported,
  newUnauthorized,
  newUnsupportedMediaType,
  StatusError,
  statusCode,
  toStatus,
} from '../api/status.js';
import { type Clock, realClock } from '../sim/clock.js';
import type { Storage } from '../storage/storage.js';
import {
  AGGREGATED_DISCOVERY_TYPE,
  aggregatedDiscovery,
  apiGroupList,
  apiResourceList,
  apiVersions,
  VERSION_INFO,
  wantsAggregated,
} from './discovery.js';
import { openApiDocument, openApiIndex } from './openapi.js';
import { PROTOBUF_TYPE, protobufBodyToJson } from './protobuf/decode.js';
import { parseResourcePath } from './request-info.js';
import { findResource } from './resources.js';
import { jsonResponse } from './response.js';
import {
  createObject,
  deleteCollection,
  deleteObject,
  getObject,
  listObjects,
  patchObject,
  type ResourceRequest,
  type RestContext,
  updateObject,
} from './rest.js';
import { handleSubresource } from './subresources.js';
import { authenticateBearer, type UserInfo } from './tokens.js';
import { watchObjects } from './watch.js';

export interface ApiServerOptions {
  storage: Storage;
  clock?: Clock;
  /** Bearer tokens → users (parseTokenFile). */
  tokens: ReadonlyMap<string, UserInfo>;
}

export interface ApiServer {
  handle(request: Request): Promise<Response>;
}

/** Paths anyone may read (system:public-info-viewer in Kubernetes). */
const PUBLIC_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz']);

function textResponse(text: string): Response {
  return new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** 404 for paths that are not served: the apiserver answers a NotFound Status with an empty name. */
function pathNotFound(): StatusError {
  return new StatusError({
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const ctx: RestContext = { storage: options.storage, clock: options.clock ?? realClock };

  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const accept = request.headers.get('Accept');

    if (path === '/version') return jsonResponse(200, VERSION_INFO);
    if (path === '/healthz' || path === '/livez' || path === '/readyz') return textResponse('ok');

    if (
      !PUBLIC_PATHS.has(path) &&
      authenticateBearer(request.headers.get('Authorization'), options.tokens) === undefined
    ) {
      throw newUnauthorized('Unauthorized');
    }

    if (request.method === 'GET') {
      if (path === '/api' || path === '/apis') {
        if (wantsAggregated(accept)) {
          return jsonResponse(200, aggregatedDiscovery(path === '/api'), { contentType: AGGREGATED_DISCOVERY_TYPE });
        }
        return jsonResponse(200, path === '/api' ? apiVersions(url.host) : apiGroupList());
      }
      const gv = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
      if (gv) {
        const list = gv[1] ? apiResourceList('', gv[1]) : apiResourceList(gv[2] as string, gv[3] as string);
        if (list === undefined) throw pathNotFound();
        return jsonResponse(200, list);
      }
      if (path === '/openapi/v3') return jsonResponse(200, openApiIndex());
      if (path.startsWith('/openapi/v3/')) {
        const doc = openApiDocument(path.slice('/openapi/v3/'.length));
        if (doc === undefined) throw pathNotFound();
        return jsonResponse(200, doc);
      }
    }

    const rp = parseResourcePath(path);
    if (rp === undefined) throw pathNotFound();
    const info = findResource(rp.group, rp.version, rp.resource);
    if (info === undefined) throw pathNotFound();
    if (!info.namespaced && rp.namespace !== '' && info.resource !== 'namespaces') throw pathNotFound();
    const req: ResourceRequest = {
      info,
      namespace: info.namespaced ? rp.namespace : '',
      name: rp.name,
      query: url.searchParams,
      accept,
    };
    const gr = { group: info.group, resource: info.resource };
    const body = async (): Promise<string> => {
      const type = (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim() ?? '';
      if (type === PROTOBUF_TYPE) return protobufBodyToJson(new Uint8Array(await request.arrayBuffer()));
      if (type !== '' && type !== 'application/json' && type !== '*/*') {
        throw newUnsupportedMediaType(['application/json', PROTOBUF_TYPE]);
      }
      return request.text();
    };
    const watching = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';

    if (req.name === '') {
      switch (request.method) {
        case 'GET':
          return watching ? watchObjects(ctx, req) : listObjects(ctx, req);
        case 'POST':
          if (info.namespaced && req.namespace === '') throw pathNotFound();
          return createObject(ctx, req, await body());
        case 'DELETE':
          if (info.namespaced && req.namespace === '') throw pathNotFound();
          return deleteCollection(ctx, req, await body());
        default:
          throw newMethodNotSupported(gr, request.method.toLowerCase());
      }
    }
    if (info.namespaced && req.namespace === '') throw pathNotFound();
    if (rp.subresource !== '') return handleSubresource(ctx, req, rp.subresource, request, body);
    switch (request.method) {
      case 'GET':
        return watching ? watchObjects(ctx, req) : getObject(ctx, req);
      case 'PUT':
        return updateObject(ctx, req, await body());
      case 'PATCH':
        return patchObject(ctx, req, request.headers.get('Content-Type') ?? '', await request.text());
      case 'DELETE':
        return deleteObject(ctx, req, await body());
      case 'POST':
        throw newMethodNotSupported(gr, 'create');
      default:
        throw newMethodNotSupported(gr, request.method.toLowerCase());
    }
  }

  return {
    async handle(request: Request): Promise<Response> {
      try {
        return await route(request);
      } catch (err) {
        const status = toStatus(err);
        if (!(err instanceof StatusError)) console.error('kubewasm apiserver: internal error', err);
        return jsonResponse(statusCode(err), status);
      }
    },
  };
}
