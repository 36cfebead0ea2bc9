/**
 * core/v1 ReplicationController (k8s.io/kubernetes pkg/apis/core/validation/validation.go v1.32:
 * ValidateReplicationControllerSpec, ValidateNonEmptySelector, ValidatePodTemplateSpecForRC; the
 * status checks are ValidateReplicationControllerStatus, field for field the ReplicaSet's).
 *
 * The checks read the object as SetDefaults_ReplicationController leaves it — an empty selector is
 * the template's labels, replicas 1 — as the other kinds read their defaulted fields, so they give
 * Kubernetes' answer for an object whether or not it was defaulted first.
 */
import { type ErrorList, FieldPath, forbidden, invalid, notSupported, required } from '../../field-errors.js';
import type { KubeObject } from '../../meta.js';
import { restartPolicyOf, validatePodTemplateSpec } from './pod.js';
import { isObj, labelsValue, nonNegative, num, type Obj, obj, strMap } from './util.js';

const SPEC = FieldPath.root('spec');

/** SetDefaults_ReplicationController's selector: the template's labels when the selector is empty. */
function selectorOf(spec: Obj): Record<string, string> {
  const selector = strMap(spec.selector) ?? {};
  if (Object.keys(selector).length > 0) return selector;
  const labels = isObj(spec.template) ? strMap(obj(spec.template.metadata).labels) : undefined;
  return labels ?? selector;
}

/** labels.Set(selector).Matches(labels): every pair of the selector is on the labels. */
function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** ValidatePodTemplateSpecForRC: required; the selector matches its labels; restartPolicy Always. */
function validateTemplateForRC(spec: Obj, selector: Record<string, string>, path: FieldPath): ErrorList {
  if (!isObj(spec.template)) return [required(path, '')];
  const template = spec.template;
  const errs: ErrorList = [];
  const labels = strMap(obj(template.metadata).labels);
  if (Object.keys(selector).length > 0 && !matches(selector, labels ?? {})) {
    errs.push(
      invalid(path.child('metadata', 'labels'), labelsValue(labels), '`selector` does not match template `labels`'),
    );
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const podSpec = obj(template.spec);
  const restartPolicy = restartPolicyOf(podSpec);
  if (restartPolicy !== 'Always') {
    errs.push(notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  }
  if (num(podSpec.activeDeadlineSeconds) !== undefined) {
    errs.push(
      forbidden(
        path.child('spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    );
  }
  return errs;
}

/** ValidateReplicationControllerSpec (the spec part of ValidateReplicationController). */
export function validateReplicationController(rc: KubeObject): ErrorList {
  const spec = obj((rc as Obj).spec);
  const selector = selectorOf(spec);
  const errs = nonNegative(num(spec.minReadySeconds) ?? 0, SPEC.child('minReadySeconds'));
  // ValidateNonEmptySelector.
  if (Object.keys(selector).length === 0) errs.push(required(SPEC.child('selector'), ''));
  errs.push(...nonNegative(num(spec.replicas) ?? 1, SPEC.child('replicas')));
  errs.push(...validateTemplateForRC(spec, selector, SPEC.child('template')));
  return errs;
}

/**
 * rcStrategy.ValidateUpdate: ValidateReplicationController and ValidateReplicationControllerUpdate,
 * which check the new spec twice. The selector may change (unlike apps/v1's).
 */
export function validateReplicationControllerUpdate(rc: KubeObject): ErrorList {
  return [...validateReplicationController(rc), ...validateReplicationController(rc)];
}
