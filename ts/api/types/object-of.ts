/**
 * Type-level lookups in the kind table (kinds.ts), so a typed resource table can give
 * `client.get(RESOURCES.pods, …)` the return type Pod without a cast:
 *
 *   type P = ObjectOf<{ group: ''; version: 'v1'; kind: 'Pod' }>; // corev1.Pod
 *   type D = ObjectOfKind<'apps/v1/Deployment'>; // appsv1.Deployment
 *   type C = ObjectOf<{ group: 'stable.example.com'; version: 'v1'; kind: 'CronTab' }>; // KubeObject
 */
import type { KubeObject } from '../meta.js';
import type { Kinds } from './kinds.js';

/** schema.GroupVersionKind (k8s.io/apimachinery/pkg/runtime/schema); `group` is '' for the core group. */
export type GroupVersionKind = { group: string; version: string; kind: string };

/** The kind table's key of a group/version/kind: its apiVersion, a slash, its kind (`v1/Pod`). */
export type ApiVersionKind<T extends GroupVersionKind> =
  `${T['group'] extends '' ? '' : `${T['group']}/`}${T['version']}/${T['kind']}`;

/** The type of a kind table key; KubeObject for a kind the table does not hold (a custom resource). */
export type ObjectOfKind<K extends string> = K extends keyof Kinds ? Kinds[K] : KubeObject;

/** The type of a group/version/kind: `ObjectOf<typeof RESOURCES.pods>` is Pod. */
export type ObjectOf<T extends GroupVersionKind> = ObjectOfKind<ApiVersionKind<T>>;
