/**
 * The GET routes that name no resource, after the chain and before the resources: discovery —
 * legacy `/api`, `/apis`, `/api/v1`, `/apis/<g>/<v>` and aggregated discovery v2 (discovery.ts) —,
 * service account issuer discovery (`/.well-known/openid-configuration`, `/openid/v1/jwks`;
 * pkg/routes/openidmetadata.go) and OpenAPI v3 (openapi/, custom resources' from crd/openapi.ts).
 * `/version` and the health checks are answered before authentication (filters/public-paths.ts).
 */
import { newPathNotFound } from '../../api/status.js';
import { JWKS_PATH, jwks, OPENID_CONFIG_PATH, openIdConfiguration } from '../authn/service-account-jwt.js';
import type { ServerConfig } from '../config.js';
import { customOpenApiDocument, customOpenApiIndex } from '../crd/openapi.js';
import { loadOpenApiData } from '../openapi/data.js';
import { openApiDocument, openApiIndex } from '../openapi/documents.js';
import {
  AGGREGATED_DISCOVERY_TYPE,
  aggregatedDiscovery,
  apiGroupList,
  apiResourceList,
  apiVersions,
  wantsAggregated,
} from './discovery.js';
import { jsonResponse } from './response.js';

/** The answer to a GET of `path` when it is one of these, else undefined (a resource path, or none). */
export async function nonResourceGet(
  config: Pick<ServerConfig, 'crds' | 'issuer'>,
  url: URL,
  path: string,
  accept: string | null,
): Promise<Response | undefined> {
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
    const doc = (await openApiDocument(key)) ?? customOpenApiDocument(await loadOpenApiData(), config.crds.all(), key);
    if (doc === undefined) throw newPathNotFound();
    return jsonResponse(200, doc);
  }
  return undefined;
}
