/**
 * The job strategy (pkg/registry/batch/job/strategy.go, v1.32): SetDefaults_Job
 * (pkg/apis/batch/v1/defaults.go, with JobPodReplacementPolicy on as in a default 1.32 cluster)
 * with the pod template's defaults, the selector generated on create (generateSelector), and
 * batch/v1's default garbage collection policy: dependents orphaned "for back compatibility".
 */
import { applyTemplateDefaults } from '../../core/pods/defaults.js';
import { startStatus } from '../../generic/default-strategy.js';
import { child, children, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

/** math.MaxInt32: the backoffLimit when backoffLimitPerIndex is set. */
const MAX_INT32 = 2147483647;

function defaultJob(o: Obj): void {
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
function jobCreated(o: Obj): void {
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

export const jobStrategy: ResourceStrategy = {
  defaults: defaultJob,
  prepareForCreate(obj, info) {
    startStatus(info, obj);
    jobCreated(obj as Obj);
  },
  // jobStrategy.DefaultGarbageCollectionPolicy: OrphanDependents for batch/v1, as requested through it.
  defaultGarbageCollectionPolicy: (info) => (info.version === 'v1' ? 'OrphanDependents' : 'DeleteDependents'),
};
