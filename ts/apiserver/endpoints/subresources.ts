/**
 * Subresources as kube-apiserver serves them (v1.32):
 * - `status` (pods, nodes, services, deployments, namespaces): GET is the object; PUT/PATCH write
 *   only the status, through the kind's status strategy (strategy.ts prepareForStatusUpdate).
 * - `deployments/scale`, `replicasets/scale`, `statefulsets/scale`: an autoscaling/v1 Scale view of
 *   `.spec.replicas` (pkg/registry/apps/{deployment,replicaset,statefulset}/storage/storage.go
 *   ScaleREST, scaleFromDeployment/-ReplicaSet/-StatefulSet: the same three fields each).
 * - `pods/binding`: sets `spec.nodeName` once and adds PodScheduled=True
 *   (pkg/registry/core/pod/storage/storage.go BindingREST), answering a Success Status.
 * - `pods/eviction`: deletes the pod with the Eviction's deleteOptions (pkg/registry/core/pod/storage/
 *   eviction.go). PodDisruptionBudgets are stored but not consulted yet: no eviction is refused for one.
 * - `pods/log` (pod-log.ts) and `serviceaccounts/token` (token-request.ts).
 */

import { type ErrorList, FieldPath, invalid, notSupported, required } from '../../api/field-errors.js';
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { KubeObject, LabelSelector } from '../../api/meta.js';
import {
  newBadRequest,
  newConflict,
  newInvalid,
  newMethodNotSupported,
  newNotFound,
  StatusError,
  successStatus,
} from '../../api/status.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../api/validation/request-namespace.js';
import type { StoredObject } from '../../storage/storage.js';
import { requestAttributes } from '../admission/chain.js';
import { decodeForRewrite, decodeStored, encodeForStorage, parseJsonObject } from '../decode/codec.js';
import { checkUnknownFields, withPatchSource, withRawJson } from '../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../decode/type-meta.js';
import type { Incoming } from '../incoming.js';
import type { Json } from '../patch/json-patch.js';
import { getPodLog, type KubeletLogs } from '../registry/core/pods/log.js';
import { createTokenRequest, type TokenIssuer } from '../registry/core/serviceaccounts/token.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../registry/generic/context.js';
import { storeDelete } from '../registry/generic/delete.js';
import { rfc3339 } from '../registry/generic/names.js';
import { getReadAt } from '../registry/generic/read-options.js';
import { storageCall } from '../registry/generic/storage-call.js';
import { bodyKind, objectKey, SCALE_KIND } from '../registry/resources.js';
import { decodeCreateBody } from './create.js';
import { getObject } from './get.js';
import { applyPatch, parsePatchRequest, patchObject } from './patch.js';
import { jsonResponse } from './response.js';
import { checkOptions, deleteOptions, fieldValidation, writeOptions } from './rest-options.js';
import { toTable, wantsTable } from './table.js';
import { updateObject, updateWith } from './update.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const BINDING = bodyKind('', 'v1', 'Binding', ['target']);
const EVICTION = bodyKind('policy', 'v1', 'Eviction', ['deleteOptions']);

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
  // pods/<name>/log: the kubelet's log through `kubeletLogs` (pod-log.ts).
  if (subresource === 'log' && info.subresources?.includes('log')) {
    if (method === 'GET') return getPodLog(ctx, req, services.kubeletLogs);
    throw verbError();
  }
  // serviceaccounts/<name>/token: a signed TokenRequest (token-request.ts).
  if (subresource === 'token' && info.subresources?.includes('token') && services.tokenIssuer !== undefined) {
    if (method === 'POST') {
      const text = await body();
      await admitTokenRequest(ctx, req, text);
      return createTokenRequest(ctx, req, text, services.tokenIssuer);
    }
    throw verbError();
  }
  // namespaces/<name>/finalize: only spec.finalizers is written (namespace-lifecycle.ts).
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

// ---- scale ----

/**
 * scaleFromDeployment (and scaleFromReplicaSet, scaleFromStatefulSet, which read the same fields):
 * the Scale view of a workload, its spec.selector as the status.selector string.
 */
