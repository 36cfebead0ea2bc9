/**
 * The daemon set strategy (pkg/registry/apps/daemonset/strategy.go, v1.32): SetDefaults_DaemonSet
 * (pkg/apis/apps/v1/defaults.go) with the pod template's defaults, the zero status, and the
 * template generation, kept in the deprecated.daemonset.template.generation annotation by the
 * apps/v1 conversion.
 */
import { applyTemplateDefaults } from '../../core/pods/defaults.js';
import { keepStoredStatus, startStatus } from '../../generic/default-strategy.js';
import { child, isObj, type Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

function defaultDaemonSet(o: Obj): void {
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
function daemonSetCreated(o: Obj): void {
  setTemplateGeneration(o, Math.max(templateGeneration(o), 1));
}

/** daemonSetStrategy.PrepareForUpdate: a changed template gets the next template generation. */
function daemonSetUpdated(o: Obj, old: Obj): void {
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

export const daemonSetStrategy: ResourceStrategy = {
  defaults: defaultDaemonSet,
  prepareForCreate(obj, info) {
    // The zero DaemonSetStatus as Go serializes it: the counts have no omitempty.
    startStatus(info, obj, {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    daemonSetCreated(obj as Obj);
  },
  update: {
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      daemonSetUpdated(obj as Obj, old as Obj);
    },
  },
};
