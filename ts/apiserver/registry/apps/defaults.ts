/**
 * apps/v1: SetDefaults_Deployment, _ReplicaSet, _DaemonSet, _StatefulSet (pkg/apis/apps/v1/
 * defaults.go, v1.32, with the feature gates of a default 1.32 cluster: StatefulSetAutoDeletePVC
 * on, MaxUnavailableStatefulSet off) and the DaemonSet template generation
 * (pkg/registry/apps/daemonset/strategy.go, kept in the deprecated.daemonset.template.generation
 * annotation by the apps/v1 conversion).
 */
import { applyClaimTemplateDefaults, applyTemplateDefaults } from '../core/pods/defaults.js';
import { child, isObj, type Obj } from '../objects.js';

export function defaultDeployment(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  const strategy = child(spec, 'strategy');
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
}

export function defaultReplicaSet(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  spec.replicas ??= 1;
}

export function defaultDaemonSet(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  const strategy = child(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = child(strategy, 'rollingUpdate');
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
}

export function defaultStatefulSet(o: Obj): void {
  const spec = child(o, 'spec');
  applyTemplateDefaults(spec);
  applyClaimTemplateDefaults(spec);
  if (spec.podManagementPolicy === undefined || spec.podManagementPolicy === '') {
    spec.podManagementPolicy = 'OrderedReady';
  }
  const strategy = child(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === '') {
    strategy.type = 'RollingUpdate';
    child(strategy, 'rollingUpdate');
  }
  if (strategy.type === 'RollingUpdate' && isObj(strategy.rollingUpdate)) strategy.rollingUpdate.partition ??= 0;
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention.whenDeleted === undefined || retention.whenDeleted === '') retention.whenDeleted = 'Retain';
  if (retention.whenScaled === undefined || retention.whenScaled === '') retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
}

/** appsv1.DeprecatedTemplateGeneration. */
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

function templateGeneration(o: Obj): number {
  const annotations = (isObj(o.metadata) && isObj(o.metadata.annotations) ? o.metadata.annotations : {}) as Obj;
  const n = Number.parseInt(String(annotations[TEMPLATE_GENERATION] ?? ''), 10);
  return Number.isNaN(n) ? 0 : n;
}

function setTemplateGeneration(o: Obj, n: number): void {
  const meta = child(o, 'metadata');
  if (n === 0) {
    if (isObj(meta.annotations)) delete meta.annotations[TEMPLATE_GENERATION];
    return;
  }
  child(meta, 'annotations')[TEMPLATE_GENERATION] = String(n);
}

/** daemonSetStrategy.PrepareForCreate: the template generation starts at 1. */
export function daemonSetCreated(o: Obj): void {
  setTemplateGeneration(o, Math.max(templateGeneration(o), 1));
}

/** daemonSetStrategy.PrepareForUpdate: a changed template gets the next template generation. */
export function daemonSetUpdated(o: Obj, old: Obj): void {
  const changed =
    JSON.stringify(canonical(child(o, 'spec').template)) !== JSON.stringify(canonical(child(old, 'spec').template));
  setTemplateGeneration(o, changed ? templateGeneration(old) + 1 : templateGeneration(o));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObj(v)) return v ?? null;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical(v[k])]),
  );
}
