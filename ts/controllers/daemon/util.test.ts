// The DaemonSet controller's helpers: the facts of pkg/controller/daemon/util/daemonset_util_test.go
// (v1.32), TestNodeShouldRunDaemonPod's table and the taint cases of daemon_controller_test.go,
// and the node affinity / toleration matching of ts/api/node-affinity.ts they rest on.
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../api/types/apps/v1.js';
import type { Node, Pod, PodSpec, Taint, Toleration } from '../../api/types/core/v1.js';
import { updatedDesiredNodeCounts } from './update.js';
import {
  addOrUpdateDaemonPodTolerations,
  createPodTemplate,
  getTargetNodeName,
  isPodUpdated,
  nodeShouldRunDaemonPod,
  replaceDaemonSetPodNodeNameNodeAffinity,
} from './util.js';

const simpleDaemonSetLabel = { name: 'simple-daemon', type: 'production' };
const simpleDaemonSetLabel2 = { name: 'simple-daemon', type: 'test' };

const newNode = (name: string, labels: Record<string, string> = {}, taints?: Taint[]): Node => ({
  metadata: { name, labels },
  spec: taints === undefined ? {} : { taints },
});

const newDaemonSet = (spec: Partial<PodSpec> = {}, labels = simpleDaemonSetLabel): DaemonSet => ({
  metadata: { name: 'foo', namespace: 'default', uid: 'ds-uid' },
  spec: {
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } },
  },
});

