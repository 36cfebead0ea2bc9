// FailedScheduling text (framework.FitError.Error in pkg/scheduler/framework/types.go):
//   "0/<all> nodes are available: <PreFilterMsg>."                       when PreFilter rejected
//   "0/<all> nodes are available: <n1> <reason1>, <n2> <reason2>."       otherwise
// The histogram counts every reason of every rejected node, plus the absent-nodes reasons for
// nodes never evaluated, and is sorted as strings "<count> <reason>" (Go sort.Strings: bytewise,
// so "10 …" sorts before "2 …"). The preemption postfix is not produced (no PostFilter here).

/** framework.NoNodeAvailableMsg. */
export const NO_NODE_AVAILABLE_MSG = '0/%v nodes are available';

export interface FitErrorInput {
  readonly numAllNodes: number;
  /** The PreFilter rejection message, when PreFilter rejected the pod. */
  readonly preFilterMsg?: string;
  /** Reasons of each explicitly rejected node. */
  readonly nodeReasons: readonly (readonly string[])[];
  /** Reasons for nodes absent from the per-node statuses (PreFilterResult narrowing). */
  readonly absentNodesReasons?: readonly string[];
  /** PostFilter message, appended after a space when given. */
  readonly postFilterMsg?: string;
}

/** Go's string order: by Unicode code point (= UTF-8 byte order), not UTF-16 units. */
export function compareGoStrings(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done === true || y.done === true) return x.done === true ? (y.done === true ? 0 : -1) : 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

export function fitErrorMessage(input: FitErrorInput): string {
  let msg = `0/${input.numAllNodes} nodes are available:`;
  if (input.preFilterMsg !== undefined && input.preFilterMsg !== '') {
    msg += ` ${input.preFilterMsg}.`;
  } else {
    const reasons = new Map<string, number>();
    for (const rs of input.nodeReasons) for (const r of rs) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    const absent = input.numAllNodes - input.nodeReasons.length;
    if (absent > 0) for (const r of input.absentNodesReasons ?? []) reasons.set(r, (reasons.get(r) ?? 0) + absent);
    const histogram = [...reasons].map(([r, n]) => `${n} ${r}`).sort(compareGoStrings);
    if (histogram.length > 0) msg += ` ${histogram.join(', ')}.`;
  }
  if (input.postFilterMsg !== undefined && input.postFilterMsg !== '') msg += ` ${input.postFilterMsg}`;
  return msg;
}
