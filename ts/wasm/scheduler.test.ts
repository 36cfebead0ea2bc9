import { beforeAll, describe, expect, it } from 'vitest';
import { KubewasmError } from './errors.js';
import type { Kubewasm } from './kubewasm.js';
import { loadKubewasm } from './node.js';

let kw: Kubewasm;
beforeAll(async () => {
  kw = await loadKubewasm();
});

const node = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '4', memory: '32Gi', pods: '110' } },
  ...extra,
});
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  spec: {
    containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '100m', memory: '500Mi' } } }],
    ...spec,
  },
});

function thrown(call: () => unknown): KubewasmError {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(KubewasmError);
    return err as KubewasmError;
  }
  throw new Error('expected the call to throw');
}

describe('the scheduler engine through wasm', () => {
  it('places a batch of pods, assuming each before the next', () => {
    const engine = kw.newScheduler(undefined, 7n);
    engine.upsertNodes([
      node('n1'),
      node('n2', { spec: { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] } }),
    ]);
    const placements = engine.scheduleBatch([{ pod: pod('a') }, { pod: pod('b') }]);
    expect(placements.map((p) => p.node)).toEqual(['n1', 'n1']);
    expect(placements[0]).toMatchObject({ pod: 'default/a', evaluatedNodes: 2, feasibleNodes: 1 });
    engine.free();
  });

  it("writes kube-scheduler's FailedScheduling message", () => {
    const engine = kw.newScheduler({ plugins: { postFilter: { disabled: [{ name: 'DefaultPreemption' }] } } });
    engine.upsertNodes([node('n1'), node('n2', { spec: { unschedulable: true } })]);
    const [placement] = engine.scheduleBatch([
      { pod: pod('big', { containers: [{ name: 'c', resources: { requests: { cpu: '5' } } }] }) },
    ]);
    expect(placement?.node).toBeUndefined();
    expect(placement?.message).toBe('0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.');
    engine.free();
  });

  it('names the plugins that rejected a pod that fits nowhere', () => {
    const engine = kw.newScheduler();
    engine.upsertNodes([node('n1'), node('n2', { spec: { unschedulable: true } })]);
    const [big, small] = engine.scheduleBatch([
      { pod: pod('big', { containers: [{ name: 'c', resources: { requests: { cpu: '5' } } }] }) },
      { pod: pod('small') },
    ]);
    expect(big?.unschedulablePlugins).toEqual(['NodeResourcesFit', 'NodeUnschedulable']);
    expect(small?.node).toBe('n1');
    expect(small?.unschedulablePlugins).toBeUndefined();
    engine.free();
    const empty = kw.newScheduler();
    const [alone] = empty.scheduleBatch([{ pod: pod('alone') }]);
    expect(alone).toMatchObject({ message: 'no nodes available to schedule pods' });
    expect(alone?.unschedulablePlugins).toBeUndefined();
    empty.free();
  });

  it("hands over the events its profile's plugins registered", () => {
    const full = kw.newScheduler();
    expect(full.eventsToRegister().TaintToleration).toEqual([{ resource: 'Node', actionType: 1 | 16 | 8 }]);
    // Score-only plugins register no enqueue extensions.
    expect(full.eventsToRegister().ImageLocality).toBeUndefined();
    const lax = kw.newScheduler({ plugins: { multiPoint: { disabled: [{ name: 'TaintToleration' }] } } });
    expect(lax.eventsToRegister().TaintToleration).toBeUndefined();
    expect(lax.eventsToRegister().NodeResourcesFit).toEqual(full.eventsToRegister().NodeResourcesFit);
    full.free();
    lax.free();
  });

  it('explains every node per plugin without changing anything', () => {
    const engine = kw.newScheduler();
    engine.upsertNodes([node('n1'), node('n2')]);
    engine.addPods([pod('old', { nodeName: 'n1' })]);
    const explanation = engine.explain({ pod: pod('new') });
    expect(explanation.nodes.map((n) => n.node).sort()).toEqual(['n1', 'n2']);
    expect(explanation.chosen).toBe('n2'); // less allocated
    const n2 = explanation.nodes.find((n) => n.node === 'n2');
    const fit = n2?.scores.find((s) => s.plugin === 'NodeResourcesFit');
    expect(fit).toMatchObject({ weight: 1, skipped: false });
    expect(n2?.total).toBe(n2?.scores.reduce((sum, s) => sum + s.weighted, 0));
    // Nothing was assumed: scheduling the same pod now still sees both nodes free of it.
    expect(engine.scheduleBatch([{ pod: pod('new') }])[0]?.node).toBe('n2');
    engine.free();
  });

  it('really disables a default plugin when the profile says so', () => {
    const tainted = node('n1', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } });
    const strict = kw.newScheduler();
    strict.upsertNodes([tainted]);
    expect(strict.scheduleBatch([{ pod: pod('p') }])[0]?.node).toBeUndefined();
    const lax = kw.newScheduler({ plugins: { multiPoint: { disabled: [{ name: 'TaintToleration' }] } } });
    lax.upsertNodes([tainted]);
    expect(lax.scheduleBatch([{ pod: pod('p') }])[0]?.node).toBe('n1');
    strict.free();
    lax.free();
  });

  it('rejects bad input with stable codes and keeps working', () => {
    const engine = kw.newScheduler();
    expect(
      thrown(() => engine.upsertNodes([{ metadata: { name: 'x' }, status: { allocatable: { cpu: 'lots' } } }])).code,
    ).toBe('E_INVALID_FIELD');
    expect(
      thrown(() => kw.newScheduler({ plugins: { multiPoint: { enabled: [{ name: 'NoSuchPlugin' }] } } })).code,
    ).toBe('E_UNKNOWN_PLUGIN');
    expect(thrown(() => engine.removeNode('ghost')).code).toBe('E_UNKNOWN_NODE');
    const badSelector = pod('p', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchExpressions: [{ key: 'app', operator: 'Near' }] }, topologyKey: 'x' },
          ],
        },
      },
    });
    const [placement] = engine.scheduleBatch([{ pod: badSelector }]);
    expect(placement?.error?.code).toBe('E_INVALID_SELECTOR');
    engine.upsertNodes([node('n1')]);
    expect(engine.scheduleBatch([{ pod: pod('ok') }])[0]?.node).toBe('n1');
    engine.free();
  });
});
