/**
 * Every built-in resource's strategy, found by group and resource (registry/strategy.ts says what
 * a strategy is; each lives in registry/<group>/<resource>/), custom resources' from crd/'s
 * CustomResourceDefinitions; a resource without one has the generic steps
 * (generic/default-strategy.ts). Adding a built-in kind with rules of its own adds a line here.
 */
import type { ErrorList } from '../../api/field-errors.js';
import type { KubeObject } from '../../api/meta.js';
import { customResourceDefinitionStrategy } from './apiextensions/customresourcedefinitions/strategy.js';
import { customResourceStrategy } from './apiextensions/customresources/strategy.js';
import { daemonSetStrategy } from './apps/daemonsets/strategy.js';
import { deploymentStrategy } from './apps/deployments/strategy.js';
import { replicaSetStrategy } from './apps/replicasets/strategy.js';
import { statefulSetStrategy } from './apps/statefulsets/strategy.js';
import { horizontalPodAutoscalerStrategy } from './autoscaling/horizontalpodautoscalers/strategy.js';
import { cronJobStrategy } from './batch/cronjobs/strategy.js';
import { jobStrategy } from './batch/jobs/strategy.js';
import { configMapStrategy } from './core/configmaps/strategy.js';
import { endpointsStrategy } from './core/endpoints/strategy.js';
import { eventStrategy } from './core/events/strategy.js';
import { limitRangeStrategy } from './core/limitranges/strategy.js';
import { namespaceStrategy } from './core/namespaces/strategy.js';
import { nodeStrategy } from './core/nodes/strategy.js';
import { persistentVolumeClaimStrategy } from './core/persistentvolumeclaims/strategy.js';
import { persistentVolumeStrategy } from './core/persistentvolumes/strategy.js';
import { podStrategy } from './core/pods/strategy.js';
import { replicationControllerStrategy } from './core/replicationcontrollers/strategy.js';
import { secretStrategy } from './core/secrets/strategy.js';
import { serviceStrategy } from './core/services/strategy.js';
import { endpointSliceStrategy } from './discovery/endpointslices/strategy.js';
import { type CompleteStrategy, completeStrategy, DEFAULT_STRATEGY } from './generic/default-strategy.js';
import type { Obj } from './objects.js';
import { podDisruptionBudgetStrategy } from './policy/poddisruptionbudgets/strategy.js';
import { clusterRoleBindingStrategy } from './rbac/clusterrolebindings/strategy.js';
import { clusterRoleStrategy } from './rbac/clusterroles/strategy.js';
import { roleBindingStrategy } from './rbac/rolebindings/strategy.js';
import { roleStrategy } from './rbac/roles/strategy.js';
import type { ResourceInfo } from './resources.js';
import { priorityClassStrategy } from './scheduling/priorityclasses/strategy.js';
import { storageClassStrategy } from './storage/storageclasses/strategy.js';
import type { ResourceStrategy, UpdateMode } from './strategy.js';

/** The strategies, by `<group>/<resource>`. */
const STRATEGIES: Readonly<Record<string, ResourceStrategy>> = {
  '/namespaces': namespaceStrategy,
  '/configmaps': configMapStrategy,
  '/secrets': secretStrategy,
  '/pods': podStrategy,
  '/nodes': nodeStrategy,
  '/services': serviceStrategy,
  '/events': eventStrategy,
  '/endpoints': endpointsStrategy,
  '/limitranges': limitRangeStrategy,
  '/replicationcontrollers': replicationControllerStrategy,
  '/persistentvolumeclaims': persistentVolumeClaimStrategy,
  '/persistentvolumes': persistentVolumeStrategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'discovery.k8s.io/endpointslices': endpointSliceStrategy,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
  'scheduling.k8s.io/priorityclasses': priorityClassStrategy,
  'storage.k8s.io/storageclasses': storageClassStrategy,
  'rbac.authorization.k8s.io/roles': roleStrategy,
  'rbac.authorization.k8s.io/clusterroles': clusterRoleStrategy,
  'rbac.authorization.k8s.io/rolebindings': roleBindingStrategy,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingStrategy,
  'apiextensions.k8s.io/customresourcedefinitions': customResourceDefinitionStrategy,
};

const COMPLETE: ReadonlyMap<string, CompleteStrategy> = new Map(
  Object.entries(STRATEGIES).map(([key, strategy]) => [key, completeStrategy(strategy)]),
);
const CUSTOM_RESOURCE = completeStrategy(customResourceStrategy);

/** The strategy of a served resource (a body kind such as Scale, or a kind given by group and kind alone, has the generic one). */
export function strategyFor(info: Pick<ResourceInfo, 'group'> & Partial<ResourceInfo>): CompleteStrategy {
  if (info.custom !== undefined) return CUSTOM_RESOURCE;
  return COMPLETE.get(`${info.group}/${info.resource ?? ''}`) ?? DEFAULT_STRATEGY;
}

/**
 * The scheme's defaulting of the version `info` names, as decoding applies it: to a request's
 * object before admission and the strategy see it.
 */
export function applyVersionDefaults(info: ResourceInfo, obj: Obj): void {
  strategyFor(info).defaults?.(obj, info.version);
}

/** A kind given by group and kind at least (a served resource, or a kind validated before it is served). */
type KindInfo = Pick<ResourceInfo, 'group' | 'kind'> & Partial<ResourceInfo>;

/** The kind's own checks on create (after the metadata checks). */
export function validateKind(info: KindInfo, obj: KubeObject): ErrorList {
  return strategyFor(info).validate(obj, info as ResourceInfo);
}

/**
 * The kind's own checks on an update through `mode`: the object's own (immutability, then the new
 * object's checks), the status strategy's where they are ported (the spec there is the stored one
 * and is not checked again), `/finalize`'s (none beyond metadata but a namespace's finalizer names).
 */
export function validateKindUpdate(
  info: KindInfo,
  obj: KubeObject,
  old: KubeObject,
  mode: UpdateMode = 'main',
): ErrorList {
  const strategy = strategyFor(info);
  const update = mode === 'main' ? strategy.update : mode === 'status' ? strategy.status : strategy.finalize;
  return update.validateUpdate(obj, old, info as ResourceInfo);
}
