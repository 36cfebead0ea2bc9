/**
 * The cron job defaults (pkg/apis/batch/v1/defaults.go SetDefaults_CronJob, v1.32): concurrency
 * Allow, not suspended, history limits 3 and 1, the pod template defaults in the job template.
 */
import { applyTemplateDefaults } from '../../core/pods/defaults.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

function defaultCronJob(o: Obj): void {
  const spec = child(o, 'spec');
  const jobTemplate = spec.jobTemplate;
  if (isObj(jobTemplate) && isObj(jobTemplate.spec)) applyTemplateDefaults(jobTemplate.spec);
  if (spec.concurrencyPolicy === undefined || spec.concurrencyPolicy === '') spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
}

export const cronJobStrategy: ResourceStrategy = { defaults: defaultCronJob };
