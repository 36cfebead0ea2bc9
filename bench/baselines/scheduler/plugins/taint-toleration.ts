// TaintToleration (plugins/tainttoleration).
// Filter: the first NoSchedule/NoExecute taint (in node order) no toleration tolerates rejects the
// node. Score: the number of PreferNoSchedule taints not tolerated by the pod's tolerations whose
// effect is PreferNoSchedule or empty; NormalizeScore = DefaultNormalizeScore(100, reverse).

import {
  defaultNormalizeScore,
  type FilterPlugin,
  MAX_NODE_SCORE,
  type ScorePlugin,
  type Status,
  SUCCESS,
  unresolvable,
} from '../framework.js';
import type { Taint, Toleration } from '../types.js';

/** How the Filter words its reason. */
export type TaintReasonStyle =
  /** `node(s) had untolerated taint {key: value}` (v1.25 through v1.33). */
  | 'perTaint'
  /** `node(s) had untolerated taint(s)` (the generic wording of the newest releases). */
  | 'generic';

export interface TaintTolerationArgs {
  readonly reasonStyle?: TaintReasonStyle;
}

/** v1.Toleration.ToleratesTaint (the Equal/Exists operators). */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect !== undefined && t.effect !== '' && t.effect !== taint.effect) return false;
  if (t.key !== undefined && t.key !== '' && t.key !== taint.key) return false;
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

export function tolerationsTolerateTaint(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint));
}

/** helper.DoNotScheduleTaintsFilterFunc: the effects a Filter cares about. */
export function isDoNotScheduleTaint(taint: Taint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** v1helper.FindMatchingUntoleratedTaint with the DoNotSchedule filter. */
export function findUntoleratedDoNotScheduleTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Taint | undefined {
  return taints.find((taint) => isDoNotScheduleTaint(taint) && !tolerationsTolerateTaint(tolerations, taint));
}

export function untoleratedTaintReason(taint: Taint, style: TaintReasonStyle = 'perTaint'): string {
  if (style === 'generic') return 'node(s) had untolerated taint(s)';
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

export function taintTolerationFilter(args: TaintTolerationArgs = {}): FilterPlugin {
  return {
    name: 'TaintToleration',
    preFilter(pod) {
      const tolerations = pod.spec.tolerations ?? [];
      return {
        kind: 'filter',
        filter: (node): Status => {
          const taint = findUntoleratedDoNotScheduleTaint(node.node.spec?.taints ?? [], tolerations);
          return taint === undefined ? SUCCESS : unresolvable(untoleratedTaintReason(taint, args.reasonStyle));
        },
      };
    },
  };
}

export function taintTolerationScore(): ScorePlugin {
  return {
    name: 'TaintToleration',
    preScore(pod) {
      const preferNoSchedule = (pod.spec.tolerations ?? []).filter(
        (t) => t.effect === undefined || t.effect === '' || t.effect === 'PreferNoSchedule',
      );
      return {
        kind: 'score',
        score: (node) =>
          (node.node.spec?.taints ?? []).filter(
            (taint) => taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(preferNoSchedule, taint),
          ).length,
        normalize: (scores) => defaultNormalizeScore(MAX_NODE_SCORE, true, scores),
      };
    },
  };
}
