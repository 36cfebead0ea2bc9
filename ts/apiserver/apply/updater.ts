/**
 * structured-merge-diff merge/update.go: Update (a non-apply write: the writer takes what it
 * changed, others lose what was removed) and Apply (merge the applied configuration, take
 * ownership of it, remove what the applier owned before and no longer applies unless someone else
 * owns it, conflict with other owners of changed fields unless forced).
 */
import { FieldSet } from './field-set.js';
import type { Path, Value } from './path.js';
import type { TypeNode } from './typed.js';
import {
  compareValues,
  ensureNamedFieldsAreMembers,
  mergeValues,
  removeItems,
  toFieldSet,
  valuesEqual,
} from './walk.js';

/** A manager's fields at an API version; `applied` for Apply entries. */
export interface VersionedSet {
  set: FieldSet;
  apiVersion: string;
  applied: boolean;
}

/** Manager identifier (managed-fields.ts) → its fields. */
export type ManagedFields = Map<string, VersionedSet>;

/** A field another manager owns, in the way of an apply. */
export interface Conflict {
  manager: string;
  path: Path;
}

/** merge.Conflicts: the apply was refused. */
export class ConflictsError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(`${conflicts.length} conflict(s)`);
  }
}

/** Conflicts per manager as ConflictsFromManagers lists them (managers sorted, paths in set order). */
function conflictsFrom(sets: Map<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort()) {
    for (const path of (sets.get(manager) as FieldSet).paths()) out.push({ manager, path });
  }
  return out;
}

export class Updater {
  /** `ignored`: the reset fields of the strategy (a main write never owns status, for one). */
  constructor(
    private readonly type: TypeNode,
    private readonly ignored: FieldSet = new FieldSet(),
  ) {}

  private update(
    live: Value,
    next: Value,
    managers: ManagedFields,
    workflow: string,
    force: boolean,
  ): { managers: ManagedFields; removed: FieldSet; changed: FieldSet } {
    const cmp = compareValues(live, next, this.type);
    const changed = cmp.modified.union(cmp.added);
    const conflicts = new Map<string, FieldSet>();
    for (const [manager, vs] of managers) {
      if (manager === workflow) continue;
      const c = vs.set.intersection(changed).difference(this.ignored);
      if (!c.empty()) conflicts.set(manager, c);
    }
    if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFrom(conflicts));
    const out: ManagedFields = new Map();
    for (const [manager, vs] of managers) {
      let set = vs.set;
      const c = conflicts.get(manager);
      if (c !== undefined) set = set.difference(c);
      set = set.difference(cmp.removed);
      if (!set.empty()) out.set(manager, { ...vs, set });
    }
    return { managers: out, removed: cmp.removed, changed };
  }

  /** Updater.Update: `manager` owns what it added or modified. */
  updateFields(live: Value, next: Value, managers: ManagedFields, manager: string, apiVersion: string): ManagedFields {
    if (managers.size === 0) {
      // Nobody to take fields from (a create, mostly): only the union of what was added and modified.
      const changed = new FieldSet();
      compareValues(live, next, this.type, { added: changed, modified: changed, removed: new FieldSet() });
      changed.removeRecursive(this.ignored);
      return changed.empty() ? new Map() : new Map([[manager, { set: changed, apiVersion, applied: false }]]);
    }
    const { managers: out, removed, changed } = this.update(live, next, managers, manager, true);
    const previous = out.get(manager)?.set ?? new FieldSet();
    const set = previous.difference(removed).union(changed);
    set.removeRecursive(this.ignored);
    if (set.empty()) out.delete(manager);
    else out.set(manager, { set, apiVersion, applied: false });
    return out;
  }

  /**
   * Updater.Apply: the new object (undefined when nothing changed) and the managers after it.
   * Throws ConflictsError unless `force`.
   */
  apply(
    live: Value,
    config: Value,
    managers: ManagedFields,
    manager: string,
    apiVersion: string,
    force: boolean,
  ): { object: Value | undefined; managers: ManagedFields } {
    let merged = mergeValues(live, config, this.type);
    const last = managers.get(manager);
    const set = toFieldSet(config, this.type).recursiveDifference(this.ignored);
    const withApplied: ManagedFields = new Map(managers);
    withApplied.set(manager, { set, apiVersion, applied: true });
    merged = this.prune(merged, withApplied, last?.set);
    const { managers: out } = this.update(live, merged, withApplied, manager, force);
    return { object: valuesEqual(live, merged) ? undefined : merged, managers: out };
  }

  /** Removes what `manager` applied last time and no longer applies, unless another manager owns it. */
  private prune(merged: Value, managers: ManagedFields, last: FieldSet | undefined): Value {
    if (last === undefined || last.empty()) return merged;
    const t = this.type;
    let pruned = removeItems(merged, t, ensureNamedFieldsAreMembers(last, t));
    // addBackOwnedItems: whatever some manager owns stays.
    let managed = new FieldSet();
    for (const vs of managers.values()) managed = managed.union(vs.set);
    const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(merged, t), t);
    let prunedSet = ensureNamedFieldsAreMembers(toFieldSet(pruned, t), t);
    pruned = removeItems(merged, t, mergedSet.difference(prunedSet.union(ensureNamedFieldsAreMembers(managed, t))));
    // addBackDanglingItems: only what the manager had applied may go.
    prunedSet = ensureNamedFieldsAreMembers(toFieldSet(pruned, t), t);
    const lastSet = ensureNamedFieldsAreMembers(last, t);
    return removeItems(merged, t, mergedSet.difference(prunedSet).intersection(lastSet));
  }
}
