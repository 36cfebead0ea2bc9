/**
 * CheckRequest (staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go,
 * v1.32): whether one write fits every quota that matches it, and the quotas' usage if it is
 * admitted. Pure: the caller persists the new usage.
 *
 * Refusals are admission.NewForbidden (`pods "p" is forbidden: exceeded quota: compute, requested:
 * pods=1, used: pods=10, limited: pods=10`). No admission configuration file is read, so there
 * are no limitedResources (nothing is limited by default), as kube-apiserver without
 * --admission-control-config-file.
 */
import { newForbidden, type StatusError } from '../../../api/status.js';
import type { Evaluator } from '../../../quota/evaluator.js';
import { isObj, objAt } from '../../../quota/pod-resources.js';
import type { Quota } from '../../../quota/quota.js';
import {
  add,
  equals,
  lessThanOrEqual,
  mask,
  negativeNames,
  prettyPrint,
  prettyPrintResourceNames,
  type ResourceList,
  removeZeros,
  subtractNonNegative,
} from '../../../quota/resource-list.js';
import type { AdmissionAttributes } from '../types.js';

type Obj = Record<string, unknown>;

export type CheckAttributes = Pick<
  AdmissionAttributes,
  'operation' | 'info' | 'subresource' | 'namespace' | 'name' | 'object' | 'oldObject'
>;

/** admission.NewForbidden: the name, else the object's name or generateName, else "Unknown". */
export function admissionForbidden(a: CheckAttributes, reason: string): StatusError {
  let name = a.name;
  if (name === '') {
    const meta = isObj(a.object) ? objAt(a.object, 'metadata') : {};
    name =
      typeof meta.name === 'string' && meta.name !== ''
        ? meta.name
        : typeof meta.generateName === 'string' && meta.generateName !== ''
          ? meta.generateName
          : 'Unknown';
  }
  return newForbidden({ group: a.info.group, resource: a.info.resource }, name, reason);
}

/** hasUsageStats: every hard resource of interest has a used value. */
function hasUsageStats(quota: Quota, interesting: readonly string[]): boolean {
  const set = new Set(interesting);
  for (const name of quota.hard.keys()) if (set.has(name) && !quota.used.has(name)) return false;
  return true;
}

/**
 * The quotas as they would be with `a` admitted (the same array when nothing changes); throws the
 * 403 when `a` does not fit.
 */
export function checkRequest(quotas: readonly Quota[], a: CheckAttributes, evaluator: Evaluator, now: number): Quota[] {
  const input = a.object;
  if (!evaluator.handles(a) || input === undefined) return [...quotas];

  const interesting: number[] = [];
  for (let i = 0; i < quotas.length; i++) {
    const quota = quotas[i] as Quota;
    if (!evaluator.matches(quota, input)) continue;
    const restricted = evaluator.matchingResources(quota.hard.keys());
    const failed = evaluator.constraints(restricted, input);
    if (failed !== undefined) throw admissionForbidden(a, `failed quota: ${quota.name}: ${failed}`);
    if (!hasUsageStats(quota, restricted)) {
      throw admissionForbidden(
        a,
        `status unknown for quota: ${quota.name}, resources: ${prettyPrintResourceNames(restricted)}`,
      );
    }
    interesting.push(i);
  }

  // The object's namespace is the request's when it names none (usage may depend on it).
  let object: Obj = input;
  if (a.namespace !== '' && isObj(input.metadata) && !input.metadata.namespace) {
    object = { ...input, metadata: { ...input.metadata, namespace: a.namespace } };
  }
  const inputUsage = evaluator.usage(object, now);
  const negative = negativeNames(inputUsage);
  if (negative.length > 0) {
    throw admissionForbidden(a, `quota usage is negative for resource(s): ${prettyPrintResourceNames(negative)}`);
  }

  const deltas = new Map<number, ResourceList>(interesting.map((i) => [i, inputUsage]));
  if (a.operation === 'UPDATE') {
    const prev = a.oldObject;
    if (prev === undefined) {
      throw admissionForbidden(a, 'unable to get previous usage since prior version of object was not found');
    }
    // Not a create-on-update: charge only the difference.
    const rv = objAt(prev, 'metadata').resourceVersion;
    if (typeof rv === 'string' && rv !== '') {
      const delta = subtractNonNegative(inputUsage, evaluator.usage(prev, now));
      for (const i of interesting) if (evaluator.matches(quotas[i] as Quota, prev)) deltas.set(i, delta);
    }
  }
  for (const [i, delta] of deltas) {
    const nonZero = removeZeros(delta);
    if (nonZero.size === 0) deltas.delete(i);
    else deltas.set(i, nonZero);
  }
  if (interesting.length === 0 || deltas.size === 0) return [...quotas];

  const out = [...quotas];
  for (const i of interesting) {
    const delta = deltas.get(i);
    if (delta === undefined) continue;
    const quota = out[i] as Quota;
    const requested = mask(delta, quota.hard.keys());
    const newUsage = add(quota.used, requested);
    if (a.subresource !== 'status') {
      const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, requested.keys()), quota.hard);
      if (!allowed) {
        throw admissionForbidden(
          a,
          `exceeded quota: ${quota.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(
            mask(quota.used, exceeded),
          )}, limited: ${prettyPrint(mask(quota.hard, exceeded))}`,
        );
      }
    }
    out[i] = { ...quota, used: newUsage };
  }
  return out;
}

/** Whether two quota lists (same order) differ in any usage. */
export function usageChanged(before: readonly Quota[], after: readonly Quota[]): boolean {
  return before.some((q, i) => !equals(q.used, (after[i] as Quota).used));
}
