/**
 * The field manager of a write (k8s.io/apimachinery pkg/util/managedfields/internal: fieldmanager.go
 * and the managers it chains in NewDefaultFieldManager — lastappliedupdater, lastappliedmanager,
 * skipnonapplied, capmanagers, buildmanagerinfo, managedfieldsupdater, stripmeta, structuredmerge).
 *
 * `recordUpdate` is UpdateNoErrors: every create, update and non-apply patch records the writer's
 * changes as an `Update` entry. `applyConfiguration` is Apply: server-side apply.
 */
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { newBadRequest, newInternalError, StatusError } from '../../api/status.js';
import { capUpdateManagers } from './cap-managers.js';
import { newConflictError } from './conflicts.js';
import { createdFieldsV1 } from './created-fields.js';
import { FastPathRefused } from './direct-walk.js';
import { FieldSet } from './field-set.js';
import type { FieldsV1 } from './fields-v1.js';
import { TypedError } from './list-items.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  type Managed,
  ManagedFieldsDecodeError,
  managerIdentifier,
} from './managed-fields.js';
import { fieldElement, type Value } from './path.js';
import type { TypeNode } from './typed.js';
import { updatedFieldsV1 } from './updated-fields.js';
import { ConflictsError, Updater } from './updater.js';
import { compareValues, toFieldSet } from './walk.js';

type Obj = { [key: string]: Value };

/** What the field manager of one resource (and subresource) knows. */
export interface FieldManagerScope {
  /** The type of the kind at the request's version (typed.ts: built-in or a CRD's schema). */
  type: TypeNode;
  /** The request's group/version (`apps/v1`). */
  apiVersion: string;
  /** The kind served (`Deployment`). */
  kind: string;
  /** The type of another kind of the same group/version, if it has one (an apply body of that kind is typed as it). */
  typeOfKind?: (kind: string) => TypeNode | undefined;
  /** '' for the main resource, `status`, `scale`. */
  subresource: string;
  /** The strategy's reset fields (GetResetFields): never owned by writes of this scope. */
  resetFields: FieldSet;
  /** Go's zero object of the kind (scope.Creater.New): the live object of a create. */
  newObject: () => Readonly<Obj>;
}

/** stripmeta.go: the fields no manager owns. */
const STRIP = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

/** The manager name Kubernetes uses for updates whose owner is the object as it was before its first apply (skipnonapplied.go). */
const BEFORE_FIRST_APPLY = 'before-first-apply';
/** lastappliedmanager.go / lastappliedupdater.go: only kubectl's applies touch the client-side apply annotation. */
const KUBECTL = 'kubectl';
/** LastAppliedConfigAnnotation (k8s.io/api/core/v1 annotation_key_constants.go). */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

const metaOf = (o: Obj): Obj => {
  const m = o.metadata;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Obj) : {};
};

/** A shallow copy of `o` without metadata.managedFields (RemoveObjectManagedFields on a copy). */
function withoutManagedFields(o: Obj): Obj {
  const meta = { ...metaOf(o) };
  delete meta.managedFields;
  return { ...o, metadata: meta };
}

function managedFieldsOf(o: Obj): ManagedFieldsEntry[] | undefined {
  const mf = metaOf(o).managedFields;
  return Array.isArray(mf) ? (mf as ManagedFieldsEntry[]) : undefined;
}

function decodeOrEmpty(entries: ManagedFieldsEntry[] | undefined): Managed {
  try {
    return decodeManagedFields(entries);
  } catch (err) {
    if (err instanceof ManagedFieldsDecodeError) return emptyManaged();
    throw err;
  }
}

/** stripMetaManager.stripFields: `id`'s set without STRIP (in place: the set was just computed for it). */
function stripFields(managed: Managed, id: string): void {
  const vs = managed.fields.get(id);
  if (vs === undefined) return;
  vs.set.removeAll(STRIP);
  if (vs.set.empty()) managed.fields.delete(id);
}

/**
 * The one managedFields entry the general path would decode for this write (the sent ones, else the
 * live object's), when that is exactly one entry and `manager`'s own `Update` entry of this scope
 * that decodes: the case updated-fields.ts computes.
 */
