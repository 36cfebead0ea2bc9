/**
 * `pods/<name>/eviction` (pkg/registry/core/pod/storage/eviction.go, v1.32): POST a policy/v1 (or
 * v1beta1) Eviction, admitted as a CREATE of pods/eviction, deletes the pod — unless the one
 * PodDisruptionBudget that selects it allows no disruption now.
 *
 *   POST /api/v1/namespaces/ns/pods/web-0/eviction  {"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"web-0"}}
 *   → 201 Success; 429 "Cannot evict pod as it would violate the pod's disruption budget." with a
 *     DisruptionBudget cause; 201 carrying a Failure Status with code 500 for a pod of two PDBs.
 *
 * As EvictionREST.Create: a pod that is terminal, Pending or being deleted is deleted without a
 * PDB read (with its resourceVersion as precondition unless terminal or deleting); otherwise the
 * namespace's PDBs are read from storage (kube-apiserver lists them live through its loopback
 * client), the matching one's status is checked and decremented — the pod entered in
 * disruptedPods, written as the loopback client's UpdateStatus would be, retried on conflict —
 * and then the pod gets the DisruptionTarget condition (EvictionByEvictionAPI) and is deleted.
 * An unready pod the budget can spare is deleted with its resourceVersion as precondition, so
 * that one turning ready meanwhile is refused with a 429 instead.
 */
import { FieldPath, invalid } from '../../../../api/field-errors.js';
import { labelSelectorAsSelector } from '../../../../api/labels/label-selector.js';
import type { Selector } from '../../../../api/labels/selector.js';
import type { DeleteOptions, KubeObject, Status } from '../../../../api/meta.js';
import { DISRUPTION_BUDGET_CAUSE, updateDisruptionAllowedCondition } from '../../../../api/poddisruptionbudget.js';
import { RESOURCES } from '../../../../api/resources.js';
import {
  isConflict,
  newBadRequest,
  newConflict,
  newForbidden,
  newInvalid,
  newTooManyRequests,
  StatusError,
  successStatus,
} from '../../../../api/status.js';
import { rfc3339 } from '../../../../api/time.js';
import type { Pod } from '../../../../api/types/core/v1.js';
import type { PodDisruptionBudget } from '../../../../api/types/policy/v1.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForScope,
} from '../../../../api/validation/request-namespace.js';
import { kubernetesUserAgent } from '../../../../client/transport.js';
import { requestAttributes } from '../../../admission/chain.js';
import { listObjects } from '../../../admission/lister.js';
import { APISERVER_USER, SYSTEM_PRIVILEGED_GROUP } from '../../../authn/user.js';
import { decodeStored, parseJsonObject } from '../../../decode/codec.js';
import { checkUnknownFields } from '../../../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../../../decode/type-meta.js';
import { VERSION_INFO } from '../../../endpoints/discovery.js';
import { jsonResponse } from '../../../endpoints/response.js';
import { checkOptions, deleteOptions, fieldValidation, writeOptions } from '../../../endpoints/rest-options.js';
import { updateWith } from '../../../endpoints/update.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../../generic/context.js';
import { storeDelete } from '../../generic/delete.js';
import { storeGet, storeUpdate } from '../../generic/store.js';
import { isObj } from '../../objects.js';
import { bodyKind, findResource } from '../../resources.js';

const EVICTION = bodyKind('policy', 'v1', 'Eviction', ['deleteOptions']);

// eviction.go MaxDisruptedPodSize: past this many evictions the PDB controller has not confirmed,
// the budget's pods are not evicted.
export const MAX_DISRUPTED_POD_SIZE = 2000;

// eviction.go EvictionsRetry: Steps 20, Duration 500ms, Factor 1.0, Jitter 0.1 (the jitter left
// out, as kubewasm's other backoffs leave it, so that runs are reproducible).
export const EVICTIONS_RETRY = { steps: 20, durationMs: 500 } as const;

