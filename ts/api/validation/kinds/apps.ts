/**
 * apps/v1 Deployment, ReplicaSet, DaemonSet and StatefulSet (k8s.io/kubernetes
 * pkg/apis/apps/validation/validation.go v1.32, plus the selector immutability that
 * pkg/registry/apps/<kind>/strategy.go adds for apps/v1 on update).
 */
import { type ErrorList, FieldPath, forbidden, invalid, notSupported, required } from '../../field-errors.js';
import { GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject, LabelSelector } from '../../meta.js';
import { validateLabelSelector, validateLabels } from '../labels.js';
import { validateAnnotations, validateImmutableField } from '../object-meta.js';
import { restartPolicyOf, validatePodTemplateSpec } from './pod.js';
import { asSelector } from './selector.js';
import {
  goPointer,
  intOrPercentValue,
  intOrString,
  intOrStringValue,
  isNotMoreThan100Percent,
  isObj,
  jsonEqual,
  labelSelectorValue,
  labelsValue,
  nonNegative,
  num,
  type Obj,
  obj,
  str,
  strMap,
  validatePositiveIntOrPercent,
} from './util.js';

const SPEC = FieldPath.root('spec');
const specOf = (o: KubeObject): Obj => obj((o as Obj).spec);
const selectorOf = (spec: Obj): LabelSelector | undefined =>
  isObj(spec.selector) ? (spec.selector as LabelSelector) : undefined;

/** The selector checks shared by Deployment, ReplicaSet and StatefulSet: required, valid, non-empty. */
function validateWorkloadSelector(spec: Obj, kindWord: string, path: FieldPath): ErrorList {
  const sel = selectorOf(spec);
  if (sel === undefined) return [required(path.child('selector'), '')];
  const errs = validateLabelSelector(sel, {}, path.child('selector'));
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    errs.push(invalid(path.child('selector'), labelSelectorValue(sel), `empty selector is invalid for ${kindWord}`));
  }
  return errs;
}

/** The template's labels as Kubernetes prints them, and the mismatch error when the selector does not match. */
function selectorMismatch(spec: Obj, path: FieldPath, skipEmpty: boolean): ErrorList {
  const selector = asSelector(selectorOf(spec));
  if (selector === undefined || (skipEmpty && selector.empty())) return [];
  const labels = strMap(obj(obj(spec.template).metadata).labels);
  if (selector.matches(labels ?? {})) return [];
  return [
    invalid(
      path.child('template', 'metadata', 'labels'),
      labelsValue(labels),
      '`selector` does not match template `labels`',
    ),
  ];
}

/**
 * LabelSelectorAsSelector, then ValidatePodTemplateSpecForReplicaSet: selector match (a missing
 * selector is Nothing and matches no labels), the template, restartPolicy Always. A selector that
 * does not convert stops there, as in Kubernetes.
 */
function validateTemplateForReplicaSet(spec: Obj, kind: string, path: FieldPath): ErrorList {
  if (asSelector(selectorOf(spec)) === undefined) {
    return [invalid(path.child('selector'), labelSelectorValue(selectorOf(spec)), 'invalid label selector')];
  }
  const template = obj(spec.template);
  const tp = path.child('template');
  const errs = selectorMismatch(spec, path, true);
  errs.push(...validatePodTemplateSpec(template, tp));
  errs.push(...alwaysRestart(template, kind, tp));
  return errs;
}