function ownSoleEntry(
  scope: FieldManagerScope,
  liveObj: Obj,
  next: Obj,
  manager: string,
): (ManagedFieldsEntry & { fieldsV1: FieldsV1 }) | undefined {
  // withoutManagedFields(next) is `next` for the walk only when it has a metadata object.
  const metadata = next.metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return undefined;
  const sent = metadata.managedFields;
  let entries: unknown = managedFieldsOf(liveObj);
  if (scope.subresource === '' && sent !== undefined) {
    if (!Array.isArray(sent) || isResetManagedFields(sent as ManagedFieldsEntry[])) return undefined;
    if (sent.length > 0) entries = sent;
  }
  if (!Array.isArray(entries) || entries.length !== 1) return undefined;
  const e: unknown = entries[0];
  if (e === null || typeof e !== 'object') return undefined;
  const entry = e as ManagedFieldsEntry;
  const fieldsV1: unknown = entry.fieldsV1;
  const own =
    entry.manager === (manager || 'unknown') &&
    entry.operation === 'Update' &&
    scope.apiVersion !== '' &&
    entry.apiVersion === scope.apiVersion &&
    (entry.subresource ?? '') === scope.subresource &&
    entry.fieldsType === 'FieldsV1' &&
    fieldsV1 !== null &&
    typeof fieldsV1 === 'object' &&
    !Array.isArray(fieldsV1);
  return own ? (entry as ManagedFieldsEntry & { fieldsV1: FieldsV1 }) : undefined;
}

/**
 * recordUpdate of an object whose only entry is the writer's own (updated-fields.ts); false when it
 * cannot tell (then the general path runs, `next` untouched). Exported for updated-fields.test.ts.
 */
export function recordOwnUpdate(
  scope: FieldManagerScope,
  liveObj: Obj,
  next: Obj,
  manager: string,
  now: string,
): boolean {
  const own = ownSoleEntry(scope, liveObj, next, manager);
  if (own === undefined) return false;
  let result: ReturnType<typeof updatedFieldsV1>;
  try {
    const [l, n] = [withoutManagedFields(liveObj), withoutManagedFields(next)];
    result = updatedFieldsV1(l, n, scope.type, own.fieldsV1, scope.resetFields, STRIP);
  } catch (err) {
    if (err instanceof FastPathRefused || err instanceof TypedError) return false;
    throw err;
  }
  const meta = metaOf(next);
  delete meta.managedFields;
  if (result.fieldsV1 === undefined) return true; // it owns nothing any more: no entry
  const entry: ManagedFieldsEntry = {
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: scope.apiVersion,
  };
  const time = result.took ? now : own.time;
  if (time !== undefined && time !== null) entry.time = time;
  entry.fieldsType = 'FieldsV1';
  entry.fieldsV1 = result.fieldsV1;
  if (scope.subresource !== '') entry.subresource = scope.subresource;
  meta.managedFields = [entry] as unknown as Value[];
  return true;
}

/** managedFieldsUpdater + stripMeta + structuredMerge Update: `manager` takes what changed from `live` to `next` (exported for updated-fields.test.ts). */
export function updateManaged(
  scope: FieldManagerScope,
  live: Obj,
  next: Obj,
  managed: Managed,
  manager: string,
  now: string,
): Managed {
  const self = 'current-operation';
  const id = managerIdentifier({
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: scope.apiVersion,
    subresource: scope.subresource,
  });
  const updater = new Updater(scope.type, scope.resetFields);
  const fields = updater.updateFields(live, next, managed.fields, self, scope.apiVersion);
  const out: Managed = { fields, times: new Map(managed.times) };
  stripFields(out, self);
  const vs = out.fields.get(self);
  if (vs !== undefined) {
    out.fields.delete(self);
    const previous = out.fields.get(id);
    out.fields.set(id, previous === undefined ? vs : { ...vs, set: vs.set.union(previous.set) });
    out.times.set(id, now);
  }
  return out;
}

/**
 * FieldManager.UpdateNoErrors: sets `next.metadata.managedFields` for a create (`live` undefined)
 * or an update. A client may send managedFields to replace them (`[{}]` resets them, `[]` keeps them); ones
 * that do not decode, and subresource writes, keep the live object's.
 */
