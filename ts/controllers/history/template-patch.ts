/**
 * The data a workload's ControllerRevision holds (pkg/controller/daemon/update.go and
 * pkg/controller/statefulset/stateful_set_utils.go getPatch at v1.32, the same in both): the pod
 * template as a strategic merge patch `{"spec":{"template":{…,"$patch":"replace"}}}` — what
 * `kubectl rollout undo` applies — and, back, the template a revision restores (ApplyRevision).
 *
 *   const data = templatePatch(set.spec.template);            // canonical JSON text
 *   const restored = applyTemplatePatch(set, revision.data);  // the set with that template
 */
import type { PodTemplateSpec } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { canonicalJson } from '../deployment/util/hash.js';

/**
 * getPatch: the template with `$patch: replace`, as canonical JSON (Go marshals the map with its
 * keys sorted; null members are dropped as the stored object has none).
 */
export function templatePatch(template: DeepReadonly<PodTemplateSpec> | undefined): string {
  const copy = { ...(structuredClone(template ?? {}) as Record<string, unknown>), $patch: 'replace' };
  return canonicalJson({ spec: { template: copy } });
}

/**
 * ApplyRevision: `obj` with its spec.template replaced by the revision's. The strategic merge of a
 * `$patch: replace` template is exactly that replacement; a revision without a template leaves it.
 */
export function applyTemplatePatch<T extends { spec?: { template?: PodTemplateSpec } }>(
  obj: DeepReadonly<T>,
  data: unknown,
): T {
  const clone = structuredClone(obj) as T;
  const template = (data as { spec?: { template?: Record<string, unknown> } } | null | undefined)?.spec?.template;
  if (template === undefined || template === null) return clone;
  const { $patch: _replace, ...rest } = structuredClone(template);
  clone.spec = { ...(clone.spec ?? {}), template: rest as PodTemplateSpec };
  return clone;
}
