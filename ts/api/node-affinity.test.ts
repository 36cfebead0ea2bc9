// ts/api/node-affinity.ts: component-helpers' nodeaffinity (required node affinity: nodeSelector
// AND terms ORed, requirements ANDed, matchFields on metadata.name) and the DaemonSet tolerations.
import { describe, expect, it } from 'vitest';
import { addOrUpdateTolerationInPodSpec, requiredNodeAffinityMatches } from './node-affinity.js';
import type { Node, Pod, PodSpec } from './types/core/v1.js';

const newNode = (name: string, labels: Record<string, string> = {}): Node => ({ metadata: { name, labels }, spec: {} });

describe('node-affinity.ts', () => {
  it('ANDs spec.nodeSelector with the terms', () => {
    const node = newNode('n1', { zone: 'a' });
    expect(requiredNodeAffinityMatches({ spec: { containers: [], nodeSelector: { zone: 'a' } } }, node)).toBe(true);
    expect(requiredNodeAffinityMatches({ spec: { containers: [], nodeSelector: { zone: 'b' } } }, node)).toBe(false);
    expect(requiredNodeAffinityMatches({ spec: { containers: [] } }, node)).toBe(true);
  });
  it('adds a toleration, or updates the one it matches (AddOrUpdateTolerationInPodSpec)', () => {
    const spec: PodSpec = { containers: [], tolerations: [{ key: 'a', operator: 'Exists', tolerationSeconds: 5 }] };
    expect(addOrUpdateTolerationInPodSpec(spec, { key: 'a', operator: 'Exists' })).toBe(true);
    expect(addOrUpdateTolerationInPodSpec(spec, { key: 'a', operator: 'Exists' })).toBe(false);
    expect(addOrUpdateTolerationInPodSpec(spec, { key: 'b', operator: 'Exists' })).toBe(true);
    expect(spec.tolerations).toEqual([
      { key: 'a', operator: 'Exists' },
      { key: 'b', operator: 'Exists' },
    ]);
  });
  const node = newNode('n1', { zone: 'a', size: '10' });
  const pod = (
    terms: NonNullable<
      NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>['requiredDuringSchedulingIgnoredDuringExecution']
    >['nodeSelectorTerms'],
  ): Pod => ({
    spec: {
      containers: [],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
    },
  });
  it('ORs the terms, ANDs their requirements, and an empty term matches nothing', () => {
    expect(requiredNodeAffinityMatches(pod([{}]), node)).toBe(false);
    expect(
      requiredNodeAffinityMatches(
        pod([{}, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }]),
        node,
      ),
    ).toBe(true);
    expect(
      requiredNodeAffinityMatches(
        pod([
          {
            matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }],
            matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }],
          },
        ]),
        node,
      ),
    ).toBe(false);
    expect(
      requiredNodeAffinityMatches(pod([{ matchExpressions: [{ key: 'size', operator: 'Gt', values: ['9'] }] }]), node),
    ).toBe(true);
    expect(
      requiredNodeAffinityMatches(pod([{ matchExpressions: [{ key: 'size', operator: 'Lt', values: ['9'] }] }]), node),
    ).toBe(false);
    expect(
      requiredNodeAffinityMatches(pod([{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }]), node),
    ).toBe(true);
    expect(
      requiredNodeAffinityMatches(
        pod([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n2'] }] }]),
        node,
      ),
    ).toBe(true);
  });
});
