/**
 * capmanagers.go: at most 10 Update entries; the oldest are merged, per API version, into an
 * `ancient-changes` entry carrying the time of the newest update merged into it.
 */
import { type Managed, managerIdentifier } from './managed-fields.js';

/** DefaultMaxUpdateManagers (k8s.io/apimachinery pkg/util/managedfields/internal/capmanagers.go). */
export const MAX_UPDATE_MANAGERS = 10;
/** The bucket manager's name (fieldmanager.go NewDefaultFieldManager: "ancient-changes"). */
export const ANCIENT_CHANGES = 'ancient-changes';

const seconds = (t: string | undefined): number => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000));

export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort(
    (a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i] as string;
    const vs = managed.fields.get(manager);
    if (vs === undefined) continue;
    const time = managed.times.get(manager);
    const version = vs.apiVersion;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version });
    const first = firstOfVersion.get(version);
    if (first === undefined) {
      firstOfVersion.set(version, manager);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      const s = managed.fields.get(first);
      managed.fields.delete(first);
      if (s !== undefined) managed.fields.set(bucket, s);
    }
    const b = managed.fields.get(bucket);
    managed.fields.set(bucket, {
      set: b === undefined ? vs.set : vs.set.union(b.set),
      apiVersion: vs.apiVersion,
      applied: vs.applied,
    });
    managed.fields.delete(manager);
    managed.times.delete(manager);
    length--;
    if (time === undefined) managed.times.delete(bucket);
    else managed.times.set(bucket, time);
  }
}