// eviction.go createTooManyRequestsError / checkAndDecrement: the 429's message.
export const EVICTION_VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";

// eviction.go Create: the Failure Status for a pod two or more PDBs select.
export const MULTIPLE_PDBS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

// core/v1 DisruptionTarget and the reason and message addConditionAndDeletePod sets.
const DISRUPTION_TARGET = 'DisruptionTarget';
const EVICTION_BY_EVICTION_API = 'EvictionByEvictionAPI';
const EVICTION_CONDITION_MESSAGE = 'Eviction API: evicting';

// policy.Resource("poddisruptionbudget"): the singular the 403s name.
const PDB_GR = { group: 'policy', resource: 'poddisruptionbudget' };

type Obj = Record<string, unknown>;

/** retry.OnError(EvictionsRetry, retriable, fn): the last error once the steps are spent. */
async function retryOnError<T>(
  ctx: RestContext,
  retriable: (err: unknown) => boolean,
  fn: () => Promise<T>,
): Promise<T> {
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (err) {
      if (!retriable(err) || step >= EVICTIONS_RETRY.steps) throw err;
    }
    await new Promise<void>((resolve) => ctx.clock.setTimer(resolve, EVICTIONS_RETRY.durationMs));
  }
}

/** The context without admission: rest.ValidateAllObjectFunc, the checks a REST-internal write passes. */
function withoutAdmission(ctx: RestContext): RestContext {
  const { admission: _admission, ...rest } = ctx;
  return rest;
}

/** `%v` of a []string: `[a b]`. */
const goStrings = (v: readonly string[]): string => `[${v.join(' ')}]`;

/**
 * propagateDryRun: the request's dryRun goes into the Eviction's deleteOptions; both set and
 * different is an error (a plain one: kube-apiserver answers 500 with no reason).
 */
function propagateDryRun(del: DeleteOptions | undefined, requestDryRun: readonly string[] | undefined): DeleteOptions {
  const dryRun = requestDryRun ?? [];
  if (del === undefined) return dryRun.length > 0 ? { dryRun: [...dryRun] } : {};
  const own = del.dryRun ?? [];
  if (own.length === 0) return dryRun.length > 0 ? { ...del, dryRun: [...dryRun] } : del;
  if (dryRun.length === 0) return del;
  if (goStrings(own) !== goStrings(dryRun)) {
    throw new StatusError({
      status: 'Failure',
      message: `Non-matching dry-run options in request and content: ${goStrings(dryRun)} and ${goStrings(own)}`,
      code: 500,
    });
  }
  return del;
}

const resourceVersionIsUnset = (o: DeleteOptions): boolean => o.preconditions?.resourceVersion === undefined;

const phaseOf = (pod: Pod): string => pod.status?.phase ?? '';
const isDeleting = (pod: Pod): boolean => (pod.metadata?.deletionTimestamp ?? null) !== null;

/** canIgnorePDB: a terminal, Pending or deleting pod has caused its disruption already. */
function canIgnorePDB(pod: Pod): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || isDeleting(pod);
}

/** shouldEnforceResourceVersion: every pod but a terminal or deleting one may still turn ready. */
function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = phaseOf(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || isDeleting(pod));
}

