/**
 * What Pod Security admission decides for one request (k8s.io/pod-security-admission
 * admission/admission.go, as kube-apiserver 1.32 runs it with the default configuration: enforce,
 * audit and warn `privileged:latest`, no exemptions):
 * - pods (create, and updates that change what the checks read): the namespace's enforce level
 *   refuses with 403, audit records, warn adds `would violate PodSecurity …` warnings;
 * - workload resources with a pod template: audit and warn only, never enforce;
 * - namespaces: the policy labels must be valid (422), and tightening the enforce level warns about
 *   the existing pods that would violate it.
 */
import type { ErrorList } from '../../../api/field-errors.js';
import { newForbidden, newInternalError, newInvalid, type StatusError } from '../../../api/status.js';
import { type AggregateCheckResult, aggregateCheckResults, forbiddenDetail, forbiddenReason } from './check.js';
import { compareLevels, type LevelVersion, levelVersionString, sameLevelVersion, versionString } from './levels.js';
import { DEFAULT_POLICY, fullyPrivileged, type Policy, policyToEvaluate } from './namespace-policy.js';
import { type Container, list, type PodMetadata, type PodSpec } from './pod-spec.js';
import type { Evaluator } from './registry.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

// defaultNamespaceMaxPodsToCheck, defaultNamespacePodCheckTimeout (admission.go).
export const NAMESPACE_MAX_PODS_TO_CHECK = 3000;
export const NAMESPACE_POD_CHECK_TIMEOUT_MS = 1000;

// ignoredPodSubresources: pod subresources that cannot change what the checks read.
const IGNORED_POD_SUBRESOURCES = new Set([
  'exec',
  'attach',
  'binding',
  'eviction',
  'log',
  'portforward',
  'proxy',
  'status',
]);

// defaultPodSpecResources besides pods (group/resource); podtemplates and replicationcontrollers
// are listed as Kubernetes lists them, though kubewasm does not serve them.
const POD_SPEC_RESOURCES = new Set([
  '/replicationcontrollers',
  '/podtemplates',
  'apps/replicasets',
  'apps/deployments',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
]);

export const isPodSpecResource = (group: string, resource: string): boolean =>
  POD_SPEC_RESOURCES.has(`${group}/${resource}`);

/** The request as Pod Security reads it (api.Attributes). */
export interface PodSecurityRequest {
  readonly operation: 'CREATE' | 'UPDATE';
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  /** The object's name (its generated name once generateName has made one). */
  readonly name: string;
  readonly object: Obj;
  readonly oldObject: Obj | undefined;
}

