import { describe, expect, it } from 'vitest';
import { strategicMergePatch } from './strategic-merge.js';

const deployment = {
  metadata: { name: 'web', finalizers: ['a'], labels: { app: 'web', tier: 'fe' } },
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [
          { name: 'nginx', image: 'nginx:1.26', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] },
          { name: 'sidecar', image: 'busybox' },
        ],
        tolerations: [{ key: 'x' }],
      },
    },
  },
};

describe('strategicMergePatch', () => {
  it('merges containers by name and keeps the ones the patch does not name', () => {
    const out = strategicMergePatch(deployment, {
      spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
    }) as typeof deployment;
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] },
      { name: 'sidecar', image: 'busybox' },
    ]);
  });

  it('applies what kubectl apply sends: $setElementOrder and $patch delete', () => {
    const out = strategicMergePatch(deployment, {
      spec: {
        replicas: 3,
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'nginx' }],
            containers: [
              {
                name: 'nginx',
                env: [
                  { name: 'A', $patch: 'delete' },
                  { name: 'B', value: '2' },
                ],
              },
            ],
          },
        },
      },
    }) as typeof deployment;
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.template.spec.containers.map((c) => c.name)).toEqual(['sidecar', 'nginx']);
    expect(out.spec.template.spec.containers[1]?.env).toEqual([{ name: 'B', value: '2' }]);
  });

  it('replaces lists without a merge key, deletes with null, unions finalizers', () => {
    const out = strategicMergePatch(deployment, {
      metadata: { labels: { tier: null }, finalizers: ['b', 'a'] },
      spec: { template: { spec: { tolerations: [{ key: 'y' }] } } },
    }) as typeof deployment;
    expect(out.metadata.labels).toEqual({ app: 'web' });
    // mergeSlice orders the patch's elements as the patch does (normalizeElementOrder).
    expect(out.metadata.finalizers).toEqual(['b', 'a']);
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'y' }]);
  });

  it('honours $patch replace on a map, $deleteFromPrimitiveList and $retainKeys', () => {
    const out = strategicMergePatch(
      { a: { x: 1, y: 2 }, metadata: { finalizers: ['a', 'b'] }, s: { type: 'Recreate', rollingUpdate: { m: 1 } } },
      {
        a: { $patch: 'replace', z: 3 },
        metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] },
        s: { $retainKeys: ['type'], type: 'Recreate' },
      },
    );
    expect(out).toEqual({ a: { z: 3 }, metadata: { finalizers: ['b'] }, s: { type: 'Recreate' } });
  });
});