/** podutil.IsPodReady. */
const isPodReady = (pod: Pod): boolean =>
  (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

const withResourceVersion = (o: DeleteOptions, rv: string): DeleteOptions => ({
  ...o,
  preconditions: { ...(o.preconditions ?? {}), resourceVersion: rv },
});

/** createTooManyRequestsError: the PDB's status is older than its spec. */
function stillBeingProcessed(name: string): StatusError {
  const err = newTooManyRequests(EVICTION_VIOLATES_BUDGET, 10);
  err.status.details = {
    ...err.status.details,
    causes: [
      {
        reason: DISRUPTION_BUDGET_CAUSE,
        message: `The disruption budget ${name} is still being processed by the server.`,
      },
    ],
  };
  return err;
}

/** The loopback client's request for a PDB's status: as system:apiserver, kube-apiserver's User-Agent. */
function pdbStatusRequest(req: ResourceRequest, name: string): ResourceRequest {
  const info = findResource('policy', 'v1', 'poddisruptionbudgets');
  if (info === undefined) throw new Error('eviction: poddisruptionbudgets.policy is not served');
  return {
    info,
    namespace: req.namespace,
    name,
    query: new URLSearchParams(),
    accept: null,
    subresource: 'status',
    user: { name: APISERVER_USER, uid: '', groups: [SYSTEM_PRIVILEGED_GROUP] },
    userAgent: kubernetesUserAgent('kube-apiserver', VERSION_INFO),
  };
}

export class EvictionREST {
  constructor(
    private readonly ctx: RestContext,
    private readonly req: ResourceRequest,
  ) {}

  private async getPod(): Promise<Pod> {
    return decodeStored(await storeGet(this.ctx, this.req, {})) as Pod;
  }

  /** getPodDisruptionBudgets: the namespace's PDBs whose (valid) selector matches the pod's labels. */
  async getPodDisruptionBudgets(pod: Pod): Promise<PodDisruptionBudget[]> {
    const namespace = pod.metadata?.namespace ?? this.req.namespace;
    const all = await listObjects({ storage: this.ctx.storage }, RESOURCES.poddisruptionbudgets, namespace);
    const labels = pod.metadata?.labels ?? {};
    const out: PodDisruptionBudget[] = [];
    for (const pdb of all) {
      if ((pdb.metadata?.namespace ?? '') !== namespace) continue;
      let selector: Selector;
      try {
        selector = labelSelectorAsSelector(pdb.spec?.selector as Parameters<typeof labelSelectorAsSelector>[0]);
      } catch {
        // An invalid selector matches no pod.
        continue;
      }
      if (!selector.matches(labels)) continue;
      out.push(structuredClone(pdb) as PodDisruptionBudget);
    }
    return out;
  }

  /**
   * checkAndDecrement: 429 while the status lags the spec or no disruption is allowed, 403 for a
   * negative count or too many unconfirmed evictions; otherwise one disruption fewer and the pod
   * entered in disruptedPods (not on a dry run), written with the PDB's resourceVersion.
   */
  async checkAndDecrement(podName: string, pdb: PodDisruptionBudget, dryRun: boolean): Promise<void> {
    const name = pdb.metadata?.name ?? '';
    const status = structuredClone(
      pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    );
    if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillBeingProcessed(name);
    if (status.disruptionsAllowed < 0) {
      throw newForbidden(PDB_GR, name, 'pdb disruptions allowed is negative');
    }
    if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
      throw newForbidden(
        PDB_GR,
        name,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      );
    }
    if (status.disruptionsAllowed === 0) {
      const err = newTooManyRequests(EVICTION_VIOLATES_BUDGET, 0);
      err.status.details = {
        ...err.status.details,
        causes: [
          {
            reason: DISRUPTION_BUDGET_CAUSE,
            message: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
          },
        ],
      };
      throw err;
    }
    const now = rfc3339(this.ctx.clock.now());
    status.disruptionsAllowed--;
    if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, now);
    if (dryRun) return;
    // Tells the PDB controller the pod is about to go, so it no longer counts it as healthy.
    status.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: now };
    const written: PodDisruptionBudget = { ...pdb, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status };
    await updateWith(this.ctx, pdbStatusRequest(this.req, name), {}, () => written as Obj, 'status');
  }

  /**
   * addConditionAndDeletePod: unless a dry run, the latest pod — the options' uid and
   * resourceVersion preconditions checked against it — gets DisruptionTarget=True through the
   * status strategy (no admission: rest.ValidateAllObjectFunc), and a resourceVersion
   * precondition follows that write; then the pod is deleted with the options.
   */
  async addConditionAndDeletePod(options: DeleteOptions): Promise<void> {
    let opts = options;
    if (!isDryRun(opts)) {
      const { name } = this.req;
      const podGr = { group: '', resource: 'Pod' };
      const statusReq: ResourceRequest = { ...this.req, subresource: 'status' };
      const { obj } = await storeUpdate(
        withoutAdmission(this.ctx),
        statusReq,
        'status',
        { dryRun: false, decode: true },
        async (old) => {
          const latest = structuredClone(old) as Pod & KubeObject;
          const uid = opts.preconditions?.uid;
          if (uid !== undefined && uid !== null && uid !== '' && uid !== latest.metadata?.uid) {
            throw newConflict(
              podGr,
              latest.metadata?.name ?? name,
              `the UID in the precondition (${uid}) does not match the UID in record (${latest.metadata?.uid ?? ''}). The object might have been deleted and then recreated`,
            );
          }
          const rv = opts.preconditions?.resourceVersion;
          if (rv !== undefined && rv !== null && rv !== '' && rv !== latest.metadata?.resourceVersion) {
            throw newConflict(
              podGr,
              latest.metadata?.name ?? name,
              `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${latest.metadata?.resourceVersion ?? ''}). The object might have been modified`,
            );
          }
          addDisruptionTarget(latest, rfc3339(this.ctx.clock.now()));
          return { obj: latest as Obj, warnings: [] };
        },
      );
      if (!resourceVersionIsUnset(opts)) {
        // The update was ours: the delete's precondition is the version it wrote.
        opts = withResourceVersion(opts, obj.metadata?.resourceVersion ?? '');
      }
    }
    // The options are validated where the store's BeforeDelete validates them.
    await storeDelete(this.ctx, this.req, deleteOptions(new URLSearchParams(), JSON.stringify(opts)));
  }

  /** EvictionREST.Create after the Eviction was decoded and admitted: the answer's Status. */
  async create(
    eviction: Obj,
    createOptions: { readonly dryRun?: readonly string[] },
    validate: () => Promise<void>,
  ): Promise<Status> {
    const { name } = this.req;
    if ((metaOf(eviction).name ?? '') !== name) {
      throw newBadRequest('name in URL does not match name in Eviction object');
    }
    const del = eviction.deleteOptions;
    if (del !== undefined && del !== null && !isObj(del)) throw newBadRequest('deleteOptions must be an object');
    const given = isObj(del) ? (structuredClone(del) as DeleteOptions) : undefined;
    if (given?.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
      throw newInvalid({ group: 'policy', kind: 'Eviction' }, name, [
        invalid(
          FieldPath.root('deleteOptions', 'ignoreStoreReadErrorWithClusterBreakingPotential'),
          true,
          'can not be set for pod eviction, try after removing the option',
        ),
      ]);
    }
    const original = propagateDryRun(given, createOptions.dryRun);
    await validate();

    let pod: Pod | undefined;
    let deletedPod = false;
    // Conflicts are retried, unless the caller named the resourceVersion itself.
    const retriable = resourceVersionIsUnset(original) ? isConflict : () => false;
    await retryOnError(this.ctx, retriable, async () => {
      pod = await this.getPod();
      // A terminal, Pending or deleting pod: deleted without asking a PDB.
      if (!canIgnorePDB(pod)) return;
      let options = original;
      // Not racing another PDB-minded process: the pod as read, unless the caller set a version.
      if (shouldEnforceResourceVersion(pod) && resourceVersionIsUnset(original)) {
        options = withResourceVersion(original, pod.metadata?.resourceVersion ?? '');
      }
      await this.addConditionAndDeletePod(options);
      deletedPod = true;
    });
    if (deletedPod || pod === undefined) return successStatus();
    const target: Pod = pod;

    let pdbName = '';
    let updateDeletionOptions = false;
    const pdbs = await this.getPodDisruptionBudgets(target);
    if (pdbs.length > 1) {
      return { ...successStatus(), status: 'Failure', message: MULTIPLE_PDBS_MESSAGE, code: 500 };
    }
    const first = pdbs[0];
    if (first !== undefined) {
      let pdb: PodDisruptionBudget = first;
      pdbName = pdb.metadata?.name ?? '';
      let guarded = true;
      // IsPodReady stands for healthy: an unready pod the budget can spare goes without a decrement.
      if (!isPodReady(target)) {
        const status = pdb.status;
        if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') {
          updateDeletionOptions = true;
          guarded = false;
        } else if (
          status !== undefined &&
          status.currentHealthy >= status.desiredHealthy &&
          status.desiredHealthy > 0
        ) {
          // IfHealthyBudget (the default): the application is not disrupted now.
          updateDeletionOptions = true;
          guarded = false;
        }
      }
      if (guarded) {
        let refresh = false;
        await retryOnError(this.ctx, isConflict, async () => {
          if (refresh) {
            const read = await storeGet(this.ctx, pdbStatusRequest(this.req, pdbName), {});
            pdb = decodeStored(read) as PodDisruptionBudget;
          }
          try {
            await this.checkAndDecrement(target.metadata?.name ?? name, pdb, isDryRun(original));
          } catch (err) {
            refresh = true;
            throw err;
          }
        });
      }
    }

    // No PDB, a disruption taken, or an unready pod the budget can spare.
    let options = original;
    // The pod must not have turned ready since it was read.
    if (updateDeletionOptions) options = withResourceVersion(original, target.metadata?.resourceVersion ?? '');
    try {
      await this.addConditionAndDeletePod(options);
    } catch (err) {
      // The version we set did not hold: a 429, so the client tries again.
      if (isConflict(err) && updateDeletionOptions && resourceVersionIsUnset(original)) {
        throw stillBeingProcessed(pdbName);
      }
      throw err;
    }
    return successStatus();
  }
}

