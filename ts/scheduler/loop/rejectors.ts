// Which plugins rejected a pod, read back from kube-scheduler's FailedScheduling message: every
// reason string names its plugin, so the hot path needs no second crossing into wasm. Only a
// message with a reason not listed here costs an `explain` (see Scheduler).

/** Reason text (or its start) → the filter plugin that writes it (crates/sched/src/status.rs). */
const REASON_PLUGINS: ReadonlyArray<readonly [string, string]> = [
  ['node(s) were unschedulable', 'NodeUnschedulable'],
  ["node(s) didn't match the requested node name", 'NodeName'],
  ['node(s) had untolerated taint', 'TaintToleration'],
  ["node(s) didn't match Pod's node affinity/selector", 'NodeAffinity'],
  ["node(s) didn't match scheduler-enforced node affinity", 'NodeAffinity'],
  ['pod affinity terms conflict', 'NodeAffinity'],
  ["node(s) didn't have free ports for the requested pod ports", 'NodePorts'],
  ['Too many pods', 'NodeResourcesFit'],
  ['Insufficient ', 'NodeResourcesFit'],
  ["node(s) didn't match pod affinity rules", 'InterPodAffinity'],
  ["node(s) didn't match pod anti-affinity rules", 'InterPodAffinity'],
  ["node(s) didn't satisfy existing pods anti-affinity rules", 'InterPodAffinity'],
  ["node(s) didn't match pod topology spread constraints", 'PodTopologySpread'],
];

/** schedule_one.go ErrNoNodesAvailable. */
const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** types.go NoNodeAvailableMsg prefix: `0/N nodes are available:`. */
const NO_NODE_AVAILABLE = /^0\/\d+ nodes are available:/;

/**
 * The rejecting plugins named by a FailedScheduling message, or undefined when some reason is not
 * recognised (the caller then asks the engine). The preemption part is not a filter's verdict
 * and is ignored. Example: "0/3 nodes are available: 3 Insufficient cpu." → {NodeResourcesFit}.
 */
export function rejectorsFromMessage(message: string): Set<string> | undefined {
  // ErrNoNodesAvailable: no plugin rejected anything; the pod simply backs off.
  if (message === NO_NODES_AVAILABLE) return new Set();
  const head = NO_NODE_AVAILABLE.exec(message);
  if (head === null) return undefined;
  let body = message.slice(head[0].length);
  const preemption = body.indexOf(' preemption: ');
  if (preemption >= 0) body = body.slice(0, preemption);
  body = body.trim().replace(/\.$/, '');
  const plugins = new Set<string>();
  if (body === '') return plugins;
  // Reasons are "<count> <reason>" joined by ", "; a prefilter reason carries no count.
  for (const part of splitReasons(body)) {
    const reason = part.replace(/^\d+ /, '');
    const named = /^node\(s\) didn't satisfy plugin\(s\) \[(.+)\]$/.exec(reason);
    if (named?.[1] !== undefined) {
      for (const p of named[1].split(/,\s*/)) plugins.add(p);
      continue;
    }
    const match = REASON_PLUGINS.find(([text]) => reason.startsWith(text));
    if (match === undefined) return undefined;
    plugins.add(match[1]);
  }
  return plugins;
}

/** Splits on ", " outside braces and brackets (a taint `{k: v}` has none, but be safe). */
function splitReasons(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 0 && body[i + 1] === ' ') {
      parts.push(body.slice(start, i));
      start = i + 2;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
