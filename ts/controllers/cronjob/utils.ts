/**
 * The CronJob controller's helpers (pkg/controller/cronjob/utils.go at v1.32, with getJobName and
 * formatSchedule of cronjob_controllerv2.go): the active list, the most recent missed schedule
 * time and the requeue delay, the Job made from the template.
 *
 *   const sched = parseStandard(formatSchedule(cj));
 *   const { mostRecentTime } = mostRecentScheduleTime(cj, now, sched, true);
 *   const job = getJobFromTemplate2(cj, scheduledTime);   // `<cronjob>-<minutes since epoch>`
 *
 * Times are ms since the epoch; metav1.Times are RFC 3339 strings.
 */

import type { Schedule } from '../../api/cron/spec.js';
import { GO_ZERO_TIME_MS, isKnownTimeZone, unknownTimeZoneError, zoneOffsetMs } from '../../api/cron/zone.js';
import { goQuote } from '../../api/go-format.js';
import type { OwnerReference } from '../../api/meta.js';
import type { CronJob, Job, JobSpec } from '../../api/types/batch/v1.js';
import type { ObjectReference } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { EventType } from '../../client/event-recorder.js';
import { timeMs } from '../job/job-util.js';

export type ReadonlyCronJob = DeepReadonly<CronJob>;
type ReadonlyJob = DeepReadonly<Job>;

// cronjob_controllerv2.go nextScheduleDelta: the padding of every requeue at a schedule time,
// against NTP skew.
export const NEXT_SCHEDULE_DELTA_MS = 100;
// utils.go mostRecentScheduleTime: more missed start times than this are "many" (manyMissed).
export const MAX_MISSED_SCHEDULES = 100;
// k8s.io/api/batch/v1/types.go CronJobScheduledTimestampAnnotation.
export const CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
// utils.go nextScheduleTime: the Warning when more than 100 start times were missed.
export const TOO_MANY_MISSED_TIMES_REASON = 'TooManyMissedTimes';
export const TOO_MANY_MISSED_TIMES_MESSAGE =
  'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew';

/** The Events recorder the helpers write through (record.EventRecorder's Eventf). */
export interface CronJobEventSink {
  record(obj: DeepReadonly<CronJob>, type: EventType, reason: string, message: string): void;
}

/** utils.go missedSchedulesType. */
export type MissedSchedules = 'none' | 'few' | 'many';

/** inActiveList: status.active has a job of this UID. */
export function inActiveList(cj: ReadonlyCronJob, uid: string | undefined): boolean {
  return (cj.status?.active ?? []).some((j) => j.uid === uid);
}

/** inActiveListByName: status.active has a job of this name and namespace. */
export function inActiveListByName(cj: ReadonlyCronJob, job: { name: string; namespace: string | undefined }): boolean {
  return (cj.status?.active ?? []).some((j) => j.name === job.name && j.namespace === job.namespace);
}

/** deleteFromActiveList: the jobs of this UID dropped from status.active (an empty list stays). */
export function deleteFromActiveList(cj: CronJob, uid: string | undefined): void {
  cj.status ??= {};
  cj.status.active = (cj.status.active ?? []).filter((j) => j.uid !== uid);
}

export interface MostRecentScheduleTime {
  /** The last schedule time, the creation time, or now - startingDeadlineSeconds. */
  earliestTime: number;
  /** The most recent time a Job should have been created, if that is not after now. */
  mostRecentTime: number | undefined;
  missed: MissedSchedules;
  /** A schedule that parses but never runs twice a second apart (`59 23 31 2 *`). */
  error: Error | undefined;
}

/** time.Duration.Round(time.Second) in whole seconds: halves away from zero. */
function roundSeconds(ms: number): number {
  return Math.sign(ms) * Math.round(Math.abs(ms) / 1000);
}

/**
 * utils.go mostRecentScheduleTime: from the last schedule time (or the creation time; with
 * `includeStartingDeadlineSeconds`, no earlier than now - startingDeadlineSeconds) the most recent
 * schedule time up to now, and whether none, a few or many (> 100) were missed.
 */