export function scaleFromDeployment(d: KubeObject): Obj {
  const o = d as Obj;
  const meta = d.metadata ?? {};
  const spec: Obj = isObj(o.spec) ? o.spec : {};
  const status: Obj = isObj(o.status) ? o.status : {};
  let selector: string;
  try {
    selector = labelSelectorAsSelector((spec.selector ?? null) as LabelSelector | null).toString();
  } catch (err) {
    throw newBadRequest((err as Error).message);
  }
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

async function getScale(ctx: RestContext, req: ResourceRequest): Promise<Response> {
  const { info, name } = req;
  const stored = await storageCall('get', info, name, () =>
    ctx.storage.get(objectKey(info, req.namespace, name), getReadAt(req.query.get('resourceVersion'))),
  );
  if (stored === undefined) throw newNotFound({ group: info.group, resource: info.resource }, name);
  const scale = scaleFromDeployment(decodeStored(stored)) as KubeObject;
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
    const scale = nextScale(scaleFromDeployment(old));
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
  return jsonResponse(200, scaleFromDeployment(obj), { warnings });
}

async function updateScale(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const opts = writeOptions(req.query);
  checkOptions('UpdateOptions', opts);
  const body = parseJsonObject(bodyText);
  return writeScale(ctx, req, opts, () => withRawJson(structuredClone(body), bodyText));
}

async function patchScale(
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

// ---- binding ----

/** validation.ValidatePodBinding. */
function validatePodBinding(binding: Obj): ErrorList {
  const errs: ErrorList = [];
  const target: Obj = isObj(binding.target) ? binding.target : {};
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind !== '' && kind !== 'Node') {
    errs.push(notSupported(FieldPath.root('target', 'kind'), kind, ['Node', '<empty>']));
  }
  if (typeof target.name !== 'string' || target.name === '') errs.push(required(FieldPath.root('target', 'name'), ''));
  return errs;
}

/**
 * podutil.UpdatePodCondition for PodScheduled=True: replaces (or appends) the condition, keeping
 * lastTransitionTime when the status was already True.
 */
function setPodScheduled(pod: Obj, now: string): void {
  const status: Obj = isObj(pod.status) ? pod.status : {};
  pod.status = status;
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
  status.conditions = conditions;
  const condition: Obj = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now };
  const i = conditions.findIndex((c) => isObj(c) && c.type === 'PodScheduled');
  if (i < 0) {
    conditions.push(condition);
    return;
  }
  const old = conditions[i] as Obj;
  if (old.status === 'True') condition.lastTransitionTime = old.lastTransitionTime ?? null;
  conditions[i] = condition;
}