/** admissionv1.AdmissionResponse, reduced to what kube-apiserver uses. */
export interface PodSecurityResponse {
  readonly allowed: boolean;
  /** Why it was refused (the Status kube-apiserver answers with). */
  readonly error?: StatusError;
  readonly warnings: readonly string[];
  /** Audit annotations (keys without the `pod-security.kubernetes.io/` prefix). */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** Reads namespaces and their pods from storage. */
export interface PodSecuritySources {
  /** The namespace's labels; undefined when it does not exist. */
  getNamespaceLabels(name: string): Promise<Record<string, string> | undefined>;
  listPods(namespace: string): Promise<Obj[]>;
  /** Milliseconds, for the time budget of checking a namespace's pods. */
  now(): number;
}

const ALLOWED: PodSecurityResponse = { allowed: true, warnings: [], auditAnnotations: {} };

function labelsOf(obj: Obj): Record<string, string> | undefined {
  const meta = obj.metadata;
  if (!isObj(meta) || !isObj(meta.labels)) return undefined;
  return meta.labels as Record<string, string>;
}

const errorsEqual = (a: ErrorList, b: ErrorList) =>
  a.length === b.length && a.every((e, i) => e.message === b[i]?.message);

/** An object's metadata and spec as the checks read them. */
function podParts(meta: unknown, spec: unknown): { meta: PodMetadata; spec: PodSpec } {
  return { meta: (isObj(meta) ? meta : {}) as PodMetadata, spec: (isObj(spec) ? spec : {}) as PodSpec };
}

/**
 * ExtractPodSpec: the pod template of a workload (cronjobs: spec.jobTemplate.spec.template);
 * undefined when the object has none (a ReplicationController without a template).
 */
function extractPodTemplate(
  group: string,
  resource: string,
  obj: Obj,
): { meta: PodMetadata; spec: PodSpec } | undefined {
  const spec = isObj(obj.spec) ? obj.spec : {};
  let template: unknown;
  if (group === 'batch' && resource === 'cronjobs') {
    const jobTemplate = isObj(spec.jobTemplate) ? spec.jobTemplate : {};
    template = isObj(jobTemplate.spec) ? jobTemplate.spec.template : undefined;
    if (template === undefined) template = {};
  } else {
    template = spec.template;
    // Only the ReplicationController's template is a pointer; the others are always there.
    if (template === undefined && resource !== 'replicationcontrollers') template = {};
  }
  if (!isObj(template)) return undefined;
  return podParts(template.metadata, template.spec);
}

// corev1.SeccompContainerAnnotationKeyPrefix.
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** isSignificantContainerUpdate: a new image, or a changed container seccomp annotation. */
function significantContainerUpdate(
  c: Container,
  old: Container,
  annotations: Record<string, string>,
  oldAnnotations: Record<string, string>,
): boolean {
  if (c.image !== old.image) return true;
  const key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + (c.name ?? '');
  return annotations[key] !== oldAnnotations[key];
}

/**
 * isSignificantPodUpdate: whether a pod update can change a check's answer — containers added or
 * removed, an image changed (the only mutable container field the checks could care about), an
 * ephemeral container added or changed.
 */
export function isSignificantPodUpdate(pod: Obj, oldPod: Obj): boolean {
  const { meta, spec } = podParts(pod.metadata, pod.spec);
  const { meta: oldMeta, spec: oldSpec } = podParts(oldPod.metadata, oldPod.spec);
  const ann = meta.annotations ?? {};
  const oldAnn = oldMeta.annotations ?? {};
  const containers = list(spec.containers);
  const oldContainers = list(oldSpec.containers);
  const inits = list(spec.initContainers);
  const oldInits = list(oldSpec.initContainers);
  if (containers.length !== oldContainers.length || inits.length !== oldInits.length) return true;
  for (let i = 0; i < containers.length; i++) {
    if (significantContainerUpdate(containers[i] as Container, oldContainers[i] as Container, ann, oldAnn)) return true;
  }
  for (let i = 0; i < inits.length; i++) {
    if (significantContainerUpdate(inits[i] as Container, oldInits[i] as Container, ann, oldAnn)) return true;
  }
  const oldEphemeral = list(oldSpec.ephemeralContainers);
  for (const c of list(spec.ephemeralContainers)) {
    const old = oldEphemeral.find((o) => o.name === c.name);
    if (old === undefined) return true;
    if (significantContainerUpdate(c, old, ann, oldAnn)) return true;
  }
  return false;
}

/** The Pod Security decision maker for one cluster (admission.Admission). */
export class PodSecurityAdmission {
  constructor(
    private readonly evaluator: Evaluator,
    private readonly sources: PodSecuritySources,
    private readonly defaults: Policy = DEFAULT_POLICY,
  ) {}

  /** Validate: namespaces, pods, or a workload's pod template. */
  async validate(req: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (req.group === '' && req.resource === 'namespaces') return this.validateNamespace(req);
    if (req.group === '' && req.resource === 'pods') return this.validatePod(req);
    return this.validatePodController(req);
  }