export function mostRecentScheduleTime(
  cj: ReadonlyCronJob,
  now: number,
  schedule: Schedule,
  includeStartingDeadlineSeconds: boolean,
): MostRecentScheduleTime {
  // No creationTimestamp (only in tests): Go's zero time.
  let earliestTime = timeMs(cj.metadata?.creationTimestamp) ?? GO_ZERO_TIME_MS;
  let missed: MissedSchedules = 'none';
  const last = timeMs(cj.status?.lastScheduleTime);
  if (last !== undefined) earliestTime = last;
  const sds = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && sds !== undefined && sds !== null) {
    // The controller schedules nothing before this point.
    const schedulingDeadline = now - sds * 1000;
    if (schedulingDeadline > earliestTime) earliestTime = schedulingDeadline;
  }
  const t1 = schedule.next(earliestTime);
  const t2 = schedule.next(t1);
  if (now < t1) return { earliestTime, mostRecentTime: undefined, missed, error: undefined };
  if (now < t2) return { earliestTime, mostRecentTime: t1, missed, error: undefined };

  // A schedule that parses but cannot run (`59 23 31 2 *`): both Next are the zero time.
  const timeBetweenTwoSchedules = roundSeconds(t2 - t1);
  if (timeBetweenTwoSchedules < 1) {
    return {
      earliestTime,
      mostRecentTime: undefined,
      missed,
      error: new Error('time difference between two schedules is less than 1 second'),
    };
  }
  // A rough count: how many intervals of the first two schedules fit between t1 and now.
  const timeElapsed = Math.trunc((now - t1) / 1000);
  const numberOfMissedSchedules = Math.trunc(timeElapsed / timeBetweenTwoSchedules) + 1;
  // One interval further back than the count, so that irregular schedules (`30 6-16/4 * * 1-5`)
  // and @every find their most recent time through Next.
  const potentialEarliest = t1 + (numberOfMissedSchedules - 1 - 1) * timeBetweenTwoSchedules * 1000;
  let mostRecentTime: number | undefined;
  for (let t = schedule.next(potentialEarliest); t <= now; t = schedule.next(t)) mostRecentTime = t;

  if (numberOfMissedSchedules > MAX_MISSED_SCHEDULES) missed = 'many';
  else if (numberOfMissedSchedules > 0) missed = 'few';
  return { earliestTime, mostRecentTime, missed, error: undefined };
}

/**
 * utils.go nextScheduleTimeDuration: the delay to the schedule time after the most recent one
 * (after now when some were missed, or when the schedule is rogue), plus nextScheduleDelta.
 */
export function nextScheduleTimeDuration(cj: ReadonlyCronJob, now: number, schedule: Schedule): number {
  const r = mostRecentScheduleTime(cj, now, schedule, false);
  let mostRecentTime: number;
  if (r.error !== undefined) mostRecentTime = now;
  else if (r.mostRecentTime === undefined) mostRecentTime = r.missed === 'none' ? r.earliestTime : now;
  else mostRecentTime = r.mostRecentTime;
  return schedule.next(mostRecentTime) + NEXT_SCHEDULE_DELTA_MS - now;
}

/**
 * utils.go nextScheduleTime: the unmet schedule time to start now (the most recent one only), or
 * undefined; the TooManyMissedTimes Warning when more than 100 were missed.
 */
export function nextScheduleTime(
  cj: ReadonlyCronJob,
  now: number,
  schedule: Schedule,
  recorder: CronJobEventSink,
): { time: number | undefined; error: Error | undefined } {
  const r = mostRecentScheduleTime(cj, now, schedule, true);
  if (r.mostRecentTime === undefined || r.mostRecentTime > now) return { time: undefined, error: r.error };
  if (r.missed === 'many') recorder.record(cj, 'Warning', TOO_MANY_MISSED_TIMES_REASON, TOO_MANY_MISSED_TIMES_MESSAGE);
  return { time: r.mostRecentTime, error: r.error };
}

/** getTimeHashInMinutes: Unix time in minutes. */
export function getTimeHashInMinutes(scheduledTime: number): number {
  return Math.trunc(Math.trunc(scheduledTime / 1000) / 60);
}

/** cronjob_controllerv2.go getJobName: `<cronjob>-<scheduled time in minutes since epoch>`. */
export function getJobName(cj: ReadonlyCronJob, scheduledTime: number): string {
  return `${cj.metadata?.name ?? ''}-${getTimeHashInMinutes(scheduledTime)}`;
}

const pad = (n: number, w = 2): string => String(Math.abs(n)).padStart(w, '0');

