/**
 * The namespaced resources deleter (pkg/controller/namespace/deletion/
 * namespaced_resources_deleter.go, v1.32): empties a namespace marked for deletion of every
 * namespaced resource, writes its deletion conditions, and — once nothing is left — removes the
 * `kubernetes` finalizer through `namespaces/<name>/finalize`, which lets the apiserver delete it.
 *
 *   const deleter = new NamespacedResourcesDeleter({ client, resources, clock, onError });
 *   await deleter.delete('team-a');   // throws ResourcesRemainingError while content is going
 *
 * Differences: the resources come from the caller (the apiserver's table and the CRDs) rather than
 * discovery, and each is emptied with list + DELETE (propagationPolicy Background) rather than
 * deletecollection; the discovery conditions always read "ok".
 */

import { isConflict, isNotFound } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import type { Namespace, Pod } from '../../api/types/core/v1.js';
import type { Client } from '../../client/client.js';
import { type GroupVersionResource, RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import { deletionConditions, updateConditions } from './status-conditions.js';

// api.FinalizerKubernetes: the token this controller owns (kube-controller-manager's default).
export const FINALIZER_KUBERNETES = 'kubernetes';
// namespaced_resources_deleter.go finalizerEstimateSeconds: the wait when objects left have finalizers.
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** deletion.ResourcesRemainingError: content is still going; try again after `estimate` seconds. */
export class ResourcesRemainingError extends Error {
  override readonly name = 'ResourcesRemainingError';
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

export interface NamespacedResourcesDeleterOptions {
  client: Client;
  /** The namespaced resources to remove (one version per group and resource); read on every pass. */
  resources: readonly GroupVersionResource[];
  clock: Clock;
  /** A failed status write (the next pass writes it again). */
  onError: (err: unknown, namespace: string) => void;
}

export class NamespacedResourcesDeleter {
  constructor(private readonly options: NamespacedResourcesDeleterOptions) {}

  /** Delete: one pass over a namespace marked for deletion (the namespace read live, uncached). */
  async delete(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.options.client.get(RESOURCES.namespaces, undefined, name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    if (!ns.metadata?.deletionTimestamp) return;
    // Already finalized by us: the apiserver removes it (or other finalizers keep it).
    if (!(ns.spec?.finalizers ?? []).includes(FINALIZER_KUBERNETES)) return;
    const estimate = await this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);
    await this.finalize(ns);
  }

  /**
   * deleteAllContent: every namespaced resource emptied; the namespace's deletion conditions
   * written when they change; the estimate of seconds until the content is gone.
   */
  private async deleteAllContent(ns: Namespace): Promise<number> {
    const namespace = ns.metadata?.name ?? '';
    let estimate = 0;
    const errors: Error[] = [];
    const remaining: string[] = [];
    const byFinalizer = new Map<string, number>();
    for (const gvr of this.options.resources) {
      try {
        const result = await this.deleteAllOf(gvr, namespace);
        estimate = Math.max(estimate, result.estimate);
        if (result.remaining > 0)
          remaining.push(`${gvr.resource}.${gvr.group} has ${result.remaining} resource instances`);
        for (const [f, n] of result.finalizers) byFinalizer.set(f, (byFinalizer.get(f) ?? 0) + n);
      } catch (err) {
        errors.push(err instanceof Error ? err : new Error(String(err)));
      }
    }
    const conditions = deletionConditions(remaining, byFinalizer, errors);
    if (updateConditions(ns, conditions, rfc3339(this.options.clock.now()))) {
      try {
        await this.options.client.updateStatus(RESOURCES.namespaces, undefined, ns);
      } catch (err) {
        // HandleError: the next sync writes them again.
        this.options.onError(err, namespace);
      }
    }
    if (errors.length > 0) throw errors[0];
    return estimate;
  }

  /** deleteAllContentForGroupVersionResource: what is left, and the estimate of seconds until it goes. */
  private async deleteAllOf(
    gvr: GroupVersionResource,
    namespace: string,
  ): Promise<{ estimate: number; remaining: number; finalizers: Map<string, number> }> {
    const { client } = this.options;
    const isPods = gvr.group === '' && gvr.resource === 'pods';
    const list = await client.list(gvr, { namespace });
    const graceEstimate = isPods ? estimateGracefulTermination(list.items as Pod[]) : 0;
    for (const item of list.items) {
      try {
        await client.delete(gvr, namespace, item.metadata?.name ?? '', { propagationPolicy: 'Background' });
      } catch (err) {
        if (!(isNotFound(err) || isConflict(err))) throw err;
      }
    }
    const left = (await client.list(gvr, { namespace })).items;
    const finalizers = new Map<string, number>();
    if (left.length === 0) return { estimate: 0, remaining: 0, finalizers };
    for (const o of left) for (const f of o.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    if (graceEstimate !== 0) return { estimate: graceEstimate, remaining: left.length, finalizers };
    // Finalizers are a normal reason to wait: the garbage collector (or another owner) removes them.
    if (finalizers.size > 0) return { estimate: FINALIZER_ESTIMATE_SECONDS, remaining: left.length, finalizers };
    throw new Error(
      `unexpected items still remain in namespace: ${namespace} for gvr: ${gvr.group}/${gvr.version}, Resource=${gvr.resource}`,
    );
  }

  /** finalizeNamespace: spec.finalizers without ours, retried on conflict with a fresh read. */
  private async finalize(ns: Namespace): Promise<void> {
    const { client } = this.options;
    let current = ns;
    for (let attempt = 0; ; attempt++) {
      const next: Namespace = {
        ...current,
        spec: {
          ...current.spec,
          finalizers: [...new Set((current.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES))].sort(),
        },
      };
      try {
        await client.finalizeNamespace(next);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err) || attempt >= 4) throw err;
        current = await client.get(RESOURCES.namespaces, undefined, ns.metadata?.name ?? '');
      }
    }
  }
}

/** estimateGracefulTerminationForPods: the longest grace period of a pod not yet terminated. */
function estimateGracefulTermination(pods: readonly Pod[]): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = pod.spec?.terminationGracePeriodSeconds ?? 0;
    if (grace > estimate) estimate = grace;
  }
  return estimate;
}
