/**
 * The namespace controller (pkg/controller/namespace/namespace_controller.go and
 * deletion/namespaced_resources_deleter.go, v1.32): a namespace with a deletionTimestamp is emptied
 * of every namespaced resource, then its `kubernetes` finalizer is removed through
 * `namespaces/<name>/finalize`, which lets the apiserver delete it.
 *
 *   const nc = new NamespaceController({ client, resources, clock });
 *   await nc.start();  …  await nc.stop();
 *
 * Differences: the resources come from the caller (the apiserver's table) rather than discovery,
 * and each is emptied with list + DELETE (propagationPolicy Background) rather than
 * deletecollection; the deletion conditions (NamespaceContentRemaining, …) are written as
 * status_condition_utils.go words them, the discovery ones always in their "ok" form.
 */
import type { KubeObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import { isApiError } from '../client/errors.js';
import { objectKey } from '../client/informers/keys.js';
import { SharedIndexInformer as Informer } from '../client/informers/shared-informer.js';
import { type GroupVersionResource, RESOURCES } from '../client/resources.js';
import { WorkQueue } from '../client/workqueue.js';
import { type Clock, realClock } from '../sim/clock.js';

// api.FinalizerKubernetes: the token this controller owns (kube-controller-manager's default).
export const FINALIZER_KUBERNETES = 'kubernetes';
// namespace_controller.go namespaceDeletionGracePeriod: wait before the first sync of a deletion
// so every apiserver has observed it.
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;
// namespaced_resources_deleter.go finalizerEstimateSeconds: the wait when objects left have finalizers.
export const FINALIZER_ESTIMATE_SECONDS = 15;
// kube-controller-manager --concurrent-namespace-syncs default.
export const DEFAULT_WORKERS = 10;

interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

interface PodLike extends KubeObject {
  spec?: { terminationGracePeriodSeconds?: number };
  status?: { phase?: string };
}

/** deletion.ResourcesRemainingError: content is still going; try again after `estimate` seconds. */
export class ResourcesRemainingError extends Error {
  override readonly name = 'ResourcesRemainingError';
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
  }
}

export interface NamespaceControllerOptions {
  client: Client;
  /** The namespaced resources to remove (one version per group and resource). */
  resources: readonly GroupVersionResource[];
  clock?: Clock;
  workers?: number;
  /** Delay before the first sync of a namespace marked for deletion. */
  deletionGracePeriodMs?: number;
  onError?: (err: unknown, namespace: string) => void;
}

export class NamespaceController {
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly informer: Informer<Namespace>;
  private readonly queue: WorkQueue<string>;
  private readonly resources: readonly GroupVersionResource[];
  private readonly graceMs: number;
  private readonly workers: number;
  private readonly onError: (err: unknown, namespace: string) => void;
  private running: Promise<void>[] = [];