/** time.RFC3339 of `ms` in `zone`: `2016-05-19T12:00:00+02:00`, `Z` for a zero offset. */
export function formatRFC3339In(ms: number, zone: string): string {
  const offset = zoneOffsetMs(zone, ms);
  const d = new Date(ms + offset);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const minutes = Math.trunc(offset / 60000);
  const zoneText =
    minutes === 0 ? 'Z' : `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(minutes % 60)}`;
  return `${date}T${time}${zoneText}`;
}

/** metav1.Time's RFC 3339 in UTC, seconds only. */
export function metaTime(ms: number): string {
  return formatRFC3339In(Math.floor(ms / 1000) * 1000, 'UTC');
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** t.UTC().Format(time.RFC1123Z): `Thu, 19 May 2016 10:00:00 +0000`. */
export function formatRFC1123ZUTC(ms: number): string {
  const d = new Date(ms);
  return (
    `${WEEKDAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`
  );
}

/** metav1.NewControllerRef(cj, batch/v1 CronJob). */
export function cronJobControllerRef(cj: ReadonlyCronJob): OwnerReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    name: cj.metadata?.name ?? '',
    uid: cj.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * utils.go getJobFromTemplate2: the Job of the template for `scheduledTime` — its labels and
 * annotations, the deterministic name, the scheduled-timestamp annotation in spec.timeZone (the
 * CronJobsScheduledAnnotation gate, beta and on in 1.32), the ControllerRef. An unknown zone is
 * time.LoadLocation's error.
 */
export function getJobFromTemplate2(cj: ReadonlyCronJob, scheduledTime: number): Job | Error {
  const template = cj.spec?.jobTemplate;
  const labels: Record<string, string> = { ...(template?.metadata?.labels ?? {}) };
  const annotations: Record<string, string> = { ...(template?.metadata?.annotations ?? {}) };
  const zone = cj.spec?.timeZone ?? '';
  if (!isKnownTimeZone(zone)) return new Error(unknownTimeZoneError(zone));
  annotations[CRON_JOB_SCHEDULED_TIMESTAMP_ANNOTATION] = formatRFC3339In(scheduledTime, zone);
  const job: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      labels,
      annotations,
      name: getJobName(cj, scheduledTime),
      creationTimestamp: metaTime(scheduledTime),
      ownerReferences: [cronJobControllerRef(cj)],
    },
    spec: structuredClone(template?.spec ?? { template: {} }) as JobSpec,
  };
  return job;
}

/** utils.go byJobStartTime: started before unstarted, earlier first, then by name. */
export function byJobStartTime(a: ReadonlyJob, b: ReadonlyJob): number {
  const sa = timeMs(a.status?.startTime);
  const sb = timeMs(b.status?.startTime);
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa === sb) {
    const na = a.metadata?.name ?? '';
    const nb = b.metadata?.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  return (sa ?? 0) - (sb ?? 0);
}

/** The Warning formatSchedule records for a TZ in spec.schedule. */
export function unsupportedScheduleMessage(schedule: string): string {
  return `CRON_TZ or TZ used in schedule ${goQuote(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`;
}

/**
 * cronjob_controllerv2.go formatSchedule: spec.schedule as it is when it names a TZ itself (with
 * the UnsupportedSchedule Warning when a recorder is given), else `TZ=<spec.timeZone> ` before it
 * when the zone loads.
 */
export function formatSchedule(cj: ReadonlyCronJob, recorder?: CronJobEventSink): string {
  const schedule = cj.spec?.schedule ?? '';
  if (schedule.includes('TZ')) {
    recorder?.record(cj, 'Warning', 'UnsupportedSchedule', unsupportedScheduleMessage(schedule));
    return schedule;
  }
  const tz = cj.spec?.timeZone;
  if (tz !== undefined && tz !== null) {
    if (!isKnownTimeZone(tz)) return schedule;
    return `TZ=${tz} ${schedule}`;
  }
  return schedule;
}

/** ref.GetReference of a created Job: what status.active holds. */
export function jobReference(job: ReadonlyJob): ObjectReference {
  const ref: ObjectReference = {
    kind: 'Job',
    namespace: job.metadata?.namespace ?? '',
    name: job.metadata?.name ?? '',
    uid: job.metadata?.uid ?? '',
    apiVersion: 'batch/v1',
  };
  if (job.metadata?.resourceVersion !== undefined) ref.resourceVersion = job.metadata.resourceVersion;
  return ref;
}
