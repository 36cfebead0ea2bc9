/**
 * The quota registry (pkg/quota/v1/evaluator/core/registry.go and pkg/quota/v1/install/registry.go,
 * v1.32): pods and services have their own evaluators; configmaps, secrets, resourcequotas and
 * replicationcontrollers count objects under `count/<resource>` and their legacy name; every other
 * resource counts as `count/<resource>.<group>` (the evaluator admission adds on first use and the
 * controller adds for each discovered resource). Ignored resources are never quota-ed.
 */
import { type Evaluator, objectCountEvaluator } from './evaluator.js';
import { podEvaluator } from './pods.js';
import { serviceEvaluator } from './services.js';

// registry.go legacyObjectCountAliases.
const LEGACY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['configmaps', 'configmaps'],
  ['resourcequotas', 'resourcequotas'],
  ['replicationcontrollers', 'replicationcontrollers'],
  ['secrets', 'secrets'],
]);

// install/registry.go ignoredResources (group/resource); the scheduling explanation is never stored.
const IGNORED = new Set([
  '/bindings',
  '/componentstatuses',
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  '/events',
  'events.k8s.io/events',
  'scheduling.kubewasm.io/schedulingexplanations',
]);

export const isIgnoredResource = (group: string, resource: string): boolean => IGNORED.has(`${group}/${resource}`);

export class QuotaRegistry {
  private readonly evaluators = new Map<string, Evaluator>();

  constructor() {
    for (const e of [podEvaluator(), serviceEvaluator()]) this.add(e);
    for (const [resource, alias] of LEGACY_ALIASES) this.add(objectCountEvaluator('', resource, alias));
  }

  private add(e: Evaluator): void {
    this.evaluators.set(`${e.group}/${e.resource}`, e);
  }

  /** The evaluator of a resource, a generic object count evaluator created when there is none. */
  get(group: string, resource: string): Evaluator {
    const key = `${group}/${resource}`;
    let e = this.evaluators.get(key);
    if (e === undefined) {
      e = objectCountEvaluator(group, resource);
      this.evaluators.set(key, e);
    }
    return e;
  }

  /** The evaluators known so far (the controller first calls `get` for each resource it monitors). */
  list(): Evaluator[] {
    return [...this.evaluators.values()];
  }
}
