/**
 * PATCH of one object (k8s.io/apiserver pkg/endpoints/handlers/patch.go, v1.32): JSON patch, JSON
 * merge patch and strategic merge patch applied to the stored object in each update attempt
 * (patch/), and server-side apply (application/apply-patch+yaml) through the field manager
 * (apply/), creating a missing object through the create path. The update itself is update.ts'.
 */
import { isAlreadyExists, isNotFound, newBadRequest, newUnsupportedMediaType } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import type { WriteOptions } from '../../api/validation/options.js';
import { APPLY_PATCH_TYPE, applyWrite, parseApplyPatch } from '../apply/request.js';
import { withPatchSource } from '../decode/field-validation.js';
import { metaOf } from '../decode/type-meta.js';
import { type Json, jsonPatch, mergePatch } from '../patch/json-patch.js';
import { strategicMergePatch } from '../patch/strategic-merge.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { storageCall } from '../registry/generic/storage-call.js';
import { objectKey } from '../registry/resources.js';
import type { UpdateMode } from '../registry/strategy.js';
import { createObject } from './create.js';
import { objectResponse } from './object-response.js';
import { checkOptions, writeOptions } from './rest-options.js';
import { updateWith } from './update.js';

/** The patch types this server applies. */
export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  APPLY_PATCH_TYPE,
];

/** PATCH of one object: JSON patch, JSON merge patch or strategic merge patch on the stored object. */
export async function patchObject(
  ctx: RestContext,
  req: ResourceRequest,
  contentType: string,
  bodyText: string,
  mode: UpdateMode = 'main',
): Promise<Response> {
  const { patchType, patch, opts } = parsePatchRequest(req, contentType, bodyText);
  if (patchType === APPLY_PATCH_TYPE) return applyObject(ctx, req, bodyText, opts, mode);
  const { obj, warnings } = await updateWith(
    ctx,
    req,
    opts,
    // On a copy: the patched object must share no map with the stored one, which the strategy's
    // update checks compare it with (a DaemonSet's template generation).
    (old) => withPatchSource(applyPatch(patchType, structuredClone(old), patch), patchType, bodyText),
    mode,
  );
  return objectResponse(ctx, req, 200, obj, warnings);
}

/** A PATCH request's type (415 for one not applied here), patch document (400 when not JSON) and options. */
export function parsePatchRequest(
  req: ResourceRequest,
  contentType: string,
  bodyText: string,
): { patchType: string; patch: Json; opts: WriteOptions } {
  const patchType = contentType.split(';')[0]?.trim() ?? '';
  if (!PATCH_TYPES.includes(patchType)) throw newUnsupportedMediaType(PATCH_TYPES);
  const opts = writeOptions(req.query);
  checkOptions('PatchOptions', opts, patchType);
  try {
    // An apply patch is YAML, read where it is applied (applyObject).
    return { patchType, patch: patchType === APPLY_PATCH_TYPE ? null : (JSON.parse(bodyText) as Json), opts };
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${(err as Error).message}`);
  }
}

/**
 * Server-side apply (handlers/patch.go applyPatcher): the configuration merged onto the stored
 * object by the field manager (apply/), through the update path; an object that does not exist is
 * created through the create path (201), as `forceAllowCreate` does.
 */
async function applyObject(
  ctx: RestContext,
  req: ResourceRequest,
  bodyText: string,
  opts: WriteOptions,
  mode: UpdateMode,
): Promise<Response> {
  const config = parseApplyPatch(bodyText);
  const manager = opts.fieldManager ?? '';
  const force = opts.force === true;
  const subresource = req.subresource ?? (mode === 'main' ? '' : mode);
  const now = () => rfc3339(ctx.clock.now());
  const key = objectKey(req.info, req.namespace, req.name);
  const exists = await storageCall('get', req.info, req.name, () => ctx.storage.get(key)).then(
    (o) => o !== undefined,
    (err: unknown) => {
      if (isNotFound(err)) return false;
      throw err;
    },
  );
  if (!exists && mode === 'main') {
    const created = () => {
      const obj = applyWrite(req.info, subresource, undefined, config, manager, force, now());
      // handlers/patch.go checkName, as an update of an existing object checks it.
      const name = metaOf(obj).name ?? '';
      if (name !== req.name) {
        throw newBadRequest(`the name of the object (${name}) does not match the name on the URL (${req.name})`);
      }
      return obj;
    };
    const createReq = { ...req, query: new URLSearchParams(req.query) };
    createReq.query.delete('force');
    try {
      return await createObject(ctx, createReq, JSON.stringify(config), created);
    } catch (err) {
      // Created by someone else meanwhile: apply onto theirs.
      if (!isAlreadyExists(err)) throw err;
    }
  }
  const { obj, warnings } = await updateWith(
    ctx,
    req,
    opts,
    (old) => {
      const next = applyWrite(req.info, subresource, old, config, manager, force, now());
      // The stored resourceVersion: an apply is never refused as stale unless it names one.
      const meta = metaOf(next);
      const wanted = metaOf(config as Record<string, unknown>).resourceVersion;
      if (wanted === undefined) meta.resourceVersion = old.metadata?.resourceVersion ?? '';
      return next;
    },
    mode,
    false,
  );
  return objectResponse(ctx, req, 200, obj, warnings);
}

/** Applies a patch of `patchType` to `target`; the result must be an object. */
export function applyPatch(patchType: string, target: object, patch: Json): Record<string, unknown> {
  // Only the main resource and status apply configurations (applyObject); a Scale is not applied here.
  if (patchType === APPLY_PATCH_TYPE) throw newUnsupportedMediaType(PATCH_TYPES.filter((t) => t !== APPLY_PATCH_TYPE));
  const patched =
    patchType === 'application/merge-patch+json'
      ? mergePatch(target as Json, patch)
      : patchType === 'application/strategic-merge-patch+json'
        ? strategicMergePatch(target as Json, patch)
        : jsonPatch(target as Json, patch);
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    throw newBadRequest('the patched object is not a JSON object');
  }
  return patched as Record<string, unknown>;
}
