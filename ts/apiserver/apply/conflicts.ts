/**
 * The 409 of a refused apply (k8s.io/apimachinery pkg/util/managedfields/internal/conflict.go):
 * one FieldManagerConflict cause per field, and the message that kubectl prints.
 */
import { newApplyConflict, type StatusError } from '../../api/status.js';
import { pathString } from './path.js';
import type { Conflict } from './updater.js';

/** printManager: `"kubectl"` for appliers, `"kubectl-edit" using apps/v1` for updaters (with the subresource when there is one). */
function printManager(id: string): string {
  let e: { manager?: string; operation?: string; apiVersion?: string; subresource?: string; time?: string };
  try {
    e = JSON.parse(id) as typeof e;
  } catch {
    return JSON.stringify(id);
  }
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update')
    return e.time === undefined ? `${s} using ${e.apiVersion ?? ''}` : `${s} using ${e.apiVersion ?? ''} at ${e.time}`;
  return s;
}

/** getConflictMessage. */
function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0] as Conflict;
    return `Apply failed with 1 conflict: conflict with ${printManager(c.manager)}: ${pathString(c.path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager) ?? [];
    list.push(pathString(c.path));
    byManager.set(c.manager, list);
  }
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m) ?? []) lines.push(`- ${p}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** NewConflictError. */
export function newConflictError(conflicts: readonly Conflict[]): StatusError {
  return newApplyConflict(
    conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${printManager(c.manager)}`,
      field: pathString(c.path),
    })),
    conflictMessage(conflicts),
  );
}
