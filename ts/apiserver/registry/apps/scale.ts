/**
 * The scale subresource of deployments, replica sets, stateful sets and replication controllers:
 * an autoscaling/v1 Scale view of `.spec.replicas` (pkg/registry/apps/{deployment,replicaset,
 * statefulset}/storage/storage.go ScaleREST; scaleFromDeployment, -ReplicaSet and -StatefulSet read
 * the same three fields each; pkg/registry/core/replicationcontroller/storage/storage.go's
 * scaleFromRC its map selector), written through the object's update (endpoints/update.ts).
 * Custom resources' is crd/scale.ts.
 */
import { type ErrorList, FieldPath, invalid } from '../../../api/field-errors.js';
import { labelSelectorAsSelector } from '../../../api/labels/label-selector.js';
import { selectorFromSet } from '../../../api/labels/selector.js';
import type { KubeObject, LabelSelector } from '../../../api/meta.js';
import { newBadRequest, newConflict, newInvalid, newNotFound } from '../../../api/status.js';
import { decodeStored, parseJsonObject } from '../../decode/codec.js';
import { checkUnknownFields, withPatchSource, withRawJson } from '../../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../../decode/type-meta.js';
import { applyPatch, parsePatchRequest } from '../../endpoints/patch.js';
import { jsonResponse } from '../../endpoints/response.js';
import { checkOptions, fieldValidation, writeOptions } from '../../endpoints/rest-options.js';
import { toTable, wantsTable } from '../../endpoints/table.js';
import { updateWith } from '../../endpoints/update.js';
import type { Json } from '../../patch/json-patch.js';
import type { ResourceRequest, RestContext } from '../generic/context.js';
import { getReadAt } from '../generic/read-options.js';
import { storageCall } from '../generic/storage-call.js';
import { isObj, type Obj } from '../objects.js';
import { objectKey, type ResourceInfo, SCALE_KIND } from '../resources.js';

/**
 * scaleFromDeployment (and scaleFromReplicaSet, scaleFromStatefulSet, which read the same fields):
 * the Scale view of a workload, its spec.selector as the status.selector string.
 */
export function scaleFromDeployment(d: KubeObject): Obj {
  const spec = (d as Obj).spec;
  let selector: string;
  try {
    selector = labelSelectorAsSelector(
      ((isObj(spec) ? spec.selector : null) ?? null) as LabelSelector | null,
    ).toString();
  } catch (err) {
    throw newBadRequest((err as Error).message);
  }
  return scaleWithSelector(d, selector);
}

/** scaleFromRC: the same view, its selector map as the status.selector string (SelectorFromSet). */
export function scaleFromReplicationController(rc: KubeObject): Obj {
  const spec = (rc as Obj).spec;
  const selector = isObj(spec) && isObj(spec.selector) ? (spec.selector as Record<string, string>) : {};
  return scaleWithSelector(rc, selectorFromSet(selector).toString());
}

/** The Scale view of an object of `info`'s resource. */
function scaleOf(info: ResourceInfo, obj: KubeObject): Obj {
  return info.group === '' && info.resource === 'replicationcontrollers'
    ? scaleFromReplicationController(obj)
    : scaleFromDeployment(obj);
}

function scaleWithSelector(d: KubeObject, selector: string): Obj {
  const o = d as Obj;
  const meta = d.metadata ?? {};
  const spec: Obj = isObj(o.spec) ? o.spec : {};
  const status: Obj = isObj(o.status) ? o.status : {};
  const scaleMeta: Obj = { name: meta.name };
  if (meta.namespace !== undefined) scaleMeta.namespace = meta.namespace;
  if (meta.uid !== undefined) scaleMeta.uid = meta.uid;
  if (meta.resourceVersion !== undefined) scaleMeta.resourceVersion = meta.resourceVersion;
  scaleMeta.creationTimestamp = meta.creationTimestamp ?? null;
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  // ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not, selector is.
  const scaleStatus: Obj = { replicas: typeof status.replicas === 'number' ? status.replicas : 0 };
  if (selector !== '') scaleStatus.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: scaleMeta,
    spec: replicas === 0 ? {} : { replicas },
    status: scaleStatus,
  };
}