  constructor(options: NamespaceControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.resources = options.resources;
    this.graceMs = options.deletionGracePeriodMs ?? NAMESPACE_DELETION_GRACE_PERIOD_MS;
    this.workers = options.workers ?? DEFAULT_WORKERS;
    this.onError = options.onError ?? ((err, ns) => console.error(`namespace controller: ${ns}:`, err));
    this.queue = new WorkQueue<string>({ clock: this.clock });
    this.informer = new Informer<Namespace>(this.client, RESOURCES.namespaces, { clock: this.clock });
    const enqueue = (ns: Namespace) => {
      if (ns.metadata?.deletionTimestamp) this.queue.addAfter(objectKey(ns), this.graceMs);
    };
    this.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_, ns) => enqueue(ns) });
  }

  /** Starts the informer and the workers; resolves once the informer has synced. */
  async start(): Promise<void> {
    this.informer.start();
    await this.informer.synced();
    for (let i = 0; i < this.workers; i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.informer.stop();
    await Promise.all(this.running);
    this.running = [];
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.sync(key);
        this.queue.forget(key);
      } catch (err) {
        if (err instanceof ResourcesRemainingError) {
          // namespace_controller.go: come back after half the estimate, plus a second.
          this.queue.addAfter(key, (Math.floor(err.estimate / 2) + 1) * 1000);
        } else {
          this.onError(err, key);
          this.queue.addRateLimited(key);
        }
      } finally {
        this.queue.done(key);
      }
    }
  }

  /** namespacedResourcesDeleter.Delete for one namespace (exported for tests). */
  async sync(name: string): Promise<void> {
    let ns: Namespace;
    try {
      ns = await this.client.get<Namespace>(RESOURCES.namespaces, undefined, name);
    } catch (err) {
      if (isApiError(err) && err.code === 404) return;
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
    for (const gvr of this.resources) {
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
    if (updateConditions(ns, conditions, rfc3339(this.clock.now()))) {
      try {
        await this.client.updateStatus(RESOURCES.namespaces, undefined, ns);
      } catch (err) {
        // HandleError: the next sync writes them again.
        this.onError(err, namespace);
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
    const isPods = gvr.group === '' && gvr.resource === 'pods';
    const list = await this.client.list(gvr, { namespace });
    const graceEstimate = isPods ? estimateGracefulTermination(list.items as PodLike[]) : 0;
    for (const item of list.items) {
      try {
        await this.client.delete(gvr, namespace, item.metadata?.name ?? '', { propagationPolicy: 'Background' });
      } catch (err) {
        if (!(isApiError(err) && (err.code === 404 || err.code === 409))) throw err;
      }
    }
    const left = (await this.client.list(gvr, { namespace })).items;
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
        await this.client.finalizeNamespace(next);
        return;
      } catch (err) {
        if (isApiError(err) && err.code === 404) return;
        if (!(isApiError(err) && err.code === 409) || attempt >= 4) throw err;
        current = await this.client.get<Namespace>(RESOURCES.namespaces, undefined, ns.metadata?.name ?? '');
      }
    }
  }
}

/** estimateGracefulTerminationForPods: the longest grace period of a pod not yet terminated. */
function estimateGracefulTermination(pods: readonly PodLike[]): number {
  let estimate = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = pod.spec?.terminationGracePeriodSeconds ?? 0;
    if (grace > estimate) estimate = grace;
  }
  return estimate;
}

interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

// deletion/status_condition_utils.go: the conditions the deleter maintains and their "ok" forms.
const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
const OK: Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: {
    reason: 'ContentHasNoFinalizers',
    message: 'All content-preserving finalizers finished',
  },
};

/** ProcessContentTotals + ProcessDeleteContentErr: the failing conditions of one pass. */
function deletionConditions(
  remaining: string[],
  byFinalizer: ReadonlyMap<string, number>,
  errors: readonly Error[],
): NamespaceCondition[] {
  const out: NamespaceCondition[] = [];
  if (errors.length > 0) {
    const msgs = errors.map((e) => e.message).sort();
    out.push({
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${errors.length} remaining: ${msgs.join(', ')}`,
    });
  }
  if (remaining.length > 0) {
    out.push({
      type: 'NamespaceContentRemaining',
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${[...remaining].sort().join(', ')}`,
    });
  }
  const finalizers = [...byFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`);
  if (finalizers.length > 0) {
    out.push({
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers.sort().join(', ')}`,
    });
  }
  return out;
}

/** updateConditions: every maintained type set to its failing or ok form; true when something changed. */
function updateConditions(ns: Namespace, failing: readonly NamespaceCondition[], now: string): boolean {
  ns.status ??= {};
  const status = ns.status;
  status.conditions ??= [];
  const conditions = status.conditions;
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const next = failing.find((c) => c.type === type) ?? { type, status: 'False' as const, ...OK[type] };
    const old = conditions.find((c) => c.type === type);
    if (old === undefined) {
      conditions.push({ ...next, lastTransitionTime: now });
      changed = true;
    } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
      if (old.status !== next.status) old.lastTransitionTime = now;
      old.status = next.status;
      old.reason = next.reason;
      old.message = next.message;
      changed = true;
    }
  }
  return changed;
}

/** metav1.Time: RFC 3339 at second precision. */
function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
