/**
 * batch/v1 Job and CronJob (k8s.io/kubernetes pkg/apis/batch/validation/validation.go v1.32:
 * ValidateJob, ValidateJobUpdate, ValidateCronJobCreate, ValidateCronJobUpdate).
 *
 * The job strategy has generated a Job's selector and template labels before validation
 * (pkg/registry/batch/job/strategy.go generateSelector), as in Kubernetes.
 */
import { type ErrorList, FieldPath, invalid, notSupported, required, tooLong } from '../../field-errors.js';
import { GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject, LabelSelector } from '../../meta.js';
import { isDomainPrefixedPath } from '../formats.js';
import { validateLabelSelector } from '../labels.js';
import { isDNS1123Label } from '../names.js';
import { validateImmutableField } from '../object-meta.js';
import { isKnownTimeZone, parseStandardCron } from './cron.js';
import { validatePodTemplateSpec } from './pod.js';
import { asSelector } from './selector.js';
import {
  isObj,
  jsonEqual,
  labelSelectorValue,
  labelsValue,
  nameOf,
  nonNegative,
  num,
  type Obj,
  obj,
  str,
  strMap,
} from './util.js';

// validation.go constants.
const MAX_PARALLELISM_FOR_INDEXED_JOB = 100000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_MANAGED_BY_LENGTH = 63;
/** DNS1035LabelMaxLength - 11: room for the `-<timestamp>` suffix of the jobs a CronJob creates. */
const MAX_CRONJOB_NAME_LENGTH = 52;
/** validTimeZoneCharacters. */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

const SPEC = FieldPath.root('spec');

/** validateJobSpec: counts, completion mode, the template and its restart policy. */
function validateJobSpecCommon(spec: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const parallelism = num(spec.parallelism);
  const completions = num(spec.completions);
  const backoffLimitPerIndex = num(spec.backoffLimitPerIndex);
  const maxFailedIndexes = num(spec.maxFailedIndexes);
  errs.push(...nonNegative(parallelism, path.child('parallelism')));
  errs.push(...nonNegative(completions, path.child('completions')));
  errs.push(...nonNegative(num(spec.activeDeadlineSeconds), path.child('activeDeadlineSeconds')));
  errs.push(...nonNegative(num(spec.backoffLimit), path.child('backoffLimit')));
  errs.push(...nonNegative(num(spec.ttlSecondsAfterFinished), path.child('ttlSecondsAfterFinished')));
  errs.push(...nonNegative(backoffLimitPerIndex, path.child('backoffLimitPerIndex')));
  if (maxFailedIndexes !== undefined) {
    errs.push(...nonNegative(maxFailedIndexes, path.child('maxFailedIndexes')));
    if (backoffLimitPerIndex === undefined) {
      errs.push(required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
    }
  }
  if (typeof spec.managedBy === 'string') {
    errs.push(...isDomainPrefixedPath(path.child('managedBy'), spec.managedBy));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH)
      errs.push(tooLong(path.child('managedBy'), MAX_MANAGED_BY_LENGTH));
  }
  const mode = typeof spec.completionMode === 'string' ? spec.completionMode : undefined;
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') {
      errs.push(notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    }
    if (mode === 'Indexed') {
      if (completions === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        errs.push(
          invalid(
            path.child('parallelism'),
            parallelism,
            `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`,
          ),
        );
      }
      if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions) {
        errs.push(
          invalid(path.child('maxFailedIndexes'), maxFailedIndexes, 'must be less than or equal to completions'),
        );
      }
      if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
        errs.push(
          invalid(
            path.child('maxFailedIndexes'),
            maxFailedIndexes,
            `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`,
          ),
        );
      }
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && backoffLimitPerIndex !== undefined) {
        if (maxFailedIndexes === undefined) {
          errs.push(
            required(
              path.child('maxFailedIndexes'),
              `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`,
            ),
          );
        }
        const suffix = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(
            invalid(
              path.child('parallelism'),
              parallelism,
              `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${suffix}`,
            ),
          );
        }
        if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(
            invalid(
              path.child('maxFailedIndexes'),
              maxFailedIndexes,
              `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${suffix}`,
            ),
          );
        }
      }
    }
  }
  if (mode === undefined || mode === 'NonIndexed') {
    if (backoffLimitPerIndex !== undefined) {
      errs.push(invalid(path.child('backoffLimitPerIndex'), backoffLimitPerIndex, 'requires indexed completion mode'));
    }
    if (maxFailedIndexes !== undefined) {
      errs.push(invalid(path.child('maxFailedIndexes'), maxFailedIndexes, 'requires indexed completion mode'));
    }
  }
  if (spec.podReplacementPolicy !== undefined && spec.podReplacementPolicy !== null) {
    // supportedPodReplacementPolicy (sorted); only Failed beside a podFailurePolicy.
    const prp = str(spec.podReplacementPolicy);
    const allowed = isObj(spec.podFailurePolicy) ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
    if (!allowed.includes(prp)) errs.push(notSupported(path.child('podReplacementPolicy'), prp, allowed));
  }
  const template = obj(spec.template);
  const tp = path.child('template');
  errs.push(...validatePodTemplateSpec(template, tp));
  // The template's restartPolicy defaults to Always, which a Job does not accept.
  const rp = str(obj(template.spec).restartPolicy);
  const rpPath = tp.child('spec', 'restartPolicy');
  if (rp === 'Always' || rp === '') {
    errs.push(required(rpPath, `valid values: ${goQuote('OnFailure')}, ${goQuote('Never')}`));
  } else if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(notSupported(rpPath, rp, ['OnFailure', 'Never']));
  } else if (isObj(spec.podFailurePolicy) && rp !== 'Never') {
    errs.push(invalid(rpPath, rp, `only ${goQuote('Never')} is supported when podFailurePolicy is specified`));
  }
  return errs;
}

