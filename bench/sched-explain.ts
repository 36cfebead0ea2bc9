/**
 * The SchedulingExplanation the e2e run got for one pod, as a text file for the note: the
 * request, the status summary, every filter verdict counted per plugin and reason over all nodes,
 * and a few nodes in full (the chosen one, the next best scored, some rejected, one not examined).
 */
import { stringify as toYaml } from 'yaml';
import type { KubeObject } from '../ts/api/meta.js';
import type {
  NodeExplanation,
  SchedulingExplanation,
} from '../ts/apiserver/registry/kubewasm/schedulingexplanations/scheduling-explanation.js';

/** YAML without anchors: the pod's equal requests and limits are written out twice, as kubectl would. */
const stringify = (value: unknown) => toYaml(value, { aliasDuplicateObjects: false });

/** Nodes shown in full besides the chosen one. */
const RUNNERS_UP = 2;
const REJECTED = 2;

export function explanationText(
  workload: string,
  initPods: number,
  explanation: { request: KubeObject; response: SchedulingExplanation },
): string {
  const status = explanation.response.status;
  if (status === undefined) throw new Error('bench sched: the SchedulingExplanation came back without a status');
  const verdicts = new Map<string, number>();
  for (const node of status.nodes) {
    for (const f of node.filters) {
      if (f.code === 'Success') continue;
      const reasons = (f.reasons ?? []).join('; ');
      const key = reasons === '' ? `${f.plugin} ${f.code}` : `${f.plugin} ${f.code}: ${reasons}`;
      verdicts.set(key, (verdicts.get(key) ?? 0) + 1);
    }
  }
  const scored = status.nodes
    .filter((n) => n.totalScore !== undefined)
    .sort((a, b) => (b.totalScore ?? 0) - (a.totalScore ?? 0));
  const chosen = status.nodes.find((n) => n.name === status.chosenNode);
  const shown: NodeExplanation[] = [
    ...(chosen === undefined ? [] : [chosen]),
    ...scored.filter((n) => n !== chosen).slice(0, RUNNERS_UP),
    ...status.nodes.filter((n) => n.examined && !n.feasible).slice(0, REJECTED),
    ...status.nodes.filter((n) => !n.examined).slice(0, 1),
  ];
  const { nodes: _all, ...summary } = status;
  return [
    `# SchedulingExplanation for one pod of ${workload}`,
    `# written by \`kubewasm bench sched\` (bench/sched-e2e.ts): ${status.nodes.length.toLocaleString('en-US')} nodes,`,
    `# the ${initPods.toLocaleString('en-US')} init pods created through the in-process API and bound by the scheduler loop;`,
    '# the pod is the first measured pod, posted inline before it is created.',
    '',
    '# POST /apis/scheduling.kubewasm.io/v1alpha1/schedulingexplanations',
    stringify(explanation.request).trimEnd(),
    '',
    `# 201 Created — status (without its ${status.nodes.length.toLocaleString('en-US')} nodes)`,
    stringify({ status: summary }).trimEnd(),
    '',
    `# filter verdicts other than Success, counted over all ${status.nodes.length.toLocaleString('en-US')} nodes`,
    ...[...verdicts].map(([k, n]) => `#   ${n.toLocaleString('en-US').padStart(6)} × ${k}`),
    `#   ${status.nodes.filter((n) => !n.examined).length.toLocaleString('en-US')} nodes not examined (the search stops at numFeasibleNodesToFind)`,
    '',
    `# status.nodes: the chosen node, the next ${RUNNERS_UP} best scored, ${REJECTED} rejected, 1 not examined`,
    stringify({ nodes: shown }).trimEnd(),
    '',
  ].join('\n');
}
