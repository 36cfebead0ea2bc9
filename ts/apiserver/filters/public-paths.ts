/**
 * The paths anyone may read, answered before authentication: `/version` (pkg/routes/version.go)
 * and the health checks `/healthz`, `/livez`, `/readyz` (pkg/server/healthz). kube-apiserver lets
 * every user read them through the system:public-info-viewer role; here they are answered whatever
 * the credentials, bad ones included, so a health probe never needs a token.
 */
import { VERSION_INFO } from '../endpoints/discovery.js';
import { jsonResponse } from '../endpoints/response.js';
import type { Filter } from './chain.js';

function textResponse(text: string): Response {
  return new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

export const withPublicPaths: Filter = (next) => (r) => {
  if (r.path === '/version') return Promise.resolve(jsonResponse(200, VERSION_INFO));
  if (r.path === '/healthz' || r.path === '/livez' || r.path === '/readyz') return Promise.resolve(textResponse('ok'));
  return next(r);
};