export function recordUpdate(
  scope: FieldManagerScope,
  live: Obj | undefined,
  next: Obj,
  manager: string,
  now: string,
): void {
  if (live !== undefined && recordOwnUpdate(scope, live, next, manager, now)) return;
  const liveObj = live ?? scope.newObject();
  const sent = managedFieldsOf(next);
  let managed: Managed;
  if (scope.subresource !== '') managed = decodeOrEmpty(managedFieldsOf(liveObj));
  else if (isResetManagedFields(metaOf(next).managedFields as ManagedFieldsEntry[] | undefined))
    managed = emptyManaged();
  else {
    try {
      managed = decodeManagedFields(sent);
      if (managed.fields.size === 0) managed = decodeOrEmpty(managedFieldsOf(liveObj));
    } catch (err) {
      if (!(err instanceof ManagedFieldsDecodeError)) throw err;
      managed = decodeOrEmpty(managedFieldsOf(liveObj));
    }
  }
  const meta = metaOf(next);
  delete meta.managedFields;
  // skipnonapplied.go: an existing object without managed fields stays without them.
  if (managed.fields.size === 0 && live !== undefined && (metaOf(live).uid ?? '') !== '') return;
  if (managed.fields.size === 0) {
    // A create: one entry, computed without field sets (created-fields.ts).
    try {
      const fieldsV1 = createdFieldsV1(withoutManagedFields(liveObj), next, scope.type, scope.resetFields, STRIP);
      if (fieldsV1 !== undefined) {
        const entry: ManagedFieldsEntry = {
          manager: manager || 'unknown',
          operation: 'Update',
          apiVersion: scope.apiVersion,
          time: now,
          fieldsType: 'FieldsV1',
          fieldsV1,
        };
        if (scope.subresource !== '') entry.subresource = scope.subresource;
        meta.managedFields = [entry] as unknown as Value[];
      }
      return;
    } catch (err) {
      if (!(err instanceof FastPathRefused || err instanceof TypedError)) throw err;
    }
  }
  try {
    managed = updateManaged(scope, withoutManagedFields(liveObj), next, managed, manager, now);
    capUpdateManagers(managed);
  } catch (err) {
    // UpdateNoErrors: no garbage in managedFields when they could not be computed.
    if (err instanceof TypedError) return;
    throw err;
  }
  const encoded = encodeManagedFields(managed);
  if (encoded !== undefined) meta.managedFields = encoded as unknown as Value[];
  else delete meta.managedFields;
}

/** A plain Go error as ErrorToAPIStatus answers it: 500, no reason. */
function unknownError(message: string): StatusError {
  return new StatusError({ status: 'Failure', message, code: 500 });
}

/** objectGVKNN: `default/web; apps/v1, Kind=Deployment`. */
function gvknn(scope: FieldManagerScope, o: Obj): string {
  const m = metaOf(o);
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const gv = scope.apiVersion.includes('/') ? scope.apiVersion : `/${scope.apiVersion}`;
  return `${typeof m.namespace === 'string' ? m.namespace : ''}/${typeof m.name === 'string' ? m.name : ''}; ${gv}, Kind=${kind}`;
}

/** JSON with map keys sorted, as Go marshals an unstructured object. */
function sortedJson(v: Value): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(v[k] as Value)}`).join(',')}}`;
}

/** lastappliedmanager.go allowedConflictsFromLastApplied: fields live has as client-side apply last set them. */
function allowedConflictsFromLastApplied(scope: FieldManagerScope, live: Obj): FieldSet | undefined {
  const annotations = metaOf(live).annotations;
  const text =
    annotations !== null && typeof annotations === 'object' ? (annotations as Obj)[LAST_APPLIED_ANNOTATION] : undefined;
  if (typeof text !== 'string' || text === '') return undefined;
  let lastApplied: Value;
  try {
    lastApplied = JSON.parse(text) as Value;
  } catch {
    return undefined;
  }
  try {
    const set = toFieldSet(lastApplied, scope.type);
    const cmp = compareValues(lastApplied, withoutManagedFields(live), scope.type);
    return set.difference(cmp.modified);
  } catch {
    return undefined;
  }
}

/**
 * FieldManager.Apply: `config` (an apply patch, parsed) applied by `manager` onto `live` (undefined:
 * the object does not exist yet). The result carries its managedFields; 409 with the conflicts
 * unless `force`; 400 for a configuration of another version or with managedFields.
 */
