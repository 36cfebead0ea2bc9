/**
 * The ResourceQuota admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/
 * resourcequota/admission.go, v1.32): validating, last in the chain. Creates and updates of
 * namespaced objects (not subresources, not namespaces) are checked against the namespace's quotas
 * and charged to their status.used before the object is stored.
 *
 *   const plugin = resourceQuotaPlugin({ storage, informers, clock });
 */

import { isIgnoredResource, QuotaRegistry } from '../../../quota/registry.js';
import type { Clock } from '../../../sim/clock.js';
import type { ListerSource } from '../lister.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../types.js';
import { QuotaAccessor } from './quota-access.js';
import { QuotaEvaluator } from './quota-evaluator.js';

// admission.go PluginName.
export const PLUGIN_NAME = 'ResourceQuota';

export { QuotaRegistry } from '../../../quota/registry.js';

export function resourceQuotaPlugin(deps: ListerSource & { clock?: Clock }): AdmissionPlugin {
  const evaluator = new QuotaEvaluator(new QuotaAccessor(deps), new QuotaRegistry(), deps.clock);
  const handles = (a: AdmissionAttributes): boolean =>
    // admission.NewHandler(admission.Create, admission.Update); subresources, cluster-scoped objects
    // and namespace creation are never quota-ed; ignored resources neither.
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    a.subresource === '' &&
    a.namespace !== '' &&
    !(a.operation === 'CREATE' && a.info.group === '' && a.info.kind === 'Namespace') &&
    !isIgnoredResource(a.info.group, a.info.resource);
  return {
    name: PLUGIN_NAME,
    handles,
    validate: (a) => (handles(a) ? evaluator.evaluate(a) : Promise.resolve()),
  };
}
