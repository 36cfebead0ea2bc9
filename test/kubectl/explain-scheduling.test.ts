/**
 * SchedulingExplanation through the real kubectl against `kubewasm up`: `kubectl create -f
 * explain.yaml -o yaml` for a pending pod by name and for an inline pod answers every node's
 * filter verdicts (Kubernetes' reason strings) and scores per plugin from the scheduler running in
 * that process; the pending pod itself carries PodScheduled=False/Unschedulable with the same
 * message; get and a spec naming no pod are refused as kube-apiserver refuses them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { hasKubectl, UpCluster } from '../testing/up.js';

const cluster = new UpCluster();

// scheduler_perf's node-default; node-2 is cordoned.
const node = (name: string, unschedulable = false) => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels:
    kubernetes.io/hostname: ${name}
spec:
  unschedulable: ${unschedulable}
status:
  capacity: {cpu: "4", memory: 32Gi, pods: "110"}
  allocatable: {cpu: "4", memory: 32Gi, pods: "110"}
`;

const pod = (name: string, cpu: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: default
spec:
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: "${cpu}", memory: 500Mi}
`;

interface Explained {
  apiVersion: string;
  kind: string;
  status: {
    pod: string;
    numFeasibleNodesToFind: number;
    feasibleNodes: number;
    chosenNode?: string;
    message?: string;
    nodes: Array<{
      name: string;
      feasible: boolean;
      filters: Array<{ plugin: string; code: string; reasons?: string[] }>;
      scores?: Array<{ plugin: string; weight: number; raw: number; normalized: number; weighted: number }>;
      totalScore?: number;
    }>;
  };
}

function file(name: string, text: string): string {
  const path = join(cluster.root, name);
  writeFileSync(path, text);
  return path;
}

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasKubectl)('kubectl create SchedulingExplanation against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
    for (const [name, cordoned] of [
      ['node-0', false],
      ['node-1', false],
      ['node-2', true],
    ] as const) {
      expect(cluster.kubectl('create', '-f', file(`${name}.yaml`, node(name, cordoned))).status).toBe(0);
    }
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('explains a pending pod by name: every node, every filter plugin, with the FitError message', async () => {
    expect(cluster.kubectl('create', '-f', file('big.yaml', pod('big', '6'))).status).toBe(0);
    // The scheduler's failed attempt lands in the pod's status (schedule_one.go updatePod).
    let condition: Record<string, unknown> | undefined;
    await until(() => {
      const res = cluster.kubectl('get', 'pod', 'big', '-o', 'yaml');
      const conditions = (parse(res.stdout) as { status?: { conditions?: Array<Record<string, unknown>> } }).status
        ?.conditions;
      condition = conditions?.find((c) => c.type === 'PodScheduled');
      return condition !== undefined;
    });
    const message =
      '0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
    expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable', message });

    const request = file(
      'explain-big.yaml',
      `apiVersion: scheduling.kubewasm.io/v1alpha1
kind: SchedulingExplanation
spec:
  namespace: default
  podName: big
`,
    );
    const res = cluster.kubectl('create', '-f', request, '-o', 'yaml');
    expect(res.status).toBe(0);
    const out = parse(res.stdout) as Explained;
    expect(out.apiVersion).toBe('scheduling.kubewasm.io/v1alpha1');
    expect(out.kind).toBe('SchedulingExplanation');
    expect(out.status.pod).toBe('default/big');
    expect(out.status.chosenNode).toBeUndefined();
    expect(out.status.feasibleNodes).toBe(0);
    // The explanation's message is the one the scheduler reported, minus the PostFilter part
    // (explain runs no preemption).
    expect(message.startsWith(out.status.message ?? '-')).toBe(true);
    expect(out.status.nodes.map((n) => n.name).sort()).toEqual(['node-0', 'node-1', 'node-2']);
    const verdict = (nodeName: string, plugin: string) =>
      out.status.nodes.find((n) => n.name === nodeName)?.filters.find((f) => f.plugin === plugin);
    expect(verdict('node-0', 'NodeResourcesFit')).toEqual({
      plugin: 'NodeResourcesFit',
      code: 'Unschedulable',
      reasons: ['Insufficient cpu'],
    });
    expect(verdict('node-2', 'NodeUnschedulable')).toEqual({
      plugin: 'NodeUnschedulable',
      code: 'UnschedulableAndUnresolvable',
      reasons: ['node(s) were unschedulable'],
    });
    expect(verdict('node-0', 'NodeUnschedulable')?.code).toBe('Success');
    // Nothing was created: the resource is not stored, and get is not served.
    const get = cluster.kubectl('get', 'schedulingexplanations');
    expect(get.status).not.toBe(0);
    expect(get.stderr).toContain('the server does not allow this method on the requested resource');
  });

  it('explains an inline pod: the chosen node and raw, normalized and weighted scores per plugin', () => {
    const request = file(
      'explain-inline.yaml',
      `apiVersion: scheduling.kubewasm.io/v1alpha1
kind: SchedulingExplanation
spec:
  namespace: default
  pod:
    metadata: {name: small}
    spec:
      containers:
      - name: pause
        image: registry.k8s.io/pause:3.10
        resources:
          requests: {cpu: 1, memory: 1Gi}
`,
    );
    const res = cluster.kubectl('create', '-f', request, '-o', 'yaml');
    expect(res.status).toBe(0);
    const out = parse(res.stdout) as Explained;
    expect(out.status.pod).toBe('default/small');
    expect(out.status.feasibleNodes).toBe(2);
    expect(['node-0', 'node-1']).toContain(out.status.chosenNode);
    const chosen = out.status.nodes.find((n) => n.name === out.status.chosenNode);
    const byPlugin = new Map((chosen?.scores ?? []).map((s) => [s.plugin, s]));
    // Default weights (apis/config/v1/default_plugins.go): TaintToleration 3, NodeResourcesFit 1.
    expect(byPlugin.get('TaintToleration')).toMatchObject({ weight: 3, raw: 0, normalized: 100, weighted: 300 });
    // LeastAllocated on an empty 4-CPU / 32Gi node: cpu (4000−1000)·100/4000 = 75, memory
    // (32−1)·100/32 = 96 (integer), averaged: (75+96)/2 = 85.
    expect(byPlugin.get('NodeResourcesFit')).toMatchObject({ weight: 1, raw: 85, normalized: 85, weighted: 85 });
    const total = [...byPlugin.values()].reduce((sum, s) => sum + s.weighted, 0);
    expect(chosen?.totalScore).toBe(total);
    // A cordoned node is explained too, not scored.
    const cordoned = out.status.nodes.find((n) => n.name === 'node-2');
    expect(cordoned?.feasible).toBe(false);
    expect(cordoned?.scores).toBeUndefined();
  });

  it('refuses a spec naming no pod, and a pod the scheduler does not know', () => {
    const empty = cluster.kubectl(
      'create',
      '-f',
      file(
        'explain-empty.yaml',
        'apiVersion: scheduling.kubewasm.io/v1alpha1\nkind: SchedulingExplanation\nspec: {}\n',
      ),
    );
    expect(empty.status).not.toBe(0);
    // kubectl's rendering of the 422 (details.causes): `The <Kind> "<name>" is invalid: …`.
    expect(empty.stderr).toContain(
      'The SchedulingExplanation "" is invalid: spec.podName: Required value: or spec.pod',
    );
    const missing = cluster.kubectl(
      'create',
      '-f',
      file(
        'explain-missing.yaml',
        'apiVersion: scheduling.kubewasm.io/v1alpha1\nkind: SchedulingExplanation\nspec: {podName: nope}\n',
      ),
    );
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('pods "nope" not found');
  });
});
