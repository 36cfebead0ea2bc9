/**
 * Taints and tolerations, pure: k8s.io/api/core/v1 taint.go and toleration.go (MatchTaint,
 * ToleratesTaint), pkg/apis/core/v1/helper/helpers.go GetMatchingTolerations, and
 * pkg/util/taints/taints.go (TaintExists, AddOrUpdateTaint, DeleteTaint, RemoveTaint,
 * TaintSetDiff, TaintSetFilter) at v1.32.
 *
 *   const [allTolerated, used] = getMatchingTolerations(node.spec?.taints ?? [], pod.spec?.tolerations ?? []);
 *   const [taints, updated] = addOrUpdateTaint(node.spec?.taints ?? [], { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' });
 */
import type { Taint, Toleration } from './types/core/v1.js';
import type { DeepReadonly } from './types/readonly.js';

type RTaint = DeepReadonly<Taint>;
type RToleration = DeepReadonly<Toleration>;

/** Taint.MatchTaint: the same key and effect (value and timeAdded ignored). */
export function matchTaint(a: RTaint, b: RTaint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/**
 * Toleration.ToleratesTaint: an empty effect matches every effect, an empty key (with Exists)
 * every key; Exists matches every value, Equal (or none) the same value.
 */
export function toleratesTaint(t: RToleration, taint: RTaint): boolean {
  if ((t.effect ?? '') !== '' && t.effect !== taint.effect) return false;
  if ((t.key ?? '') !== '' && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/**
 * GetMatchingTolerations: whether every taint is tolerated, and for each taint (in order) the
 * first toleration that tolerates it; `[false, []]` as soon as one is not.
 */
export function getMatchingTolerations(
  taints: readonly RTaint[],
  tolerations: readonly RToleration[],
): [boolean, RToleration[]] {
  if (taints.length === 0) return [true, []];
  if (tolerations.length === 0) return [false, []];
  const result: RToleration[] = [];
  for (const taint of taints) {
    const used = tolerations.find((t) => toleratesTaint(t, taint));
    if (used === undefined) return [false, []];
    result.push(used);
  }
  return [true, result];
}

/** TaintExists: a taint with the same key and effect is in the list. */
export function taintExists(taints: readonly RTaint[], find: RTaint): boolean {
  return taints.some((t) => matchTaint(t, find));
}

/** Semantic equality of two taints (key, value, effect, timeAdded). */
function taintEqual(a: RTaint, b: RTaint): boolean {
  return (
    a.key === b.key &&
    (a.value ?? '') === (b.value ?? '') &&
    a.effect === b.effect &&
    (a.timeAdded ?? '') === (b.timeAdded ?? '')
  );
}

/**
 * AddOrUpdateTaint over a node's taints: the taint replaces the one with its key and effect (in
 * place) or is appended; `[taints, false]` when an equal one is there already.
 */
export function addOrUpdateTaint(taints: readonly RTaint[], taint: RTaint): [Taint[], boolean] {
  const out: Taint[] = [];
  let updated = false;
  for (const t of taints) {
    if (matchTaint(taint, t)) {
      if (taintEqual(taint, t)) return [taints.map(copyTaint), false];
      out.push(copyTaint(taint));
      updated = true;
      continue;
    }
    out.push(copyTaint(t));
  }
  if (!updated) out.push(copyTaint(taint));
  return [out, true];
}

/** DeleteTaint: the taints without those matching `taint`, and whether any went. */
export function deleteTaint(taints: readonly RTaint[], taint: RTaint): [Taint[], boolean] {
  const out = taints.filter((t) => !matchTaint(taint, t)).map(copyTaint);
  return [out, out.length !== taints.length];
}

/** RemoveTaint over a node's taints: `[taints, false]` when none matches. */
export function removeTaint(taints: readonly RTaint[], taint: RTaint): [Taint[], boolean] {
  if (taints.length === 0 || !taintExists(taints, taint)) return [taints.map(copyTaint), false];
  return deleteTaint(taints, taint);
}

/** TaintSetDiff: what `next` adds to `old`, and what it drops (by key and effect). */
export function taintSetDiff(next: readonly RTaint[], old: readonly RTaint[]): [Taint[], Taint[]] {
  const toAdd = next.filter((t) => !taintExists(old, t)).map(copyTaint);
  const toRemove = old.filter((t) => !taintExists(next, t)).map(copyTaint);
  return [toAdd, toRemove];
}

/** A mutable copy of a taint (only the fields it has). */
export function copyTaint(t: RTaint): Taint {
  const out: Taint = { key: t.key, effect: t.effect };
  if (t.value !== undefined) out.value = t.value;
  if (t.timeAdded !== undefined) out.timeAdded = t.timeAdded;
  return out;
}

/**
 * FindMatchingUntoleratedTaint: the first of `taints` that `inclusionFilter` keeps and no
 * toleration tolerates.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly DeepReadonly<Taint>[] | undefined,
  tolerations: readonly DeepReadonly<Toleration>[] | undefined,
  inclusionFilter: (taint: DeepReadonly<Taint>) => boolean,
): DeepReadonly<Taint> | undefined {
  for (const taint of taints ?? []) {
    if (!inclusionFilter(taint)) continue;
    if (!(tolerations ?? []).some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}