  /** ValidateNamespace: valid labels on create, and on update when they changed; warnings about existing pods. */
  async validateNamespace(req: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (req.subresource !== '') return ALLOWED;
    const { policy: newPolicy, errors: newErrs } = policyToEvaluate(labelsOf(req.object), this.defaults);
    const invalid = () => {
      const name = req.name || String((req.object.metadata as Obj | undefined)?.name ?? '');
      return {
        allowed: false,
        error: newInvalid({ group: '', kind: 'Namespace' }, name, newErrs),
        warnings: [],
        auditAnnotations: {},
      };
    };
    if (req.operation === 'CREATE') return newErrs.length > 0 ? invalid() : ALLOWED;
    const { policy: oldPolicy, errors: oldErrs } = policyToEvaluate(
      req.oldObject === undefined ? undefined : labelsOf(req.oldObject),
      this.defaults,
    );
    // Invalid labels block an update only when the update changed them.
    if (newErrs.length > 0 && (oldErrs.length === 0 || !errorsEqual(newErrs, oldErrs))) return invalid();
    // No pods to dry-run when enforce did not change, became privileged, or was relaxed at the same version.
    if (sameLevelVersion(newPolicy.enforce, oldPolicy.enforce)) return ALLOWED;
    if (newPolicy.enforce.level === 'privileged') return ALLOWED;
    if (
      versionString(newPolicy.enforce.version) === versionString(oldPolicy.enforce.version) &&
      compareLevels(newPolicy.enforce.level, oldPolicy.enforce.level) < 1
    ) {
      return ALLOWED;
    }
    const name = String((req.object.metadata as Obj | undefined)?.name ?? req.name);
    return {
      allowed: true,
      warnings: await this.evaluatePodsInNamespace(name, newPolicy.enforce),
      auditAnnotations: {},
    };
  }

  /** ValidatePod: the namespace's enforce, audit and warn levels against a pod. */
  async validatePod(req: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (IGNORED_POD_SUBRESOURCES.has(req.subresource)) return ALLOWED;
    const labels = await this.sources.getNamespaceLabels(req.namespace);
    if (labels === undefined) {
      return {
        allowed: false,
        error: newInternalError(`failed to lookup namespace "${req.namespace}"`),
        warnings: [],
        auditAnnotations: {
          error: `Internal error occurred: failed to lookup namespace "${req.namespace}": namespaces "${req.namespace}" not found`,
        },
      };
    }
    const { policy, errors } = policyToEvaluate(labels, this.defaults);
    if (errors.length === 0 && fullyPrivileged(policy)) return ALLOWED;
    if (
      req.operation === 'UPDATE' &&
      req.oldObject !== undefined &&
      !isSignificantPodUpdate(req.object, req.oldObject)
    ) {
      return ALLOWED;
    }
    const { meta, spec } = podParts(req.object.metadata, req.object.spec);
    return this.evaluatePod(policy, errors, meta, spec, req, true);
  }

  /** ValidatePodController: audit and warn for the pod template of a workload; never refuses. */
  async validatePodController(req: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (req.subresource !== '') return ALLOWED;
    const labels = await this.sources.getNamespaceLabels(req.namespace);
    if (labels === undefined) {
      return {
        allowed: true,
        warnings: [],
        auditAnnotations: {
          error: `failed to lookup namespace "${req.namespace}": namespaces "${req.namespace}" not found`,
        },
      };
    }
    const { policy, errors } = policyToEvaluate(labels, this.defaults);
    if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged')
      return ALLOWED;
    const template = extractPodTemplate(req.group, req.resource, req.object);
    if (template === undefined) return ALLOWED;
    return this.evaluatePod(policy, errors, template.meta, template.spec, req, false);
  }