function alwaysRestart(template: Obj, kind: string, tp: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const podSpec = obj(template.spec);
  const rp = restartPolicyOf(podSpec);
  if (rp !== 'Always') errs.push(notSupported(tp.child('spec', 'restartPolicy'), rp, ['Always']));
  if (num(podSpec.activeDeadlineSeconds) !== undefined) {
    errs.push(
      forbidden(tp.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`),
    );
  }
  return errs;
}

/** The bad value of an invalid DeploymentStrategy (apps.DeploymentStrategy, printed with %#v). */
function deploymentStrategyValue(s: Obj): GoLiteral {
  return new GoLiteral(
    `apps.DeploymentStrategy{Type:${goQuote(str(s.type))}, RollingUpdate:${goPointer('apps.RollingUpdateDeployment', s.rollingUpdate)}}`,
  );
}

/** ValidateDeploymentStrategy (type defaults to RollingUpdate, its rollingUpdate to 25%/25%). */
function validateDeploymentStrategy(raw: unknown, path: FieldPath): ErrorList {
  const s = obj(raw);
  const type = str(s.type) || 'RollingUpdate';
  switch (type) {
    case 'Recreate':
      return isObj(s.rollingUpdate)
        ? [forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    case 'RollingUpdate': {
      const ru = obj(s.rollingUpdate);
      const p = path.child('rollingUpdate');
      const maxUnavailable = intOrString(ru.maxUnavailable ?? '25%');
      const maxSurge = intOrString(ru.maxSurge ?? '25%');
      const errs = [
        ...validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable')),
        ...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')),
      ];
      if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
        errs.push(
          invalid(p.child('maxUnavailable'), intOrStringValue(maxUnavailable), 'may not be 0 when `maxSurge` is 0'),
        );
      }
      errs.push(...isNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')));
      return errs;
    }
    default:
      return [notSupported(path, deploymentStrategyValue({ ...s, type }), ['Recreate', 'RollingUpdate'])];
  }
}

/** ValidateDeploymentSpec (replicas defaults to 1, progressDeadlineSeconds to 600). */
function validateDeploymentSpec(spec: Obj, path: FieldPath): ErrorList {
  const errs = nonNegative(num(spec.replicas) ?? 1, path.child('replicas'));
  errs.push(...validateWorkloadSelector(spec, 'deployment', path));
  // ValidatePodTemplateSpecForReplicaSet names the ReplicaSet for Deployments too.
  errs.push(...validateTemplateForReplicaSet(spec, 'ReplicaSet', path));
  errs.push(...validateDeploymentStrategy(spec.strategy, path.child('strategy')));
  const minReady = num(spec.minReadySeconds) ?? 0;
  errs.push(...nonNegative(minReady, path.child('minReadySeconds')));
  errs.push(...nonNegative(num(spec.revisionHistoryLimit), path.child('revisionHistoryLimit')));
  const pds = spec.progressDeadlineSeconds === undefined ? 600 : num(spec.progressDeadlineSeconds);
  if (pds !== undefined) {
    errs.push(...nonNegative(pds, path.child('progressDeadlineSeconds')));
    if (pds <= minReady)
      errs.push(invalid(path.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** ValidateDeployment (spec part). */
export function validateDeployment(d: KubeObject): ErrorList {
  return validateDeploymentSpec(specOf(d), SPEC);
}

/** ValidateDeploymentUpdate + the apps/v1 selector immutability. */
export function validateDeploymentUpdate(d: KubeObject, old: KubeObject): ErrorList {
  return [...validateDeployment(d), ...selectorImmutable(d, old)];
}

function selectorImmutable(n: KubeObject, o: KubeObject): ErrorList {
  const ns = selectorOf(specOf(n));
  const os = selectorOf(specOf(o));
  if (jsonEqual(ns, os)) return [];
  return validateImmutableField(labelSelectorValue(ns), labelSelectorValue(os), SPEC.child('selector'));
}

/** ValidateReplicaSetSpec (replicas defaults to 1). */
export function validateReplicaSet(rs: KubeObject): ErrorList {
  const spec = specOf(rs);
  const errs = nonNegative(num(spec.replicas) ?? 1, SPEC.child('replicas'));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  // Kubernetes' message says "deployment" for ReplicaSets too.
  errs.push(...validateWorkloadSelector(spec, 'deployment', SPEC));
  errs.push(...validateTemplateForReplicaSet(spec, 'ReplicaSet', SPEC));
  return errs;
}

/** The replicaset strategy's ValidateUpdate: the object twice (create and update checks), selector immutable. */
export function validateReplicaSetUpdate(rs: KubeObject, old: KubeObject): ErrorList {
  return [...validateReplicaSet(rs), ...validateReplicaSet(rs), ...selectorImmutable(rs, old)];
}

/** ValidateDaemonSetUpdateStrategy (type defaults to RollingUpdate with maxUnavailable 1, maxSurge 0). */
function validateDaemonSetUpdateStrategy(raw: unknown, path: FieldPath): ErrorList {
  const s = obj(raw);
  const type = str(s.type) || 'RollingUpdate';
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate') {
    return [
      notSupported(
        path,
        new GoLiteral(
          `apps.DaemonSetUpdateStrategy{Type:${goQuote(type)}, RollingUpdate:${goPointer('apps.RollingUpdateDaemonSet', s.rollingUpdate)}}`,
        ),
        ['RollingUpdate', 'OnDelete'],
      ),
    ];
  }
  const ru = obj(s.rollingUpdate);
  const p = path.child('rollingUpdate');
  const maxUnavailable = intOrString(ru.maxUnavailable ?? 1);
  const maxSurge = intOrString(ru.maxSurge ?? 0);
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')),
    ...isNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')),
    ...isNotMoreThan100Percent(maxSurge, p.child('maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(
      invalid(p.child('maxSurge'), intOrStringValue(maxSurge), 'may not be set when maxUnavailable is non-zero'),
    );
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(p.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

/** ValidateDaemonSetSpec. */
export function validateDaemonSet(ds: KubeObject): ErrorList {
  const spec = specOf(ds);
  const sel = selectorOf(spec);
  const errs = validateLabelSelector(sel, {}, SPEC.child('selector'));
  // LabelSelectorAsSelector(nil) is Nothing(): it matches no labels, so a missing selector fails here.
  errs.push(...selectorMismatch(spec, SPEC, false));
  if (sel !== undefined && Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    errs.push(invalid(SPEC.child('selector'), labelSelectorValue(sel), 'empty selector is invalid for daemonset'));
  }
  const template = obj(spec.template);
  errs.push(...validatePodTemplateSpec(template, SPEC.child('template')));
  errs.push(...alwaysRestart(template, 'DaemonSet', SPEC.child('template')));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  errs.push(...nonNegative(templateGeneration(ds), SPEC.child('templateGeneration')));
  errs.push(...validateDaemonSetUpdateStrategy(spec.updateStrategy, SPEC.child('updateStrategy')));
  errs.push(...nonNegative(num(spec.revisionHistoryLimit), SPEC.child('revisionHistoryLimit')));
  return errs;
}

/** The deprecated.daemonset.template.generation annotation (DaemonSetSpec.TemplateGeneration in v1). */
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

function templateGeneration(ds: KubeObject): number {
  const n = Number.parseInt(ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
}

/** ValidateDaemonSetSpecUpdate: the template generation moves with the template. */
function validateDaemonSetSpecUpdate(ds: KubeObject, old: KubeObject): ErrorList {
  const n = templateGeneration(ds);
  const o = templateGeneration(old);
  const p = SPEC.child('templateGeneration');
  const errs: ErrorList = [];
  if (n < o) errs.push(invalid(p, n, 'must not be decremented'));
  const templateUpdated = !jsonEqual(specOf(ds).template, specOf(old).template);
  if (n === o && templateUpdated) errs.push(invalid(p, n, 'must be incremented upon template update'));
  else if (n > o && !templateUpdated) errs.push(invalid(p, n, 'must not be incremented without template update'));
  return errs;
}

/** The daemonset strategy's ValidateUpdate: the object, ValidateDaemonSetUpdate, selector immutability. */
export function validateDaemonSetUpdate(ds: KubeObject, old: KubeObject): ErrorList {
  return [
    ...validateDaemonSet(ds),
    ...validateDaemonSetSpecUpdate(ds, old),
    ...validateDaemonSet(ds),
    ...selectorImmutable(ds, old),
  ];
}

/** ValidatePersistentVolumeClaimRetentionPolicyType. */
function retentionPolicyType(v: unknown, path: FieldPath): ErrorList {
  const s = str(v) || 'Retain';
  return s === 'Retain' || s === 'Delete' ? [] : [notSupported(path, s, ['Retain', 'Delete'])];
}

/**
 * ValidateStatefulSetSpec (podManagementPolicy defaults to OrderedReady, updateStrategy to
 * RollingUpdate with partition 0). Kubernetes does not validate the pod spec of a StatefulSet's
 * template, only its labels and annotations.
 */
function validateStatefulSetSpec(spec: Obj): ErrorList {
  const errs: ErrorList = [];
  const pmp = str(spec.podManagementPolicy) || 'OrderedReady';
  if (pmp !== 'OrderedReady' && pmp !== 'Parallel') {
    errs.push(invalid(SPEC.child('podManagementPolicy'), pmp, "must be 'OrderedReady' or 'Parallel'"));
  }
  const us = obj(spec.updateStrategy);
  const usType = str(us.type) || 'RollingUpdate';
  const usPath = SPEC.child('updateStrategy');
  if (usType === 'OnDelete') {
    if (isObj(us.rollingUpdate)) {
      errs.push(
        invalid(
          usPath.child('rollingUpdate'),
          new GoLiteral(
            `apps.RollingUpdateStatefulSetStrategy{Partition:${num(us.rollingUpdate.partition) ?? 0}, MaxUnavailable:${goPointer('intstr.IntOrString', us.rollingUpdate.maxUnavailable)}}`,
          ),
          "only allowed for updateStrategy 'RollingUpdate'",
        ),
      );
    }
  } else if (usType === 'RollingUpdate') {
    if (isObj(us.rollingUpdate)) {
      const ru = us.rollingUpdate;
      const p = usPath.child('rollingUpdate');
      errs.push(...nonNegative(num(ru.partition) ?? 0, p.child('partition')));
      if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
        const mu = intOrString(ru.maxUnavailable);
        errs.push(...validatePositiveIntOrPercent(mu, p.child('maxUnavailable')));
        if (intOrPercentValue(mu) === 0)
          errs.push(invalid(p.child('maxUnavailable'), intOrStringValue(mu), 'cannot be 0'));
        errs.push(...isNotMoreThan100Percent(mu, p.child('maxUnavailable')));
      }
    }
  } else {
    errs.push(
      invalid(
        usPath,
        new GoLiteral(
          `apps.StatefulSetUpdateStrategy{Type:${goQuote(usType)}, RollingUpdate:${goPointer('apps.RollingUpdateStatefulSetStrategy', us.rollingUpdate)}}`,
        ),
        "must be 'RollingUpdate' or 'OnDelete'",
      ),
    );
  }
  if (isObj(spec.persistentVolumeClaimRetentionPolicy)) {
    const p = SPEC.child('persistentVolumeClaimRetentionPolicy');
    errs.push(...retentionPolicyType(spec.persistentVolumeClaimRetentionPolicy.whenDeleted, p.child('whenDeleted')));
    errs.push(...retentionPolicyType(spec.persistentVolumeClaimRetentionPolicy.whenScaled, p.child('whenScaled')));
  }
  errs.push(...nonNegative(num(spec.replicas) ?? 1, SPEC.child('replicas')));
  errs.push(...nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds')));
  if (isObj(spec.ordinals)) errs.push(...nonNegative(num(spec.ordinals.start) ?? 0, SPEC.child('ordinals.start')));
  errs.push(...validateWorkloadSelector(spec, 'statefulset', SPEC));
  const template = obj(spec.template);
  const tp = SPEC.child('template');
  if (asSelector(selectorOf(spec)) === undefined) {
    errs.push(invalid(SPEC.child('selector'), labelSelectorValue(selectorOf(spec)), ''));
  } else {
    errs.push(...selectorMismatch(spec, SPEC, true));
    const meta = obj(template.metadata);
    errs.push(...validateLabels(strMap(meta.labels), tp.child('labels')));
    errs.push(...validateAnnotations(strMap(meta.annotations), tp.child('annotations')));
  }
  errs.push(...alwaysRestart(template, 'StatefulSet', tp));
  return errs;
}

/** ValidateStatefulSet (spec part). */
export function validateStatefulSet(sts: KubeObject): ErrorList {
  return validateStatefulSetSpec(specOf(sts));
}

/** Fields of a StatefulSet spec that may change (ValidateStatefulSetUpdate). */
const STS_MUTABLE = [
  'replicas',
  'template',
  'updateStrategy',
  'minReadySeconds',
  'ordinals',
  'persistentVolumeClaimRetentionPolicy',
];

/** ValidateStatefulSetUpdate. */
export function validateStatefulSetUpdate(sts: KubeObject, old: KubeObject): ErrorList {
  const errs = validateStatefulSet(sts);
  const n = { ...specOf(sts) };
  const o = { ...specOf(old) };
  for (const f of STS_MUTABLE) {
    delete n[f];
    delete o[f];
  }
  // serviceName and podManagementPolicy are defaulted ('' and OrderedReady) before the comparison.
  n.podManagementPolicy = str(n.podManagementPolicy) || 'OrderedReady';
  o.podManagementPolicy = str(o.podManagementPolicy) || 'OrderedReady';
  if (!jsonEqual(n, o)) {
    errs.push(
      forbidden(
        SPEC,
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}