export async function getScale(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const { info, name } = req;
  const stored = await storageCall('get', info, name, () =>
    ctx.storage.get(objectKey(info, req.namespace, name), getReadAt(req.query.get('resourceVersion'))),
  );
  if (stored === undefined) throw newNotFound({ group: info.group, resource: info.resource }, name);
  const scale = scaleOf(info, decodeStored(stored)) as KubeObject;
  // `kubectl get --subresource=scale` asks for a Table (printScale).
  if (wantsTable(req.accept)) {
    const resourceVersion = scale.metadata?.resourceVersion ?? '';
    return jsonResponse(200, toTable(SCALE_KIND, [scale], { now: ctx.clock.now(), resourceVersion }));
  }
  return jsonResponse(200, scale);
}

/** int32 replicas as the decoder reads them: a non-integer is a decode error (400). */
function scaleReplicas(scale: Obj): number {
  const spec = scale.spec;
  if (spec !== undefined && spec !== null && !isObj(spec)) {
    throw newBadRequest('Scale in version "v1" cannot be handled as a Scale: spec must be an object');
  }
  const replicas = isObj(spec) ? spec.replicas : undefined;
  if (replicas === undefined || replicas === null) return 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || Math.abs(replicas) > 2 ** 31 - 1) {
    throw newBadRequest(
      `Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas === 'number' ? 'number' : typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`,
    );
  }
  return replicas;
}

/**
 * scaleUpdatedObjectInfo.UpdatedObject: the new Scale (from `nextScale(oldScale)`) is checked
 * (ValidateScale, UID precondition) and moved onto the deployment: spec.replicas and
 * resourceVersion (a stale one conflicts in updateWith, as in storage).
 */
async function writeScale(
  ctx: RestContext,
  req: ResourceRequest,
  opts: ReturnType<typeof writeOptions>,
  nextScale: (oldScale: Obj) => Obj,
): Promise<Response> {
  const { info, name } = req;
  let warnings: string[] = [];
  const { obj } = await updateWith(ctx, req, opts, (old) => {
    const scale = nextScale(scaleOf(info, old));
    checkTypeMeta(SCALE_KIND, scale);
    warnings = checkUnknownFields(SCALE_KIND, scale, fieldValidation(opts));
    const meta = metaOf(scale);
    const replicas = scaleReplicas(scale);
    const errs: ErrorList = [];
    if (replicas < 0) {
      errs.push(invalid(FieldPath.root('spec', 'replicas'), replicas, 'must be greater than or equal to 0'));
    }
    if (errs.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, old.metadata?.name ?? '', errs);
    const uid = meta.uid ?? '';
    if (uid !== '' && uid !== old.metadata?.uid) {
      throw newConflict(
        { group: info.group, resource: `${info.resource}/scale` },
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata?.uid ?? ''}`,
      );
    }
    const next = structuredClone(old) as Obj;
    const spec: Obj = isObj(next.spec) ? next.spec : {};
    next.spec = spec;
    spec.replicas = replicas;
    const nextMeta = (next.metadata ?? {}) as Obj;
    nextMeta.resourceVersion = meta.resourceVersion ?? '';
    next.metadata = nextMeta;
    return next;
  });
  return jsonResponse(200, scaleOf(info, obj), { warnings });
}

export async function updateScale(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const opts = writeOptions(req.query);
  checkOptions('UpdateOptions', opts);
  const body = parseJsonObject(bodyText);
  return writeScale(ctx, req, opts, () => withRawJson(structuredClone(body), bodyText));
}

export async function patchScale(
  ctx: RestContext,
  req: ResourceRequest,
  contentType: string,
  bodyText: string,
): Promise<Response> {
  const { patchType, patch, opts } = parsePatchRequest(req, contentType, bodyText);
  return writeScale(ctx, req, opts, (oldScale) =>
    withPatchSource(applyPatch(patchType, oldScale, patch as Json), patchType, bodyText),
  );
}