const selectorOf = (spec: Obj): LabelSelector | undefined =>
  isObj(spec.selector) ? (spec.selector as LabelSelector) : undefined;

/** ValidateJobSpec: the common checks, then the selector (required) and its match with the template. */
function validateJobSpec(spec: Obj, path: FieldPath): ErrorList {
  const errs = validateJobSpecCommon(spec, path);
  const sel = selectorOf(spec);
  if (sel === undefined) errs.push(required(path.child('selector'), ''));
  else errs.push(...validateLabelSelector(sel, {}, path.child('selector')));
  const selector = asSelector(sel);
  const labels = strMap(obj(obj(spec.template).metadata).labels);
  if (selector !== undefined && !selector.matches(labels ?? {})) {
    errs.push(
      invalid(
        path.child('template', 'metadata', 'labels'),
        labelsValue(labels),
        '`selector` does not match template `labels`',
      ),
    );
  }
  return errs;
}

// batch/types.go: the labels generateSelector puts on a Job's template.
const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
const LEGACY_JOB_NAME_LABEL = 'job-name';
const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

/** ValidateHasLabel. */
function validateHasLabel(
  labels: Record<string, string> | undefined,
  path: FieldPath,
  key: string,
  expected: string,
): ErrorList {
  const p = path.child('labels').key(key);
  if (labels === undefined || !Object.hasOwn(labels, key)) return [required(p, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalid(p, labelsValue(labels), `must be '${expected}'`)];
}

/**
 * validateGeneratedSelector: unless manualSelector, the template carries the generated labels and
 * the selector matches them. The `batch.kubernetes.io/` labels are required on create and on
 * updates of jobs that had them (RequirePrefixedLabels).
 */
function validateGeneratedSelector(job: KubeObject, requirePrefixedLabels: boolean): ErrorList {
  const spec = obj((job as Obj).spec);
  const sel = selectorOf(spec);
  if (spec.manualSelector === true || sel === undefined) return [];
  const errs: ErrorList = [];
  const uid = job.metadata?.uid ?? '';
  const name = nameOf(job);
  if (uid === '') errs.push(required(FieldPath.root('metadata', 'uid'), ''));
  const labels = strMap(obj(obj(spec.template).metadata).labels);
  const tm = SPEC.child('template', 'metadata');
  errs.push(...validateHasLabel(labels, tm, LEGACY_CONTROLLER_UID_LABEL, uid));
  errs.push(...validateHasLabel(labels, tm, LEGACY_JOB_NAME_LABEL, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(labels, tm, CONTROLLER_UID_LABEL, uid));
    errs.push(...validateHasLabel(labels, tm, JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid;
  expected[LEGACY_JOB_NAME_LABEL] = name;
  const selector = asSelector(sel);
  if (selector !== undefined && !selector.matches(expected)) {
    errs.push(invalid(SPEC.child('selector'), labelSelectorValue(sel), '`selector` not auto-generated'));
  }
  return errs;
}

/**
 * SetDefaults_Job's counts: completions and parallelism 1 when both are unset, parallelism 1,
 * completionMode NonIndexed — which the immutability checks compare.
 */
function jobSpecDefaults(raw: unknown): Obj {
  const spec: Obj = { ...obj(raw) };
  if (num(spec.completions) === undefined && num(spec.parallelism) === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (num(spec.parallelism) === undefined) spec.parallelism = 1;
  if (typeof spec.completionMode !== 'string') spec.completionMode = 'NonIndexed';
  return spec;
}

/** ValidateJob (less ObjectMeta). */
export function validateJob(job: KubeObject, requirePrefixedLabels = true): ErrorList {
  const spec = jobSpecDefaults((job as Obj).spec);
  const errs = validateGeneratedSelector(job, requirePrefixedLabels);
  errs.push(...validateJobSpec(spec, SPEC));
  const completions = num(spec.completions);
  if (spec.completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    const hostname = `${nameOf(job)}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(
        invalid(
          FieldPath.root('metadata', 'name'),
          nameOf(job),
          `will not able to create pod with invalid DNS label: ${hostname}`,
        ),
      );
    }
  }
  return errs;
}

/** ValidateJobUpdate: the new spec, then the immutable fields (the template whole, completions unless Indexed). */
export function validateJobUpdate(job: KubeObject, old: KubeObject): ErrorList {
  const n = jobSpecDefaults((job as Obj).spec);
  const o = jobSpecDefaults((old as Obj).spec);
  const oldLabels = strMap(obj(obj(o.template).metadata).labels) ?? {};
  const prefixed = Object.hasOwn(oldLabels, JOB_NAME_LABEL) && Object.hasOwn(oldLabels, CONTROLLER_UID_LABEL);
  const errs = [...validateJob(job, prefixed), ...validateJobSpec(n, SPEC)];
  if (n.completionMode === 'Indexed') {
    if (!jsonEqual(n.completions, o.completions) && num(n.completions) !== undefined) {
      if (num(n.completions) !== num(n.parallelism)) {
        errs.push(
          invalid(
            SPEC.child('completions'),
            num(n.completions),
            'can only be modified in tandem with spec.parallelism',
          ),
        );
      }
    }
  } else {
    errs.push(...immutable(n.completions, o.completions, SPEC.child('completions')));
  }
  if (!jsonEqual(n.selector, o.selector)) {
    errs.push(...validateImmutableField(labelSelectorValue(selectorOf(n)), null, SPEC.child('selector')));
  }
  // AllowMutableSchedulingDirectives: only for a job that is suspended and never started.
  const mutable = o.suspend === true && obj((old as Obj).status).startTime === undefined;
  const same = mutable
    ? jsonEqual(withoutSchedulingDirectives(n.template), withoutSchedulingDirectives(o.template))
    : jsonEqual(n.template, o.template);
  if (!same) {
    errs.push(invalid(SPEC.child('template'), new GoLiteral(templateLiteral()), 'field is immutable'));
  }
  for (const f of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    errs.push(...immutable(n[f], o[f], SPEC.child(f)));
  }
  return errs;
}

function immutable(n: unknown, o: unknown, path: FieldPath): ErrorList {
  if (jsonEqual(n, o)) return [];
  return [invalid(path, isObj(n) ? new GoLiteral(JSON.stringify(n)) : (n ?? null), 'field is immutable')];
}

/** The template without what a suspended, never started job may change (validatePodTemplateUpdate). */
function withoutSchedulingDirectives(t: unknown): unknown {
  const template = structuredClone(obj(t));
  const meta = obj(template.metadata);
  delete meta.labels;
  delete meta.annotations;
  const spec = obj(template.spec);
  delete spec.nodeSelector;
  delete spec.tolerations;
  delete spec.schedulingGates;
  if (isObj(spec.affinity)) {
    delete spec.affinity.nodeAffinity;
    if (Object.keys(spec.affinity).length === 0) delete spec.affinity;
  }
  return { metadata: meta, spec };
}

/** Kubernetes prints the whole internal PodTemplateSpec here; its literal is not reproduced. */
function templateLiteral(): string {
  return 'core.PodTemplateSpec{…}';
}

/** validateTimeZone. */
function validateTimeZone(tz: unknown, path: FieldPath): ErrorList {
  if (typeof tz !== 'string') return [];
  if (tz.length === 0) return [invalid(path, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) {
      return [invalid(path, tz, `unknown time zone ${tz}`)];
    }
  }
  const errs: ErrorList = [];
  if (tz.toLowerCase() === 'local') {
    errs.push(
      invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'),
    );
  } else if (!isKnownTimeZone(tz)) {
    errs.push(invalid(path, tz, `unknown time zone ${tz}`));
  }
  return errs;
}

/** validateCronJobSpec (concurrencyPolicy defaults to Allow). */
function validateCronJobSpec(spec: Obj, oldSpec: Obj | undefined): ErrorList {
  const errs: ErrorList = [];
  const schedule = str(spec.schedule);
  const sp = SPEC.child('schedule');
  if (schedule.length === 0) {
    errs.push(required(sp, ''));
  } else {
    const allowTZ = oldSpec !== undefined && str(oldSpec.schedule).includes('TZ');
    const err = parseStandardCron(schedule);
    if (err !== undefined) errs.push(invalid(sp, schedule, err));
    if (allowTZ && schedule.includes('TZ') && typeof spec.timeZone === 'string') {
      errs.push(invalid(sp, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    } else if (!allowTZ && schedule.includes('TZ')) {
      errs.push(invalid(sp, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    }
  }
  errs.push(...nonNegative(num(spec.startingDeadlineSeconds), SPEC.child('startingDeadlineSeconds')));
  if (oldSpec === undefined || !jsonEqual(oldSpec.timeZone, spec.timeZone)) {
    errs.push(...validateTimeZone(spec.timeZone, SPEC.child('timeZone')));
  }
  const cp = str(spec.concurrencyPolicy) || 'Allow';
  if (!['Allow', 'Forbid', 'Replace'].includes(cp)) {
    errs.push(notSupported(SPEC.child('concurrencyPolicy'), cp, ['Allow', 'Forbid', 'Replace']));
  }
  // ValidateJobTemplateSpec.
  const jt = obj(spec.jobTemplate);
  const jtSpec = obj(jt.spec);
  const jtPath = SPEC.child('jobTemplate', 'spec');
  errs.push(...validateJobSpecCommon(jtSpec, jtPath));
  if (isObj(jtSpec.selector)) {
    errs.push(
      invalid(
        jtPath.child('selector'),
        labelSelectorValue(jtSpec.selector as LabelSelector),
        '`selector` will be auto-generated',
      ),
    );
  }
  if (jtSpec.manualSelector === true) {
    errs.push(notSupported(jtPath.child('manualSelector'), true, ['nil', 'false']));
  }
  errs.push(...nonNegative(num(spec.successfulJobsHistoryLimit), SPEC.child('successfulJobsHistoryLimit')));
  errs.push(...nonNegative(num(spec.failedJobsHistoryLimit), SPEC.child('failedJobsHistoryLimit')));
  return errs;
}

/** ValidateCronJobCreate (less ObjectMeta): the spec, and a name short enough for its jobs' names. */
export function validateCronJob(cj: KubeObject): ErrorList {
  const errs = validateCronJobSpec(obj((cj as Obj).spec), undefined);
  if (nameOf(cj).length > MAX_CRONJOB_NAME_LENGTH) {
    errs.push(invalid(FieldPath.root('metadata', 'name'), nameOf(cj), 'must be no more than 52 characters'));
  }
  return errs;
}

/** ValidateCronJobUpdate (less ObjectMeta): TZ in the schedule stays allowed if it was there. */
export function validateCronJobUpdate(cj: KubeObject, old: KubeObject): ErrorList {
  return validateCronJobSpec(obj((cj as Obj).spec), obj((old as Obj).spec));
}
