/**
 * `pods/<name>/binding` (pkg/registry/core/pod/storage/storage.go BindingREST.Create, v1.32): POST a
 * v1 Binding — validated as ValidatePodBinding does, admitted as a CREATE of pods/binding — sets
 * `spec.nodeName` once and adds PodScheduled=True, answering a 201 Success Status; 409 for a pod
 * already bound or being deleted.
 */
import { type ErrorList, FieldPath, notSupported, required } from '../../../../api/field-errors.js';
import type { KubeObject } from '../../../../api/meta.js';
import { newBadRequest, newConflict, newNotFound, StatusError, successStatus } from '../../../../api/status.js';
import { rfc3339 } from '../../../../api/time.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../../../api/validation/request-namespace.js';
import type { StoredObject } from '../../../../storage/storage.js';
import { requestAttributes } from '../../../admission/chain.js';
import { decodeForRewrite, encodeForStorage } from '../../../decode/codec.js';
import { metaOf } from '../../../decode/type-meta.js';
import { decodeCreateBody } from '../../../endpoints/create.js';
import { jsonResponse } from '../../../endpoints/response.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../../generic/context.js';
import { storageCall } from '../../generic/storage-call.js';
import { isObj, type Obj } from '../../objects.js';
import { bodyKind, objectKey } from '../../resources.js';

const BINDING = bodyKind('', 'v1', 'Binding', ['target']);

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
export async function createBinding(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
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
