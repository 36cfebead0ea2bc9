import { newMethodNotSupported, StatusError } from '../../api/status.js';
import type { Incoming } from '../incoming.js';
import { getScale, patchScale, updateScale } from '../registry/apps/scale.js';
import { createBinding } from '../registry/core/pods/binding.js';
import { createEviction } from '../registry/core/pods/eviction.js';
import { getPodLog, type KubeletLogs } from '../registry/core/pods/log.js';
import { admitTokenRequest, createTokenRequest, type TokenIssuer } from '../registry/core/serviceaccounts/token.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { bodyKind } from '../registry/resources.js';
import { getObject } from './get.js';
import { patchObject } from './patch.js';
import { updateObject } from './update.js';

type Obj = Record<string, unknown>;
const _isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const _BINDING = bodyKind('', 'v1', 'Binding', ['target']);
const _EVICTION = bodyKind('policy', 'v1', 'Eviction', ['deleteOptions']);

/** What subresources need beyond the RestContext: the kubelets' logs and the token signer. */
export interface SubresourceServices {
  kubeletLogs?: KubeletLogs;
  tokenIssuer?: TokenIssuer;
}

/** Routes `…/<name>/<subresource>`; 404 for a subresource the resource does not have. */
export async function handleSubresource(
  ctx: RestContext,
  req: ResourceRequest,
  subresource: string,
  request: Pick<Incoming, 'method' | 'headers' | 'text'>,
  body: () => Promise<string>,
  services: SubresourceServices = {},
): Promise<Response> {
  const { info } = req;
  // Admission names the subresource written (handlers pass scope.Subresource).
  req.subresource = subresource;
  const method = request.method;
  const verbError = () =>
    newMethodNotSupported({ group: info.group, resource: `${info.resource}/${subresource}` }, method.toLowerCase());
  const contentType = request.headers.get('Content-Type') ?? '';
  if (subresource === 'status' && info.statusOnSubresource) {
    if (method === 'GET') return getObject(ctx, req);
    if (method === 'PUT') return updateObject(ctx, req, await body(), 'status');
    if (method === 'PATCH') return patchObject(ctx, req, contentType, await request.text(), 'status');
    throw verbError();
  }
  if (subresource === 'scale' && info.subresources?.includes('scale')) {
    if (method === 'GET') return getScale(ctx, req);
    if (method === 'PUT') return updateScale(ctx, req, await body());
    if (method === 'PATCH') return patchScale(ctx, req, contentType, await request.text());
    throw verbError();
  }
  if (subresource === 'binding' && info.subresources?.includes('binding')) {
    if (method === 'POST') return createBinding(ctx, req, await body());
    throw verbError();
  }
  if (subresource === 'eviction' && info.subresources?.includes('eviction')) {
    if (method === 'POST') return createEviction(ctx, req, await body());
    throw verbError();
  }
  // pods/<name>/log: the kubelet's log through `kubeletLogs` (registry/core/pods/log.ts).
  if (subresource === 'log' && info.subresources?.includes('log')) {
    if (method === 'GET') return getPodLog(ctx, req, services.kubeletLogs);
    throw verbError();
  }
  // serviceaccounts/<name>/token: a signed TokenRequest (registry/core/serviceaccounts/token.ts).
  if (subresource === 'token' && info.subresources?.includes('token') && services.tokenIssuer !== undefined) {
    if (method === 'POST') {
      const text = await body();
      await admitTokenRequest(ctx, req, text);
      return createTokenRequest(ctx, req, text, services.tokenIssuer);
    }
    throw verbError();
  }
  // namespaces/<name>/finalize: only spec.finalizers is written (the namespace finalize strategy).
  if (subresource === 'finalize' && info.subresources?.includes('finalize')) {
    if (method === 'PUT') return updateObject(ctx, req, await body(), 'finalize');
    throw verbError();
  }
  throw new StatusError({
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}
