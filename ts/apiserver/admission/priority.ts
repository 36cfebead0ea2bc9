/**
 * The Priority admission plugin (plugin/pkg/admission/priority/admission.go, v1.32):
 * - pod CREATE (mutating): spec.priority and spec.preemptionPolicy from spec.priorityClassName's
 *   PriorityClass, or from the globalDefault class (whose name is then written to the pod), or 0 and
 *   PreemptLowerPriority when there is none; a missing class → 403 `no PriorityClass with name x was
 *   found`; a priority or preemptionPolicy the user set that differs from the class's → 403;
 * - pod UPDATE (mutating): a body without spec.priority / preemptionPolicy keeps the stored ones
 *   (validation then refuses any change to them);
 * - PriorityClass CREATE and UPDATE (validating): only one class may be the globalDefault.
 * Subresources are ignored. The built-in system-* classes are ordinary stored objects (made at start).
 */
import type { PriorityClass } from '../../api/types/scheduling/v1.js';
import { RESOURCES } from '../../client/resources.js';
import { admissionForbidden } from './chain.js';
import type { AdmissionDeps } from './deps.js';
import { getObject, type Listed, listObjects } from './lister.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

// priority.PluginName.
export const PRIORITY = 'Priority';
// scheduling.DefaultPriorityWhenNoDefaultClassExists (pkg/apis/scheduling/types.go).
export const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;
// apiv1.PreemptLowerPriority: what getDefaultPriority gives when no class is the default.
export const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A PriorityClass as the lister hands it out (read-only, shared). */
type StoredClass = Listed<typeof RESOURCES.priorityclasses>;

const isPods = (a: AdmissionAttributes) => a.info.group === '' && a.info.resource === 'pods';
const isPriorityClasses = (a: AdmissionAttributes) =>
  a.info.group === 'scheduling.k8s.io' && a.info.resource === 'priorityclasses';

/** getDefaultPriorityClass: with several defaults (a race), the one of lowest value. */
async function defaultClass(deps: AdmissionDeps): Promise<StoredClass | undefined> {
  let found: StoredClass | undefined;
  for (const pc of await listObjects(deps, RESOURCES.priorityclasses, '')) {
    if (pc.globalDefault !== true) continue;
    if (found === undefined || (found.value ?? 0) > (pc.value ?? 0)) found = pc;
  }
  return found;
}

function specOf(pod: Obj): Obj {
  if (!isObj(pod.spec)) pod.spec = {};
  return pod.spec as Obj;
}

async function admitPod(deps: AdmissionDeps, a: AdmissionAttributes): Promise<void> {
  const pod = a.object;
  if (pod === undefined) return;
  const spec = specOf(pod);
  if (a.operation === 'UPDATE') {
    // This plugin set them on create; a body without them keeps the stored ones.
    const old = isObj(a.oldObject?.spec) ? (a.oldObject.spec as Obj) : {};
    if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
    if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) {
      spec.preemptionPolicy = old.preemptionPolicy;
    }
    return;
  }
  let priority: number;
  let preemptionPolicy: string | undefined;
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  if (className === '') {
    const dpc = await defaultClass(deps);
    if (dpc !== undefined) {
      spec.priorityClassName = dpc.metadata?.name ?? '';
      priority = dpc.value ?? 0;
      preemptionPolicy = dpc.preemptionPolicy;
    } else {
      priority = DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS;
      preemptionPolicy = PREEMPT_LOWER_PRIORITY;
    }
  } else {
    const pc = await getObject(deps, RESOURCES.priorityclasses, '', className);
    if (pc === undefined) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
    priority = pc.value ?? 0;
    preemptionPolicy = pc.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw admissionForbidden(
      a,
      `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec.priority = priority;
  if (preemptionPolicy !== undefined) {
    const given = spec.preemptionPolicy;
    if (given !== undefined && given !== null && given !== preemptionPolicy) {
      throw admissionForbidden(
        a,
        `the string value of PreemptionPolicy (${String(given)}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = preemptionPolicy;
  }
}

/** validatePriorityClass: a second globalDefault class is refused. */
async function validatePriorityClass(deps: AdmissionDeps, a: AdmissionAttributes): Promise<void> {
  const pc = a.object as Partial<PriorityClass> | undefined;
  if (pc?.globalDefault !== true) return;
  const dpc = await defaultClass(deps);
  if (dpc === undefined) return;
  const name = dpc.metadata?.name ?? '';
  if (a.operation === 'CREATE' || (a.operation === 'UPDATE' && name !== pc.metadata?.name)) {
    throw admissionForbidden(a, `PriorityClass ${name} is already marked as default. Only one default can exist`);
  }
}

export function priorityPlugin(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: PRIORITY,
    handles: (a) =>
      (a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE') && a.subresource === '',
    async admit(a) {
      if (isPods(a) && (a.operation === 'CREATE' || a.operation === 'UPDATE')) await admitPod(deps, a);
    },
    async validate(a) {
      if (isPriorityClasses(a) && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
        await validatePriorityClass(deps, a);
      }
    },
  };
}
