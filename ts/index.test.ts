import { describe, expectTypeOf, it } from 'vitest';
import type { Deployment } from './api/types/apps/v1.js';
import type { Pod } from './api/types/core/v1.js';
import type { ObjectMeta } from './api/types/meta/v1.js';
import type * as browser from './browser.js';
import type { appsv1, corev1, DeepReadonly, metav1, ObjectOf } from './index.js';

// Type-only: what a `kubewasm` import gives TypeScript users besides the runtime entry points.
describe('the package entry points', () => {
  it('export the Kubernetes API types as Go code names them', () => {
    expectTypeOf<corev1.Pod>().toEqualTypeOf<Pod>();
    expectTypeOf<metav1.ObjectMeta>().toEqualTypeOf<ObjectMeta>();
    expectTypeOf<ObjectOf<{ group: 'apps'; version: 'v1'; kind: 'Deployment' }>>().toEqualTypeOf<appsv1.Deployment>();
    expectTypeOf<DeepReadonly<Pod>['metadata']>().toEqualTypeOf<DeepReadonly<ObjectMeta> | undefined>();
    expectTypeOf<browser.appsv1.Deployment>().toEqualTypeOf<Deployment>();
  });
});