/**
 * podutil.UpdatePodCondition for DisruptionTarget=True/EvictionByEvictionAPI: replaces (or
 * appends) the condition, keeping lastTransitionTime when the status was already True.
 */
function addDisruptionTarget(pod: Pod, now: string): void {
  pod.status ??= {};
  pod.status.conditions ??= [];
  const conditions = pod.status.conditions;
  const condition = {
    type: DISRUPTION_TARGET,
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: now,
    reason: EVICTION_BY_EVICTION_API,
    message: EVICTION_CONDITION_MESSAGE,
  };
  const i = conditions.findIndex((c) => c.type === DISRUPTION_TARGET);
  if (i < 0) {
    conditions.push(condition);
    return;
  }
  const old = conditions[i];
  if (old?.status === 'True') condition.lastTransitionTime = old.lastTransitionTime ?? now;
  conditions[i] = condition;
}

/** POST …/pods/<name>/eviction: decoded and admitted as a CREATE of pods/eviction, then EvictionREST.Create. */
export async function createEviction(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<Response> {
  const opts = writeOptions(req.query);
  checkOptions('CreateOptions', opts);
  const eviction = parseJsonObject(bodyText);
  // The endpoint also takes the policy/v1beta1 form of the body.
  if (eviction.apiVersion === 'policy/v1beta1') eviction.apiVersion = 'policy/v1';
  checkTypeMeta(EVICTION, eviction);
  const warnings = checkUnknownFields(EVICTION, eviction, fieldValidation(opts));
  const meta = metaOf(eviction);
  ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope(req.namespace, true), meta);
  const dryRun = isDryRun(opts);
  await ctx.admission?.admit(requestAttributes(req, 'CREATE', eviction, undefined, dryRun, warnings));
  const status = await new EvictionREST(ctx, req).create(eviction, opts, async () => {
    // createValidation: validating admission of the create.
    await ctx.admission?.validate(requestAttributes(req, 'CREATE', eviction, undefined, dryRun, warnings));
  });
  // The create handler fills in the code of a Status without one, and answers 201 whatever it says.
  return jsonResponse(201, { ...status, code: status.code ?? 201 }, { warnings });
}
