/**
 * The pod garbage collector (pkg/controller/podgc/gc_controller.go at v1.32): every 20 s it
 * force-deletes (grace period 0) what no kubelet will ever clean up —
 * - terminated pods (Succeeded, Failed) past --terminated-pod-gc-threshold (12,500), evicted and
 *   oldest first;
 * - terminating pods on a node that is not Ready and carries the `node.kubernetes.io/out-of-service`
 *   taint;
 * - orphans: pods bound to a node that has been gone for the 40 s quarantine (checked live, so a
 *   node the cache has not seen yet is not taken for a deleted one), marked Failed with the
 *   DisruptionTarget condition `DeletionByPodGC`;
 * - unscheduled pods being deleted (no kubelet will finish them).
 * A pod not yet terminal is patched Failed first (its uid a precondition), then deleted.
 *
 *   const gc = new PodGCController({ factory, client, clock });
 *   factory.start();
 *   await gc.run();
 */

import { isNotFound } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import type { Node, Pod, PodCondition } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { POD_GARBAGE_COLLECTOR_CONTROLLER } from '../framework/names.js';
import { Registrations } from '../framework/workers.js';

// gc_controller.go gcCheckPeriod and quarantineTime.
export const GC_CHECK_PERIOD_MS = 20_000;
export const QUARANTINE_TIME_MS = 40_000;
// podgc/config/v1alpha1/defaults.go: --terminated-pod-gc-threshold 12500.
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12_500;
// pkg/apis/core/well_known_taints.go TaintNodeOutOfService.
export const TAINT_NODE_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

type ReadonlyPod = DeepReadonly<Pod>;

export interface PodGCControllerOptions {
  /** The shared informers: pods and nodes. */
  factory: SharedInformerFactory;
  /** pod-garbage-collector's client: the status patches, deletes, live node reads. */
  client: Client;
  /** --terminated-pod-gc-threshold (0 or less: terminated pods are never collected). */
  terminatedPodThreshold?: number;
  clock?: Clock;
  /** A pod or node that could not be handled (utilruntime.HandleError). */
  onError?: (err: unknown, key: string) => void;
}

export class PodGCController implements Controller {
  readonly name = POD_GARBAGE_COLLECTOR_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly threshold: number;
  private readonly onError: (err: unknown, key: string) => void;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly handlers = new Registrations();
  /** orphaned_pods_nodes: the names of nodes pods are bound to but the cache lacks, after the quarantine. */
  private readonly nodeQueue: WorkQueue<string>;
  private stopped = false;
  private cancelTimer: () => void = () => {};
  private pass: Promise<void> = Promise.resolve();

  constructor(options: PodGCControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.threshold = options.terminatedPodThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD;
    this.onError = options.onError ?? (() => {});
    this.nodeQueue = new WorkQueue<string>({ clock: this.clock });
    this.pods = options.factory.informerFor(RESOURCES.pods);
    this.nodes = options.factory.informerFor(RESOURCES.nodes);
    // No handlers of its own: it reads the caches every period (registered only to wait for them).
    this.handlers.add(this.pods, {});
    this.handlers.add(this.nodes, {});
  }

