/** batch/v1 printers (pkg/printers/internalversion/printers.go, v1.32): printJob, printCronJob. */
import {
  AGE,
  arr,
  boolPtr,
  col,
  formatLabelSelector,
  humanDuration,
  type Layout,
  num,
  type Obj,
  obj,
  since,
  str,
  templateColumns,
} from './column.js';

/** hasJobCondition: the first condition of the type decides. */
function hasCondition(o: Obj, type: string): boolean {
  const c = arr(obj(o.status).conditions)
    .map(obj)
    .find((x) => x.type === type);
  return c !== undefined && c.status === 'True';
}

function jobStatus(o: Obj): string {
  if (hasCondition(o, 'Complete')) return 'Complete';
  if (hasCondition(o, 'Failed')) return 'Failed';
  if (obj(o.metadata).deletionTimestamp) return 'Terminating';
  if (hasCondition(o, 'Suspended')) return 'Suspended';
  if (hasCondition(o, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function jobCompletions(o: Obj): string {
  const spec = obj(o.spec);
  const succeeded = num(obj(o.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(o: Obj, now: number): string {
  const status = obj(o.status);
  const start = Date.parse(str(status.startTime));
  if (Number.isNaN(start)) return '';
  const end = Date.parse(str(status.completionTime));
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

const jobPodSpec = (o: Obj): unknown => obj(obj(obj(o.spec).template).spec);
const jobTemplateSpec = (o: Obj): Obj => obj(obj(obj(o.spec).jobTemplate).spec);
const SELECTOR_DESCRIPTION = 'A label query over pods that should match the pod count.';

export const BATCH_LAYOUTS: Record<string, Layout> = {
  'batch/Job': [
    col('Status', 'string', 'Status of the job.', jobStatus),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded.', jobCompletions),
    col('Duration', 'string', 'Time required to complete the job.', jobDuration),
    AGE,
    ...templateColumns(jobPodSpec, {
      description: SELECTOR_DESCRIPTION,
      cell: (o) => formatLabelSelector(obj(o.spec).selector),
    }),
  ],
  'batch/CronJob': [
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.', (o) =>
      str(obj(o.spec).schedule),
    ),
    col(
      'Timezone',
      'string',
      'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.',
      (o) => {
        const tz = obj(o.spec).timeZone;
        return typeof tz === 'string' ? tz : '<none>';
      },
    ),
    col(
      'Suspend',
      'boolean',
      'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.',
      (o) => boolPtr(obj(o.spec).suspend),
    ),
    col('Active', 'integer', 'A list of pointers to currently running jobs.', (o) => arr(obj(o.status).active).length),
    col(
      'Last Schedule',
      'string',
      'Information when was the last time the job was successfully scheduled.',
      (o, now) => {
        const t = obj(o.status).lastScheduleTime;
        return typeof t === 'string' ? since(t, now) : '<none>';
      },
    ),
    AGE,
    ...templateColumns((o) => obj(obj(jobTemplateSpec(o).template).spec), {
      description: SELECTOR_DESCRIPTION,
      cell: (o) => formatLabelSelector(jobTemplateSpec(o).selector),
    }),
  ],
};
