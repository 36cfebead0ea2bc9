/**
 * metadata.managedFields ↔ managers and their field sets (k8s.io/apimachinery pkg/util/managedfields/
 * internal/managedfields.go): manager identifiers (BuildManagerIdentifier: the entry without
 * fieldsType, fieldsV1 and time, and without apiVersion for appliers), decoding with its errors,
 * encoding sorted as sortEncodedManagedFields does, and the reset request (`[{}]`).
 */
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { FieldsV1Error, fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import type { ManagedFields } from './updater.js';

/** Decoded managed fields: the sets and each manager's time. */
export interface Managed {
  fields: ManagedFields;
  times: Map<string, string>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

/** The identity parts of an entry, in the Go struct's field order. */
interface ManagerInfo {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  subresource?: string;
}

/** BuildManagerIdentifier: the JSON of the entry's identity (`{"manager":"kubectl","operation":"Apply"}`). */
export function managerIdentifier(e: ManagerInfo): string {
  const id: ManagerInfo = {};
  if (e.manager) id.manager = e.manager;
  if (e.operation) id.operation = e.operation;
  if (e.apiVersion && e.operation !== 'Apply') id.apiVersion = e.apiVersion;
  if (e.subresource) id.subresource = e.subresource;
  return JSON.stringify(id);
}

const parsedIds = new Map<string, ManagerInfo>();

/** The identity parts of an identifier (the few distinct ones a server sees are kept parsed). */
export function parseManagerIdentifier(id: string): ManagerInfo {
  let info = parsedIds.get(id);
  if (info === undefined) {
    info = JSON.parse(id) as ManagerInfo;
    if (parsedIds.size > 1000) parsedIds.clear();
    parsedIds.set(id, info);
  }
  return info;
}

/** A managedFields list that did not decode (the text of DecodeManagedFields). */
export class ManagedFieldsDecodeError extends Error {}

/** DecodeManagedFields. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managed {
  const out = emptyManaged();
  if (!entries?.length) return out; // a create's: nothing to decode
  for (const [i, e] of entries.entries()) {
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    }
    if ((e.apiVersion ?? '') === '') throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    if ((e.fieldsType ?? '') === '')
      throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsDecodeError(`invalid fieldsType "${e.fieldsType}" in managed fields entry ${i}`);
    }
    const id = managerIdentifier(e);
    let set: ReturnType<typeof fromFieldsV1>;
    try {
      set = fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      if (err instanceof FieldsV1Error) {
        throw new ManagedFieldsDecodeError(`error decoding versioned set from ${JSON.stringify(e)}: ${err.message}`);
      }
      throw err;
    }
    out.fields.set(id, { set, apiVersion: e.apiVersion ?? '', applied: e.operation === 'Apply' });
    if (e.time !== undefined && e.time !== null) out.times.set(id, e.time);
  }
  return out;
}

/**
 * isResetManagedFields: `managedFields: [{}]` asks for them to be dropped. An empty list does not
 * ("setting the managedFields to an empty list will not reset the field … so managedFields never
 * get stripped by clients not aware of the field", Server-Side Apply docs: an empty list decodes
 * as none, so the stored ones are kept).
 */
export function isResetManagedFields(entries: readonly ManagedFieldsEntry[] | undefined | null): boolean {
  if (entries === undefined || entries === null) return false;
  return entries.length === 1 && Object.keys(entries[0] ?? {}).length === 0;
}

const unixSeconds = (t: string | undefined): number => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000));

/** encodeManagedFields + sortEncodedManagedFields: Apply before Update, then by time, manager, apiVersion, subresource. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (info.manager) e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : (info.operation ?? 'Update');
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(vs.set);
    if (info.subresource) e.subresource = info.subresource;
    out.push(e);
  }
  if (out.length === 1) return out;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  out.sort(
    (p, q) =>
      cmp(p.operation ?? '', q.operation ?? '') ||
      unixSeconds(p.time) - unixSeconds(q.time) ||
      cmp(p.manager ?? '', q.manager ?? '') ||
      cmp(p.apiVersion ?? '', q.apiVersion ?? '') ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
  return out;
}