  /** Run: waits for the caches, then a pass at once and one every 20 s after the last ended. */
  async run(): Promise<void> {
    if (!(await this.handlers.synced()) || this.stopped) return;
    const loop = (): void => {
      if (this.stopped) return;
      this.pass = this.gc().then(() => {
        if (!this.stopped) this.cancelTimer = this.clock.setTimer(loop, GC_CHECK_PERIOD_MS);
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer();
    this.nodeQueue.shutDown();
    this.handlers.removeAll();
    await this.pass;
  }

  /** One pass: the four collections, in gc()'s order. */
  async gc(): Promise<void> {
    const pods = this.pods.lister().list();
    const nodes = this.nodes.lister().list();
    if (this.threshold > 0) await this.gcTerminated(pods);
    await this.gcTerminating(pods);
    await this.gcOrphaned(pods, nodes);
    await this.gcUnscheduledTerminating(pods);
  }

  private async gcTerminated(pods: readonly ReadonlyPod[]): Promise<void> {
    const terminated = pods.filter(isPodTerminated);
    const deleteCount = terminated.length - this.threshold;
    if (deleteCount <= 0) return;
    terminated.sort(byEvictionAndCreationTimestamp);
    await Promise.all(terminated.slice(0, deleteCount).map((pod) => this.markFailedAndDeletePod(pod)));
  }

  /** Terminating pods on a node that is out of service (not Ready, and tainted so by its admin). */
  private async gcTerminating(pods: readonly ReadonlyPod[]): Promise<void> {
    const terminating = pods.filter((pod) => {
      if ((pod.metadata?.deletionTimestamp ?? null) === null) return false;
      const node = this.nodes.get(undefined, pod.spec?.nodeName ?? '');
      if (node === undefined) return false;
      return !isNodeReady(node) && (node.spec?.taints ?? []).some((t) => t.key === TAINT_NODE_OUT_OF_SERVICE);
    });
    terminating.sort(byEvictionAndCreationTimestamp);
    await Promise.all(terminating.map((pod) => this.markFailedAndDeletePod(pod)));
  }

  /** Pods of nodes gone for the quarantine time (and confirmed gone by a live read). */
  private async gcOrphaned(pods: readonly ReadonlyPod[], nodes: readonly DeepReadonly<Node>[]): Promise<void> {
    const existing = new Set(nodes.map((n) => n.metadata?.name ?? ''));
    for (const pod of pods) {
      const node = pod.spec?.nodeName ?? '';
      if (node !== '' && !existing.has(node)) this.nodeQueue.addAfter(node, QUARANTINE_TIME_MS);
    }
    const deleted = await this.discoverDeletedNodes(existing);
    const condition: PodCondition = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
    };
    await Promise.all(
      pods
        .filter((pod) => deleted.has(pod.spec?.nodeName ?? ''))
        .map((pod) => this.markFailedAndDeletePod(pod, condition)),
    );
  }

  /** discoverDeletedNodes: the quarantined names ready now that still name no node, asked live. */
  private async discoverDeletedNodes(existing: ReadonlySet<string>): Promise<Set<string>> {
    const deleted = new Set<string>();
    while (this.nodeQueue.len() > 0) {
      const name = await this.nodeQueue.get();
      if (name === undefined) break;
      try {
        if (!existing.has(name)) {
          await this.client.get(RESOURCES.nodes, undefined, name);
        }
      } catch (err) {
        if (isNotFound(err)) deleted.add(name);
        else this.onError(err, name);
      } finally {
        this.nodeQueue.done(name);
      }
    }
    return deleted;
  }

  private async gcUnscheduledTerminating(pods: readonly ReadonlyPod[]): Promise<void> {
    const unscheduled = pods.filter(
      (pod) => (pod.metadata?.deletionTimestamp ?? null) !== null && (pod.spec?.nodeName ?? '') === '',
    );
    await Promise.all(unscheduled.map((pod) => this.markFailedAndDeletePod(pod)));
  }

  /**
   * markFailedAndDeletePodWithCondition: a pod not yet terminal patched Failed (with `condition`,
   * as UpdatePodCondition sets it), its uid a precondition; then deleted with grace period 0.
   * A failure is reported, never thrown: the other pods of the pass go on.
   */
  private async markFailedAndDeletePod(pod: ReadonlyPod, condition?: PodCondition): Promise<void> {
    const { namespace = '', name = '', uid = '' } = pod.metadata ?? {};
    try {
      const phase = pod.status?.phase;
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const status: Record<string, unknown> = { phase: 'Failed' };
        if (condition !== undefined) {
          const old = (pod.status?.conditions ?? []).find((c) => c.type === condition.type);
          const changed = old === undefined || old.status !== condition.status;
          const lastTransitionTime = changed ? rfc3339(this.clock.now()) : old.lastTransitionTime;
          status.conditions = [{ ...condition, ...(lastTransitionTime ? { lastTransitionTime } : {}) }];
        }
        await this.client.patch(
          RESOURCES.pods,
          namespace,
          name,
          'strategic',
          { metadata: { uid }, status },
          {
            subresource: 'status',
          },
        );
      }
      await this.client.delete(RESOURCES.pods, namespace, name, { gracePeriodSeconds: 0 });
    } catch (err) {
      this.onError(err, `${namespace}/${name}`);
    }
  }
}

/** isPodTerminated: neither Pending, Running nor Unknown. */
function isPodTerminated(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** nodeutil.IsNodeReady: the Ready condition is True. */
function isNodeReady(node: DeepReadonly<Node>): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** eviction.PodIsEvicted: Failed with reason Evicted. */
const podIsEvicted = (pod: ReadonlyPod): boolean => pod.status?.phase === 'Failed' && pod.status?.reason === 'Evicted';

/** byEvictionAndCreationTimestamp: evicted first, then oldest, then by name. */
function byEvictionAndCreationTimestamp(a: ReadonlyPod, b: ReadonlyPod): number {
  const ea = podIsEvicted(a);
  const eb = podIsEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ca = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const cb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (ca !== cb) return ca - cb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
