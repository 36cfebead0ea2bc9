/**
 * The scale subresource of custom resources (k8s.io/apiextensions-apiserver
 * pkg/registry/customresource/etcd.go ScaleREST, v1.32): an autoscaling/v1 Scale read from the
 * CRD's specReplicasPath, statusReplicasPath and labelSelectorPath; a write sets the replicas at
 * specReplicasPath (ValidateScale: not negative; the UID and resourceVersion preconditions).
 */
import { FieldPath, invalid } from '../../api/field-errors.js';
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newConflict, newInvalid, newMethodNotSupported, newNotFound } from '../../api/status.js';
import { decodeStored, parseJsonObject } from '../decode/codec.js';
import { checkUnknownFields, withPatchSource, withRawJson } from '../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../decode/type-meta.js';
import { applyPatch, parsePatchRequest } from '../endpoints/patch.js';
import { jsonResponse } from '../endpoints/response.js';
import { checkOptions, fieldValidation, writeOptions } from '../endpoints/rest-options.js';
import { updateWith } from '../endpoints/update.js';
import type { Json } from '../patch/json-patch.js';
import type { ResourceRequest, RestContext } from '../registry/generic/context.js';
import { getReadAt } from '../registry/generic/read-options.js';
import { storageCall } from '../registry/generic/storage-call.js';
import { objectKey, type ResourceInfo, SCALE_KIND } from '../registry/resources.js';
import { isObj } from './types.js';

type Obj = Record<string, unknown>;

const fields = (path: string): string[] => path.replace(/^\./, '').split('.');

function nested(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const f of fields(path)) {
    if (!isObj(cur) || !Object.hasOwn(cur, f)) return undefined;
    cur = cur[f];
  }
  return cur;
}

/** unstructured.NestedInt64: 0 when absent, an error text when of another type. */
function nestedInt(obj: unknown, path: string): number {
  const v = nested(obj, path);
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw newBadRequest(
      `.${fields(path).join('.')} accessor error: ${String(v)} is of the type ${typeof v === 'number' ? 'float64' : typeof v}, expected int64`,
    );
  }
  return v;
}

/** scaleFromCustomResource. */
export function scaleFromCustomResource(info: ResourceInfo, cr: KubeObject): Obj {
  const scale = info.custom?.scale ?? {};
  const meta = cr.metadata ?? {};
  const specReplicas = nestedInt(cr, scale.specReplicasPath ?? '.spec.replicas');
  const statusReplicas = nestedInt(cr, scale.statusReplicasPath ?? '.status.replicas');
  const selector = scale.labelSelectorPath ? nested(cr, scale.labelSelectorPath) : undefined;
  const scaleMeta: Obj = { name: meta.name };
  if (meta.namespace !== undefined) scaleMeta.namespace = meta.namespace;
  if (meta.uid !== undefined) scaleMeta.uid = meta.uid;
  if (meta.resourceVersion !== undefined) scaleMeta.resourceVersion = meta.resourceVersion;
  scaleMeta.creationTimestamp = meta.creationTimestamp ?? null;
  // ScaleSpec.replicas and ScaleStatus.selector are omitempty; ScaleStatus.replicas is not.
  const status: Obj = { replicas: statusReplicas };
  if (typeof selector === 'string' && selector !== '') status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: scaleMeta,
    spec: specReplicas === 0 ? {} : { replicas: specReplicas },
    status,
  };
}

/** Sets `value` at the `.a.b` path, making the objects on the way (unstructured.SetNestedField). */
function setNested(obj: Obj, path: string, value: unknown): void {
  const fs = fields(path);
  let cur = obj;
  for (const f of fs.slice(0, -1)) {
    if (!isObj(cur[f])) cur[f] = {};
    cur = cur[f] as Obj;
  }
  cur[fs[fs.length - 1] as string] = value;
}

/** GET/PUT/PATCH of `<cr>/<name>/scale`. */
export async function handleCustomScale(
  ctx: RestContext,
  req: ResourceRequest,
  method: string,
  contentType: string,
  body: () => Promise<string>,
): Promise<Response> {
  const { info, name } = req;
  if (method === 'GET') {
    const stored = await storageCall('get', info, name, () =>
      ctx.storage.get(objectKey(info, req.namespace, name), getReadAt(req.query.get('resourceVersion'))),
    );
    if (stored === undefined) throw newNotFound({ group: info.group, resource: info.resource }, name);
    return jsonResponse(200, scaleFromCustomResource(info, decodeStored(stored)));
  }
  if (method !== 'PUT' && method !== 'PATCH') {
    throw newMethodNotSupported({ group: info.group, resource: `${info.resource}/scale` }, method.toLowerCase());
  }
  const text = await body();
  let opts = writeOptions(req.query);
  let next: (oldScale: Obj) => Obj;
  if (method === 'PUT') {
    checkOptions('UpdateOptions', opts);
    const parsed = parseJsonObject(text);
    next = () => withRawJson(structuredClone(parsed), text);
  } else {
    const p = parsePatchRequest(req, contentType, text);
    opts = p.opts;
    next = (oldScale) => withPatchSource(applyPatch(p.patchType, oldScale, p.patch as Json), p.patchType, text);
  }
  let warnings: string[] = [];
  const { obj } = await updateWith(ctx, req, opts, (old) => {
    const scale = next(scaleFromCustomResource(info, old));
    checkTypeMeta(SCALE_KIND, scale);
    warnings = checkUnknownFields(SCALE_KIND, scale, fieldValidation(opts));
    const meta = metaOf(scale);
    const spec = scale.spec;
    const replicas = isObj(spec) && typeof spec.replicas === 'number' ? spec.replicas : 0;
    if (replicas < 0) {
      throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, old.metadata?.name ?? '', [
        invalid(FieldPath.root('spec', 'replicas'), replicas, 'must be greater than or equal to 0'),
      ]);
    }
    if ((meta.uid ?? '') !== '' && meta.uid !== old.metadata?.uid) {
      throw newConflict(
        { group: info.group, resource: `${info.resource}/scale` },
        name,
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${old.metadata?.uid ?? ''}`,
      );
    }
    const cr = structuredClone(old) as Obj;
    setNested(cr, info.custom?.scale?.specReplicasPath ?? '.spec.replicas', replicas);
    const crMeta = (cr.metadata ?? {}) as Obj;
    crMeta.resourceVersion = meta.resourceVersion ?? '';
    cr.metadata = crMeta;
    return cr;
  });
  return jsonResponse(200, scaleFromCustomResource(info, obj), { warnings });
}