export function applyConfiguration(
  scope: FieldManagerScope,
  live: Obj | undefined,
  config: Obj,
  manager: string,
  force: boolean,
  now: string,
): Obj {
  const liveObj = live ?? scope.newObject();
  let managed: Managed;
  try {
    managed = decodeManagedFields(managedFieldsOf(liveObj));
  } catch (err) {
    if (err instanceof ManagedFieldsDecodeError)
      throw newInternalError(`failed to decode managed fields: ${err.message}`);
    throw err;
  }
  // structuredmerge.go: the patch must be of the request's version and carry no managed fields.
  const patchVersion = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  if (patchVersion !== scope.apiVersion) {
    throw newBadRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${patchVersion}, expected: ${scope.apiVersion}`,
    );
  }
  if (metaOf(config).managedFields !== undefined) throw newBadRequest('metadata.managedFields must be nil');

  // ObjectToTyped types the patch by its own kind; merging it onto an object of another is refused.
  const patchKind = typeof config.kind === 'string' ? config.kind : '';
  if (patchKind !== scope.kind) {
    const gvk = `${scope.apiVersion.includes('/') ? scope.apiVersion : `/${scope.apiVersion}`}, Kind=${patchKind}`;
    const other = scope.typeOfKind?.(patchKind);
    if (other === undefined) {
      throw unknownError(
        `failed to create typed patch object (${gvknn(scope, config)}): no corresponding type for ${gvk}`,
      );
    }
    throw unknownError(
      `failed to merge config: expected objects of the same type, but got ${scope.kind} and ${patchKind}`,
    );
  }
  // The applied configuration must fit the schema (ObjectToTyped of the patch object).
  try {
    toFieldSet(config, scope.type);
  } catch (err) {
    if (err instanceof TypedError)
      throw unknownError(`failed to create typed patch object (${gvknn(scope, config)}): ${err.message}`);
    throw err;
  }
  let current = withoutManagedFields(liveObj);
  try {
    // skipnonapplied.go: fields of an object nobody manages yet belong to "before-first-apply".
    if (managed.fields.size === 0) {
      managed = updateManaged(
        scope,
        withoutManagedFields(scope.newObject()),
        current,
        managed,
        BEFORE_FIRST_APPLY,
        now,
      );
      capUpdateManagers(managed);
    }
    const id = managerIdentifier({ manager, operation: 'Apply', subresource: scope.subresource });
    const updater = new Updater(scope.type, scope.resetFields);
    const run = (f: boolean) => updater.apply(current, config, managed.fields, id, scope.apiVersion, f);
    let result: ReturnType<typeof run>;
    try {
      result = run(force);
    } catch (err) {
      // lastappliedmanager.go: kubectl upgrading from client-side apply may take the fields its
      // last-applied annotation shows it set.
      if (!(err instanceof ConflictsError) || manager !== KUBECTL) throw err;
      const allowed = allowedConflictsFromLastApplied(scope, liveObj);
      if (allowed === undefined) throw err;
      const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw new ConflictsError(remaining);
      result = run(true);
    }
    managed = { fields: result.managers, times: new Map(managed.times) };
    stripFields(managed, id);
    if (result.object !== undefined) {
      managed.times.set(id, now);
      current = result.object as Obj;
    }
  } catch (err) {
    if (err instanceof ConflictsError) throw newConflictError(err.conflicts);
    if (err instanceof TypedError)
      throw unknownError(`failed to create typed live object (${gvknn(scope, liveObj)}): ${err.message}`);
    throw err;
  }
  // lastappliedupdater.go: kubectl keeps a client-side apply annotation in step with what it applies.
  const liveAnnotations = metaOf(liveObj).annotations;
  if (
    manager === KUBECTL &&
    liveAnnotations !== null &&
    typeof liveAnnotations === 'object' &&
    LAST_APPLIED_ANNOTATION in liveAnnotations
  ) {
    const applied = structuredClone(config);
    const appliedAnnotations = metaOf(applied).annotations;
    if (appliedAnnotations !== null && typeof appliedAnnotations === 'object')
      delete (appliedAnnotations as Obj)[LAST_APPLIED_ANNOTATION];
    const meta = { ...metaOf(current) };
    meta.annotations = {
      ...((meta.annotations as Obj | undefined) ?? {}),
      [LAST_APPLIED_ANNOTATION]: `${sortedJson(applied)}\n`,
    };
    current = { ...current, metadata: meta };
  }
  const encoded = encodeManagedFields(managed);
  const meta = { ...metaOf(current) };
  if (encoded !== undefined) meta.managedFields = encoded as unknown as Value[];
  else delete meta.managedFields;
  return { ...current, metadata: meta };
}
