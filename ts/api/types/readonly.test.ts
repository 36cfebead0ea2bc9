import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeObject } from '../meta.js';
import type { Container, Pod } from './core/v1.js';
import type { Time } from './meta/v1.js';
import { type DeepReadonly, deepCopy } from './readonly.js';

describe('DeepReadonly', () => {
  it('makes an object read-only all the way down', () => {
    const pod: DeepReadonly<Pod> = {
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', ports: [{ containerPort: 80 }] }] },
    };
    // @ts-expect-error a read-only view's fields cannot be set
    pod.metadata = {};
    // @ts-expect-error nor their maps
    if (pod.metadata?.labels) pod.metadata.labels.app = 'db';
    // @ts-expect-error nor arrays, at any depth
    pod.spec?.containers[0]?.ports?.push({ containerPort: 81 });
    expect(pod.spec?.containers[0]?.name).toBe('nginx');
  });

  it('keeps optional fields optional, unions and primitives as they are', () => {
    expectTypeOf<DeepReadonly<Pod>['kind']>().toEqualTypeOf<'Pod' | undefined>();
    expectTypeOf<DeepReadonly<{ t?: Time | null }>>().toEqualTypeOf<{ readonly t?: Time | null }>();
    expectTypeOf<DeepReadonly<Container[]>>().toEqualTypeOf<readonly DeepReadonly<Container>[]>();
    expectTypeOf<DeepReadonly<string>>().toEqualTypeOf<string>();
    expectTypeOf<DeepReadonly<unknown>>().toEqualTypeOf<unknown>();
  });

  it('passes where a read-only KubeObject is asked for; a mutable object passes as a read-only one', () => {
    expectTypeOf<DeepReadonly<Pod>>().toExtend<DeepReadonly<KubeObject>>();
    expectTypeOf<Pod>().toExtend<DeepReadonly<Pod>>();
    // A read-only view cannot be handed on as a mutable object (its arrays are read-only): copy it first.
    expectTypeOf<DeepReadonly<Pod>>().not.toExtend<KubeObject>();
    expectTypeOf<DeepReadonly<Pod>>().not.toExtend<Pod>();
  });
});

describe('deepCopy', () => {
  it('copies a read-only view into an object of its own, typed mutable again', () => {
    const cached: DeepReadonly<Pod> = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [] } };
    const copy = deepCopy(cached);
    expectTypeOf(copy).toMatchTypeOf<Pod>();
    copy.metadata = { ...copy.metadata, labels: { app: 'db' } };
    copy.spec?.containers.push({ name: 'nginx' });
    expect(cached).toEqual({ metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [] } });
    expect(copy.spec?.containers).toEqual([{ name: 'nginx' }]);
  });
});