describe('TestNodeShouldRunDaemonPod', () => {
  const node = newNode('test-node', simpleDaemonSetLabel);
  it.each([
    ['ShouldRunDaemonPod', {}, true, true],
    ['ErrPodNotMatchHostName', { nodeName: 'other-node' }, false, false],
    ['ErrNodeSelectorNotMatch', { nodeSelector: simpleDaemonSetLabel2 }, false, false],
    ['ShouldRunDaemonPod (nodeSelector)', { nodeSelector: simpleDaemonSetLabel }, true, true],
    [
      'ErrPodAffinityNotMatch',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'In', values: ['test'] }] }],
            },
          },
        },
      },
      false,
      false,
    ],
    [
      'ShouldRunDaemonPod (affinity)',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'In', values: ['production'] }] }],
            },
          },
        },
      },
      true,
      true,
    ],
    // Resources and host ports are the scheduler's business since 1.12.
    [
      'InsufficientResourceError / ErrPodNotFitsHostPorts',
      { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 1, hostPort: 666 }] }] },
      true,
      true,
    ],
  ] as const)('%s', (_name, spec, shouldRun, shouldContinueRunning) => {
    expect(nodeShouldRunDaemonPod(node, newDaemonSet(spec as Partial<PodSpec>))).toEqual([
      shouldRun,
      shouldContinueRunning,
    ]);
  });

  it('runs on an unschedulable node (ShouldRunDaemonPodOnUnschedulableNode)', () => {
    const n: Node = { ...node, spec: { unschedulable: true } };
    expect(nodeShouldRunDaemonPod(n, newDaemonSet())).toEqual([true, true]);
    // And tolerates the unschedulable taint the node lifecycle controller adds.
    const tainted = newNode('n', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(tainted, newDaemonSet())).toEqual([true, true]);
  });

  it('keeps but does not start an intolerant pod on a NoSchedule-tainted node (TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod)', () => {
    const n = newNode('tainted', {}, [{ key: 'dedicated', value: 'master', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(n, newDaemonSet())).toEqual([false, true]);
  });

  it('evicts an intolerant pod from a NoExecute-tainted node (TestNoExecuteTaintedDoesEvicitRunningIntolerantPod)', () => {
    const n = newNode('tainted', {}, [{ key: 'dedicated', value: 'master', effect: 'NoExecute' }]);
    expect(nodeShouldRunDaemonPod(n, newDaemonSet())).toEqual([false, false]);
  });

  it('runs a tolerating pod on a tainted node (TestTaintedNodeDaemonLaunchesToleratePod)', () => {
    const n = newNode('tainted', {}, [{ key: 'dedicated', value: 'master', effect: 'NoSchedule' }]);
    const tolerations: Toleration[] = [{ key: 'dedicated', operator: 'Equal', value: 'master', effect: 'NoSchedule' }];
    expect(nodeShouldRunDaemonPod(n, newDaemonSet({ tolerations }))).toEqual([true, true]);
  });

  it('runs on not-ready, unreachable and pressured nodes (TestNotReadyNodeDaemonLaunchesPod, TestUnreachableNodeDaemonLaunchesPod, TestTaintPressureNodeDaemonLaunchesPod)', () => {
    for (const taints of [
      [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
      [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
      [
        { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule' },
      ],
    ] as Taint[][]) {
      expect(nodeShouldRunDaemonPod(newNode('n', {}, taints), newDaemonSet())).toEqual([true, true]);
    }
  });

  it('tolerates network-unavailable only for hostNetwork pods (TestNetworkUnavailableNodeDaemonLaunchesPod)', () => {
    const n = newNode('n', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(n, newDaemonSet())).toEqual([false, true]);
    expect(nodeShouldRunDaemonPod(n, newDaemonSet({ hostNetwork: true }))).toEqual([true, true]);
  });
});

describe('daemonset_util.go', () => {
  it('adds the daemon tolerations once, without tolerationSeconds', () => {
    const spec: PodSpec = {
      containers: [],
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    };
    addOrUpdateDaemonPodTolerations(spec);
    addOrUpdateDaemonPodTolerations(spec);
    expect(spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('labels the template with the generation and hash (TestCreatePodTemplate)', () => {
    for (const [generation, hash, want] of [
      [1, 'hash', { 'pod-template-generation': '1', 'controller-revision-hash': 'hash' }],
      [undefined, 'hash', { 'controller-revision-hash': 'hash' }],
      [1, '', { 'pod-template-generation': '1' }],
    ] as const) {
      const t = createPodTemplate({ spec: { containers: [] } }, generation, hash);
      expect(t.metadata?.labels).toEqual(want);
    }
  });

  it('knows an updated pod by its hash or its generation (TestIsPodUpdated)', () => {
    const pod = (labels: Record<string, string>): Pod => ({ metadata: { labels }, spec: { containers: [] } });
    expect(isPodUpdated(pod({ 'pod-template-generation': '1', 'controller-revision-hash': 'h' }), 'h', 1)).toBe(true);
    expect(isPodUpdated(pod({ 'pod-template-generation': '1', 'controller-revision-hash': 'x' }), 'h', 1)).toBe(true);
    expect(isPodUpdated(pod({ 'pod-template-generation': '2', 'controller-revision-hash': 'h' }), 'h', 1)).toBe(true);
    expect(isPodUpdated(pod({ 'pod-template-generation': '2', 'controller-revision-hash': 'x' }), 'h', 1)).toBe(false);
    expect(isPodUpdated(pod({ 'pod-template-generation': '1' }), 'h', undefined)).toBe(false);
    expect(isPodUpdated(pod({ 'controller-revision-hash': '' }), '', undefined)).toBe(false);
  });

  it('replaces the required node affinity by metadata.name (TestReplaceDaemonSetPodNodeNameNodeAffinity)', () => {
    const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] };
    expect(replaceDaemonSetPodNodeNameNodeAffinity(undefined, 'host_1')).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } },
    });
    const preferred = [{ weight: 1, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' as const }] } }];
    const affinity = replaceDaemonSetPodNodeNameNodeAffinity(
      {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1', 'host_2'] }] },
              { matchExpressions: [{ key: 'b', operator: 'Exists' }] },
            ],
          },
        },
      },
      'host_1',
    );
    expect(affinity).toEqual({
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: preferred,
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] },
      },
    });
  });

  it('finds the target node (TestGetTargetNodeName)', () => {
    const pod = (spec: Partial<PodSpec>): Pod => ({
      metadata: { name: 'p', namespace: 'ns' },
      spec: { containers: [], ...spec },
    });
    expect(getTargetNodeName(pod({ nodeName: 'node-1' }))).toBe('node-1');
    expect(getTargetNodeName(pod({ affinity: replaceDaemonSetPodNodeNameNodeAffinity(undefined, 'node-2') }))).toBe(
      'node-2',
    );
    expect(() => getTargetNodeName(pod({}))).toThrow(
      'no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod ns/p',
    );
    expect(() =>
      getTargetNodeName(
        pod({
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }],
              },
            },
          },
        }),
      ),
    ).toThrow("the matchFields value of 'metadata.name' is not unique for pod ns/p");
  });
});

describe('TestGetUnavailableNumbers (updatedDesiredNodeCounts)', () => {
  const nodes = (n: number) => Array.from({ length: n }, (_, i) => newNode(`node-${i}`));
  const ds = (maxUnavailable: number | string, maxSurge?: number | string): DaemonSet => ({
    ...newDaemonSet(),
    spec: {
      ...(newDaemonSet().spec as NonNullable<DaemonSet['spec']>),
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable, ...(maxSurge === undefined ? {} : { maxSurge }) },
      },
    },
  });
  it.each([
    ['no nodes', 0, ds(0), 0, 0],
    ['two nodes, maxUnavailable 1', 2, ds(1), 1, 0],
    ['two nodes, 50%', 2, ds('50%'), 1, 0],
    ['two nodes, 0 and 0: one at a time', 2, ds(0), 1, 0],
    ['ten nodes, 25% rounds up', 10, ds('25%'), 3, 0],
    ['two nodes, surge 1', 2, ds(0, 1), 0, 1],
    ['ten nodes, surge 25%', 10, ds(0, '25%'), 0, 3],
  ] as const)('%s', (_name, n, d, wantUnavailable, wantSurge) => {
    const r = updatedDesiredNodeCounts(d, nodes(n), new Map());
    expect([r.maxUnavailable, r.maxSurge, r.desiredNumberScheduled]).toEqual([wantUnavailable, wantSurge, n]);
  });
});
