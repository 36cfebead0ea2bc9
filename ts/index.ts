/**
 * kubewasm for Node.js: the loader, the typed wasm API, and the Kubernetes API types as Go code
 * names them (`corev1.Pod`, `appsv1.Deployment`, `metav1.ObjectMeta`, `ObjectOf`, `DeepReadonly`:
 * ts/api/types).
 */

export type * from './api/types/index.js';
export { loadKubewasm } from './wasm/node.js';
export * from './wasm/public.js';