  /**
   * EvaluatePod: enforce (pods only) refuses with 403 `<resource> "<name>" is forbidden: violates
   * PodSecurity "<level>:<version>": <details>`; audit adds an annotation; warn adds a warning unless
   * the request is refused anyway. One evaluation serves every mode with the same level and version.
   */
  private evaluatePod(
    policy: Policy,
    policyErrors: ErrorList,
    meta: PodMetadata,
    spec: PodSpec,
    req: PodSecurityRequest,
    enforce: boolean,
  ): PodSecurityResponse {
    const auditAnnotations: Record<string, string> = {};
    if (policyErrors.length > 0) {
      const agg =
        policyErrors.length === 1 ? policyErrors[0]?.message : `[${policyErrors.map((e) => e.message).join(', ')}]`;
      auditAnnotations.error = `Failed to parse policy: ${agg}`;
    }
    const cache = new Map<string, AggregateCheckResult>();
    const evaluate = (lv: LevelVersion) => {
      const key = levelVersionString(lv);
      let r = cache.get(key);
      if (r === undefined) {
        r = aggregateCheckResults(this.evaluator.evaluatePod(lv, meta, spec));
        cache.set(key, r);
      }
      return r;
    };
    let error: StatusError | undefined;
    if (enforce) {
      // api.EnforcedPolicyAnnotationKey.
      auditAnnotations['enforce-policy'] = levelVersionString(policy.enforce);
      const result = evaluate(policy.enforce);
      if (!result.allowed) {
        error = newForbidden(
          { group: req.group, resource: req.resource },
          req.name || String((meta as { name?: string }).name ?? ''),
          `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(result)}`,
        );
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) {
      // api.AuditViolationsAnnotationKey.
      auditAnnotations['audit-violations'] =
        `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audit)}`;
    }
    const warnings: string[] = [];
    // No warnings on a request that is refused anyway.
    if (error === undefined) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) {
        warnings.push(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`);
      }
    }
    return error === undefined
      ? { allowed: true, warnings, auditAnnotations }
      : { allowed: false, error, warnings, auditAnnotations };
  }

  /**
   * EvaluatePodsInNamespace: the existing pods checked against a new enforce level, at most 3000
   * and for at most a second, one pod per controller first; pods sharing the same violations are
   * reported once, under the lexically first pod's name.
   */
  async evaluatePodsInNamespace(namespace: string, enforce: LevelVersion): Promise<string[]> {
    const deadline = this.sources.now() + NAMESPACE_POD_CHECK_TIMEOUT_MS;
    let pods: Obj[];
    try {
      pods = await this.sources.listPods(namespace);
    } catch {
      return ['failed to list pods while checking new PodSecurity enforce level'];
    }
    let prioritized = prioritizePods(pods);
    const totalPods = prioritized.length;
    if (prioritized.length > NAMESPACE_MAX_PODS_TO_CHECK)
      prioritized = prioritized.slice(0, NAMESPACE_MAX_PODS_TO_CHECK);
    let checkedPods = prioritized.length;
    const podWarnings: string[] = [];
    const counts = new Map<string, { podName: string; podCount: number }>();
    for (let i = 0; i < prioritized.length; i++) {
      const pod = prioritized[i] as Obj;
      const { meta, spec } = podParts(pod.metadata, pod.spec);
      const r = aggregateCheckResults(this.evaluator.evaluatePod(enforce, meta, spec));
      if (!r.allowed) {
        const warning = forbiddenReason(r);
        const podName = meta.name ?? '';
        const c = counts.get(warning);
        if (c === undefined) {
          counts.set(warning, { podName, podCount: 1 });
          podWarnings.push(warning);
        } else {
          if (podName < c.podName) c.podName = podName;
          c.podCount++;
        }
      }
      if (this.sources.now() > deadline) {
        checkedPods = i + 1;
        break;
      }
    }
    const warnings: string[] = [];
    if (checkedPods < totalPods) {
      warnings.push(
        `new PodSecurity enforce level only checked against the first ${checkedPods} of ${totalPods} existing pods`,
      );
    }
    if (podWarnings.length > 0) {
      warnings.push(
        `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`,
      );
    }
    // decoratePodWarnings, then a deterministic order.
    const decorated = podWarnings.map((w) => {
      const c = counts.get(w) as { podName: string; podCount: number };
      if (c.podCount === 1) return `${c.podName}: ${w}`;
      if (c.podCount === 2) return `${c.podName} (and 1 other pod): ${w}`;
      return `${c.podName} (and ${c.podCount - 1} other pods): ${w}`;
    });
    return [...warnings, ...decorated.sort()];
  }
}

/**
 * prioritizePods: pods without a controller and the first pod of each controller, in list order,
 * then the other replicas — so a cut at 3000 pods or at the deadline still sees every workload.
 */
function prioritizePods(pods: readonly Obj[]): Obj[] {
  const prioritized: Obj[] = [];
  const duplicates: Obj[] = [];
  const seenControllers = new Set<string>();
  for (const pod of pods) {
    const meta = isObj(pod.metadata) ? pod.metadata : {};
    const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
    const controller = refs.find((r): r is Obj => isObj(r) && r.controller === true);
    if (controller === undefined) {
      prioritized.push(pod);
      continue;
    }
    const uid = String(controller.uid ?? '');
    if (seenControllers.has(uid)) duplicates.push(pod);
    else {
      seenControllers.add(uid);
      prioritized.push(pod);
    }
  }
  return [...prioritized, ...duplicates];
}
