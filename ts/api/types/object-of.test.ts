import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KubeObject } from '../meta.js';
import type { CustomResourceDefinition } from './apiextensions/v1.js';
import type { Deployment } from './apps/v1.js';
import type { HorizontalPodAutoscaler as HPAv1 } from './autoscaling/v1.js';
import type { HorizontalPodAutoscaler as HPAv2 } from './autoscaling/v2.js';
import type { Pod, PodList } from './core/v1.js';
import type { Kinds } from './kinds.js';
import type { ApiVersionKind, ObjectOf, ObjectOfKind } from './object-of.js';

describe('the kind table', () => {
  it('maps apiVersion/Kind to the generated type', () => {
    expectTypeOf<Kinds['v1/Pod']>().toEqualTypeOf<Pod>();
    expectTypeOf<Kinds['v1/PodList']>().toEqualTypeOf<PodList>();
    expectTypeOf<Kinds['apps/v1/Deployment']>().toEqualTypeOf<Deployment>();
    expectTypeOf<Kinds['autoscaling/v1/HorizontalPodAutoscaler']>().toEqualTypeOf<HPAv1>();
    expectTypeOf<Kinds['autoscaling/v2/HorizontalPodAutoscaler']>().toEqualTypeOf<HPAv2>();
    expectTypeOf<Kinds['apiextensions.k8s.io/v1/CustomResourceDefinition']>().toEqualTypeOf<CustomResourceDefinition>();
  });

  it('is looked up by group/version/kind, as a resource table holds them', () => {
    const pods = { group: '', version: 'v1', resource: 'pods', kind: 'Pod' } as const;
    const deployments = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' } as const;
    expectTypeOf<ApiVersionKind<typeof pods>>().toEqualTypeOf<'v1/Pod'>();
    expectTypeOf<ApiVersionKind<typeof deployments>>().toEqualTypeOf<'apps/v1/Deployment'>();
    expectTypeOf<ObjectOf<typeof pods>>().toEqualTypeOf<Pod>();
    expectTypeOf<ObjectOf<typeof deployments>>().toEqualTypeOf<Deployment>();
    expectTypeOf<ObjectOfKind<'apps/v1/Deployment'>>().toEqualTypeOf<Deployment>();
    // What the table does not hold (custom resources, a group known only at run time) is a KubeObject.
    expectTypeOf<
      ObjectOf<{ group: 'stable.example.com'; version: 'v1'; kind: 'CronTab' }>
    >().toEqualTypeOf<KubeObject>();
    expectTypeOf<ObjectOf<{ group: string; version: string; kind: string }>>().toEqualTypeOf<KubeObject>();

    // A typed getter over such a table needs no cast at its call sites.
    const get = <R extends { group: string; version: string; kind: string }>(_resource: R, o: KubeObject) =>
      o as ObjectOf<R>;
    const pod = get(pods, { kind: 'Pod', spec: { containers: [{ name: 'a' }] } });
    expectTypeOf(pod).toEqualTypeOf<Pod>();
    expect(pod.spec?.containers[0]?.name).toBe('a');
  });
});