/** BindingREST.Create: POST …/pods/<name>/binding. */
async function createBinding(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { info, name } = req;
  const { opts, body: binding, warnings } = decodeCreateBody(BINDING, req.query, bodyText);
  const meta = metaOf(binding);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, true), meta);
  const dryRun = isDryRun(opts);
  // Mutating admission of a CREATE of pods/binding (handlers/create.go), then BindingREST.Create.
  await ctx.admission?.admit(requestAttributes(req, 'CREATE', binding, undefined, dryRun, warnings));
  if ((meta.name ?? '') !== name) throw newBadRequest('name in URL does not match name in Binding object');
  const errs = validatePodBinding(binding);
  if (errs.length > 0) {
    // ErrorList.ToAggregate() is no Status error: kube-apiserver answers 500 with no reason.
    throw new StatusError({
      status: 'Failure',
      message: errs.length === 1 ? (errs[0]?.message ?? '') : `[${errs.map((e) => e.message).join(', ')}]`,
      code: 500,
    });
  }
  await ctx.admission?.validate(requestAttributes(req, 'CREATE', binding, undefined, dryRun, warnings));
  const target = binding.target as Obj;
  const node = target.name as string;
  const annotations = isObj(meta.annotations) ? (meta.annotations as Record<string, string>) : {};
  const bindingGr = { group: '', resource: 'pods/binding' };
  const key = objectKey(info, req.namespace, name);
  const apply = (current: StoredObject | undefined): Uint8Array => {
    if (current === undefined) throw newNotFound({ group: '', resource: 'pods' }, name);
    const pod = decodeForRewrite(current.value) as Obj & KubeObject;
    const podMeta = pod.metadata ?? {};
    const podRevision = String(current.revision);
    // Preconditions from the Binding's uid and resourceVersion: a storage precondition failure → Conflict.
    if ((meta.uid ?? '') !== '' && meta.uid !== podMeta.uid) {
      throw newConflict(
        { group: '', resource: 'pods' },
        name,
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${podMeta.uid ?? ''}`,
      );
    }
    if ((meta.resourceVersion ?? '') !== '' && meta.resourceVersion !== podRevision) {
      throw newConflict(
        { group: '', resource: 'pods' },
        name,
        `Precondition failed: ResourceVersion in precondition: ${meta.resourceVersion}, ResourceVersion in object meta: ${podRevision}`,
      );
    }
    if (podMeta.deletionTimestamp) {
      throw newConflict(bindingGr, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    }
    const spec: Obj = isObj(pod.spec) ? pod.spec : {};
    pod.spec = spec;
    if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
      throw newConflict(bindingGr, name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
    }
    spec.nodeName = node;
    if (Object.keys(annotations).length > 0) podMeta.annotations = { ...(podMeta.annotations ?? {}), ...annotations };
    setPodScheduled(pod, rfc3339(ctx.clock.now()));
    return encodeForStorage(pod);
  };
  if (dryRun) {
    apply(await storageCall('get', info, name, () => ctx.storage.get(key)));
  } else {
    await storageCall('update', info, name, () => ctx.storage.guaranteedUpdate(key, apply));
  }
  // The create handler fills in the code of a Status without one.
  return jsonResponse(201, { ...successStatus(), code: 201 }, { warnings });
}

// ---- eviction ----

/**
 * EvictionREST.Create without PodDisruptionBudgets: the pod is deleted as a DELETE with the
 * Eviction's deleteOptions would delete it, and the answer is a 201 Success Status.
 */
async function createEviction(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const { name } = req;
  const opts = writeOptions(req.query);
  checkOptions('CreateOptions', opts);
  const eviction = parseJsonObject(bodyText);
  // The endpoint also takes the policy/v1beta1 form of the body.
  if (eviction.apiVersion === 'policy/v1beta1') eviction.apiVersion = 'policy/v1';
  checkTypeMeta(EVICTION, eviction);
  const warnings = checkUnknownFields(EVICTION, eviction, fieldValidation(opts));
  const meta = metaOf(eviction);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, true), meta);
  await ctx.admission?.admit(requestAttributes(req, 'CREATE', eviction, undefined, isDryRun(opts), warnings));
  if ((meta.name ?? '') !== name) throw newBadRequest('name in URL does not match name in Eviction object');
  // EvictionREST.Create: createValidation first.
  await ctx.admission?.validate(requestAttributes(req, 'CREATE', eviction, undefined, isDryRun(opts), warnings));
  const del = eviction.deleteOptions;
  if (del !== undefined && del !== null && !isObj(del)) throw newBadRequest('deleteOptions must be an object');
  // propagateDryRun: the create's dryRun applies to the deletion.
  const delText = JSON.stringify({ ...(isObj(del) ? del : {}), ...(opts.dryRun ? { dryRun: opts.dryRun } : {}) });
  await storeDelete(ctx, req, deleteOptions(new URLSearchParams(), delText));
  return jsonResponse(201, { ...successStatus(), code: 201 }, { warnings });
}

/**
 * Admission of a CREATE of serviceaccounts/token, on the TokenRequest as sent (token-request.ts
 * decodes and answers it; a body that does not decode is left to its errors).
 */
async function admitTokenRequest(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<void> {
  if (ctx.admission === undefined) return;
  let tokenRequest: Obj;
  try {
    tokenRequest = parseJsonObject(bodyText);
  } catch {
    return;
  }
  const dryRun = isDryRun(writeOptions(req.query));
  const warnings: string[] = [];
  await ctx.admission.admit(requestAttributes(req, 'CREATE', tokenRequest, undefined, dryRun, warnings));
  await ctx.admission.validate(requestAttributes(req, 'CREATE', tokenRequest, undefined, dryRun, warnings));
}
