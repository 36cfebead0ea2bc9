/**
 * batch/v1: SetDefaults_Job and SetDefaults_CronJob (pkg/apis/batch/v1/defaults.go, v1.32, with
 * JobPodReplacementPolicy on as in a default 1.32 cluster) and the selector jobStrategy generates
 * on create (pkg/registry/batch/job/strategy.go generateSelector).
 */
import { applyTemplateDefaults } from '../core/pods/defaults.js';
import { child, children, isObj, type Obj } from '../objects.js';

/** math.MaxInt32: the backoffLimit when backoffLimitPerIndex is set. */
const MAX_INT32 = 2147483647;

export function defaultJob(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex == null ? 6 : MAX_INT32;
  // The job takes its template's labels when it has none; Go shares the map, so the selector
  // labels generateSelector adds to the template later show on the job too.
  const template = isObj(spec.template) ? spec.template : undefined;
  const templateMeta = template && isObj(template.metadata) ? template.metadata : undefined;
  const meta = child(o, 'metadata');
  if (templateMeta && isObj(templateMeta.labels) && (!isObj(meta.labels) || Object.keys(meta.labels).length === 0)) {
    meta.labels = templateMeta.labels;
  }
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  if (isObj(spec.podFailurePolicy)) {
    for (const rule of children(spec.podFailurePolicy, 'rules')) {
      for (const pattern of children(rule, 'onPodConditions')) {
        if (pattern.status === undefined || pattern.status === '') pattern.status = 'True';
      }
    }
  }
  spec.podReplacementPolicy ??= isObj(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
}

/** The labels generateSelector puts on the template: batch.LegacyJobNameLabel, JobNameLabel, … */
const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];

/** generateSelector, unless spec.manualSelector: job-name and controller-uid labels and selector. */
export function jobCreated(o: Obj): void {
  const spec = child(o, 'spec');
  if (spec.manualSelector === true) return;
  const meta = child(o, 'metadata');
  const templateMeta = child(child(spec, 'template'), 'metadata');
  const labels = child(templateMeta, 'labels');
  for (const key of JOB_NAME_LABELS) labels[key] ??= meta.name ?? '';
  for (const key of CONTROLLER_UID_LABELS) labels[key] ??= meta.uid ?? '';
  const matchLabels = child(child(spec, 'selector'), 'matchLabels');
  matchLabels['batch.kubernetes.io/controller-uid'] ??= meta.uid ?? '';
}

export function defaultCronJob(o: Obj): void {
  const spec = child(o, 'spec');
  const jobTemplate = spec.jobTemplate;
  if (isObj(jobTemplate) && isObj(jobTemplate.spec)) applyTemplateDefaults(jobTemplate.spec);
  if (spec.concurrencyPolicy === undefined || spec.concurrencyPolicy === '') spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
}
