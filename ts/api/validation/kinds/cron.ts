/**
 * cron.ParseStandard from github.com/robfig/cron/v3 v3.0.1, as CronJob validation runs it on
 * `spec.schedule`: the error text of ts/api/cron's parser (the one the CronJob controller
 * schedules with), or undefined when the schedule parses.
 *
 *   const err = parseStandardCron(cj.spec.schedule);   // 'expected exactly 5 fields, found 3: [* * *]'
 */
import { parseStandard } from '../../cron/parser.js';

export { isKnownTimeZone } from '../../cron/zone.js';

/** cron.ParseStandard: undefined when valid, else robfig/cron's error text. */
export function parseStandardCron(spec: string): string | undefined {
  const sched = parseStandard(spec);
  return sched instanceof Error ? sched.message : undefined;
}
