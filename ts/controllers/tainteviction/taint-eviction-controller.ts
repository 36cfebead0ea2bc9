/**
 * The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go at v1.32): pods on a
 * node with NoExecute taints are deleted unless they tolerate every one of them — at once when
 * one is not tolerated, after the smallest tolerationSeconds of the tolerations used when all are,
 * never when none of those has a limit. Before the delete the pod gets the DisruptionTarget
 * condition (DeletionByTaintManager, patched with its uid as a precondition), and a
 * TaintManagerEviction Event says "Marking for deletion Pod ns/name"; a scheduled deletion is
 * cancelled ("Cancelling deletion of Pod ns/name") when the taints go, the pod goes, or it comes
 * to tolerate them forever. A new schedule never fires later than one already pending.
 *
 * The informer handlers only queue node names and pod keys (a node when its NoExecute taints
 * change, a pod when its tolerations or node do); node updates are handled before pod updates.
 *
 *   const tec = new TaintEvictionController({ factory, client, clock });
 *   factory.start();
 *   await tec.run();   // caches synced, the worker running
 */
import { getMatchingTolerations } from '../../api/taints.js';
import { rfc3339 } from '../../api/time.js';
import type { Node, Pod, PodCondition, Taint, Toleration } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { addPodNodeNameIndexer, POD_NODE_NAME_INDEX } from '../../client/informers/index-funcs.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { Controller } from '../framework/controller.js';
import { TAINT_EVICTION_CONTROLLER } from '../framework/names.js';
import { Registrations } from '../framework/workers.js';
import { keyFromWorkArgs, newWorkArgs, TimedWorkerQueue, type WorkArgs } from './timed-workers.js';

// taint_eviction.go: retries of addConditionAndDeletePod, 10 ms apart.
export const DELETE_RETRIES = 5;
export const DELETE_RETRY_INTERVAL_MS = 10;
// taint_eviction.go addConditionAndDeletePod.
export const DISRUPTION_TARGET_REASON = 'DeletionByTaintManager';
export const DISRUPTION_TARGET_MESSAGE = 'Taint manager: deleting due to NoExecute taint';
export const TAINT_MANAGER_EVICTION_REASON = 'TaintManagerEviction';

type RPod = DeepReadonly<Pod>;
type RNode = DeepReadonly<Node>;
type RTaint = DeepReadonly<Taint>;
type RToleration = DeepReadonly<Toleration>;

export interface TaintEvictionControllerOptions {
  /** The shared informers: pods (indexed by spec.nodeName) and nodes. */
  factory: SharedInformerFactory;
  /** kube-controller-manager's `node-controller` client (core.go startTaintEvictionController). */
  client: Client;
  clock?: Clock;
  /** A deletion that failed for good, or an unexpected read error (utilruntime.HandleError). */
  onError?: (err: unknown, key: string) => void;
  logger?: Logger;
}

/** getNoExecuteTaints. */
export function getNoExecuteTaints(taints: readonly RTaint[] | undefined): RTaint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/**
 * getMinTolerationTime (ms): 0 for no tolerations or one of 0 s or less, −1 when none has a
 * limit (forever), else the smallest tolerationSeconds.
 */
export function getMinTolerationTime(tolerations: readonly RToleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    if (t.tolerationSeconds < min) min = t.tolerationSeconds;
  }
  return min === Number.POSITIVE_INFINITY ? -1 : min * 1000;
}

/** Semantic.DeepEqual of two taint or toleration lists (nil and empty alike). */
function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/** podUpdateItem as a queue key: namespace, name and node name. */
function podItemKey(namespace: string, name: string, nodeName: string): string {
  return JSON.stringify([namespace, name, nodeName]);
}

export class TaintEvictionController implements Controller {
  readonly name = TAINT_EVICTION_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly onError: (err: unknown, key: string) => void;
  private readonly logger: Logger;
  private readonly recorder: EventRecorder;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly nodes: SharedIndexInformer<Node>;
  private readonly handlers = new Registrations();
  /** taintEvictionQueue: the scheduled deletions. */
  readonly taintEvictionQueue: TimedWorkerQueue;
  /** taintedNodes: each node's NoExecute taints as last handled. */
  private readonly taintedNodes = new Map<string, RTaint[]>();
  private readonly nodeUpdateQueue: WorkQueue<string>;
  private readonly podUpdateQueue: WorkQueue<string>;
  private wake: (() => void) | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(options: TaintEvictionControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.onError = options.onError ?? (() => {});
    this.logger = options.logger ?? discardLogger;
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: TAINT_EVICTION_CONTROLLER });
    this.nodeUpdateQueue = new WorkQueue<string>({ clock: this.clock });
    this.podUpdateQueue = new WorkQueue<string>({ clock: this.clock });
    this.taintEvictionQueue = new TimedWorkerQueue(
      (fireAt, args) => this.deletePod(fireAt, args),
      this.clock,
      (err, key) => {
        this.logger.error(err, 'TaintEvictionController: timed worker failed', { pod: key });
        this.onError(err, key);
      },
    );
    this.pods = options.factory.informerFor(RESOURCES.pods);
    addPodNodeNameIndexer(this.pods);
    this.nodes = options.factory.informerFor(RESOURCES.nodes);
    this.handlers.add(this.pods, {
      onAdd: (pod) => this.podUpdated(undefined, pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (pod) => this.podUpdated(pod, undefined),
    });
    this.handlers.add(this.nodes, {
      onAdd: (node) => this.nodeUpdated(undefined, node),
      onUpdate: (old, node) => this.nodeUpdated(old, node),
      onDelete: (node) => this.nodeUpdated(node, undefined),
    });
  }

  /** Run: waits for the pod and node caches, then handles the queued updates until stopped. */
  async run(): Promise<void> {
    this.logger.info('Starting', { controller: this.name });
    if (!(await this.handlers.synced()) || this.stopped) return;
    this.loop = this.worker();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.nodeUpdateQueue.shutDown();
    this.podUpdateQueue.shutDown();
    this.handlers.removeAll();
    this.wake?.();
    await this.loop;
    await this.taintEvictionQueue.idle();
    await this.recorder.flush();
    this.logger.info('Shutting down controller', { controller: this.name });
  }

  /** Resolves once the queued updates are handled and no deletion is running (tests). */
  async idle(): Promise<void> {
    while (this.nodeUpdateQueue.len() > 0 || this.podUpdateQueue.len() > 0 || this.busy) {
      await new Promise((r) => setTimeout(r, 1));
    }
    await this.taintEvictionQueue.idle();
    await this.recorder.flush();
  }

  private busy = false;

  /** The worker: node updates first (the Go worker's priority loop), then one pod update. */
  private async worker(): Promise<void> {
    while (!this.stopped) {
      if (this.nodeUpdateQueue.len() > 0) {
        const name = await this.nodeUpdateQueue.get();
        if (name === undefined) return;
        this.busy = true;
        try {
          this.handleNodeUpdate(name);
        } finally {
          this.nodeUpdateQueue.done(name);
          this.busy = false;
        }
        continue;
      }
      if (this.podUpdateQueue.len() > 0) {
        const key = await this.podUpdateQueue.get();
        if (key === undefined) return;
        this.busy = true;
        try {
          const [namespace = '', name = '', nodeName = ''] = JSON.parse(key) as string[];
          this.handlePodUpdate(namespace, name, nodeName);
        } finally {
          this.podUpdateQueue.done(key);
          this.busy = false;
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  /** PodUpdated: queued unless both versions have the same tolerations and node. */
  podUpdated(oldPod: RPod | undefined, newPod: RPod | undefined): void {
    const pod = newPod ?? oldPod;
    if (pod === undefined) return;
    const oldTolerations = oldPod?.spec?.tolerations ?? [];
    const newTolerations = newPod?.spec?.tolerations ?? [];
    if (
      oldPod !== undefined &&
      newPod !== undefined &&
      sameList(oldTolerations, newTolerations) &&
      (oldPod.spec?.nodeName ?? '') === (newPod.spec?.nodeName ?? '')
    ) {
      return;
    }
    const { namespace = '', name = '' } = pod.metadata ?? {};
    this.podUpdateQueue.add(podItemKey(namespace, name, pod.spec?.nodeName ?? ''));
    this.wake?.();
  }

  /** NodeUpdated: queued unless both versions have the same NoExecute taints. */
  nodeUpdated(oldNode: RNode | undefined, newNode: RNode | undefined): void {
    const node = newNode ?? oldNode;
    if (node === undefined) return;
    const oldTaints = getNoExecuteTaints(oldNode?.spec?.taints);
    const newTaints = getNoExecuteTaints(newNode?.spec?.taints);
    if (oldNode !== undefined && newNode !== undefined && sameList(oldTaints, newTaints)) return;
    this.nodeUpdateQueue.add(node.metadata?.name ?? '');
    this.wake?.();
  }

  private cancelWorkWithEvent(namespace: string, name: string): void {
    if (this.taintEvictionQueue.cancelWork(keyFromWorkArgs({ namespace, name }))) {
      this.emitEvent(namespace, name, `Cancelling deletion of Pod ${namespace}/${name}`);
    }
  }

  /** processPodOnNode: schedule, reschedule or cancel the pod's deletion for the node's taints. */
  private processPodOnNode(
    namespace: string,
    name: string,
    tolerations: readonly RToleration[],
    taints: readonly RTaint[],
    now: number,
  ): void {
    if (taints.length === 0) this.cancelWorkWithEvent(namespace, name);
    const [allTolerated, usedTolerations] = getMatchingTolerations(taints, tolerations);
    const args = newWorkArgs(name, namespace);
    if (!allTolerated) {
      this.cancelWorkWithEvent(namespace, name);
      this.taintEvictionQueue.addWork(args, now, now);
      return;
    }
    const minTolerationTime = getMinTolerationTime(usedTolerations);
    if (minTolerationTime < 0) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    let startTime = now;
    const triggerTime = startTime + minTolerationTime;
    const scheduled = this.taintEvictionQueue.getWorkerUnsafe(keyFromWorkArgs(args));
    if (scheduled !== undefined) {
      startTime = scheduled.createdAt;
      if (startTime + minTolerationTime < triggerTime) return;
      this.cancelWorkWithEvent(namespace, name);
    }
    this.taintEvictionQueue.addWork(args, startTime, triggerTime);
  }

  private handlePodUpdate(namespace: string, name: string, nodeName: string): void {
    const pod = this.pods.get(namespace, name);
    if (pod === undefined) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    // The pod's node changed since the update was queued: a newer update handles it.
    if ((pod.spec?.nodeName ?? '') !== nodeName) return;
    if (nodeName === '') return;
    const taints = this.taintedNodes.get(nodeName);
    if (taints === undefined) return;
    this.processPodOnNode(namespace, name, pod.spec?.tolerations ?? [], taints, this.clock.now());
  }

  private handleNodeUpdate(nodeName: string): void {
    const node = this.nodes.get(undefined, nodeName);
    if (node === undefined) {
      this.taintedNodes.delete(nodeName);
      return;
    }
    const taints = getNoExecuteTaints(node.spec?.taints);
    if (taints.length === 0) this.taintedNodes.delete(nodeName);
    else this.taintedNodes.set(nodeName, taints);
    const pods = this.pods.getIndexer().byIndex(POD_NODE_NAME_INDEX, nodeName);
    if (pods.length === 0) return;
    if (taints.length === 0) {
      for (const pod of pods) this.cancelWorkWithEvent(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
      return;
    }
    const now = this.clock.now();
    for (const pod of pods) {
      this.processPodOnNode(
        pod.metadata?.namespace ?? '',
        pod.metadata?.name ?? '',
        pod.spec?.tolerations ?? [],
        taints,
        now,
      );
    }
  }

  /** deletePodHandler: the event, then addConditionAndDeletePod up to 5 times, 10 ms apart. */
  private async deletePod(_fireAt: number, args: WorkArgs): Promise<void> {
    this.logger.info('Deleting pod', { controller: this.name, pod: keyFromWorkArgs(args) });
    this.emitEvent(args.namespace, args.name, `Marking for deletion Pod ${args.namespace}/${args.name}`);
    let last: unknown;
    for (let i = 0; i < DELETE_RETRIES; i++) {
      try {
        await this.addConditionAndDeletePod(args.name, args.namespace);
        return;
      } catch (err) {
        last = err;
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => this.clock.setTimer(resolve, DELETE_RETRY_INTERVAL_MS));
    }
    throw last;
  }

  /** addConditionAndDeletePod: a live read, DisruptionTarget patched in when it changes, then the delete. */
  private async addConditionAndDeletePod(name: string, namespace: string): Promise<void> {
    const pod = await this.client.get(RESOURCES.pods, namespace, name);
    const condition: PodCondition = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: DISRUPTION_TARGET_REASON,
      message: DISRUPTION_TARGET_MESSAGE,
    };
    const updated = updatePodCondition(pod.status?.conditions ?? [], condition, this.clock.now());
    if (updated !== undefined) {
      await this.client.patch(
        RESOURCES.pods,
        namespace,
        name,
        'strategic',
        { metadata: { uid: pod.metadata?.uid }, status: { conditions: [updated] } },
        { subresource: 'status' },
      );
    }
    await this.client.delete(RESOURCES.pods, namespace, name);
  }

  private emitEvent(namespace: string, name: string, message: string): void {
    this.recorder.record(
      { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name } },
      'Normal',
      TAINT_MANAGER_EVICTION_REASON,
      message,
    );
  }
}

/**
 * apipod.UpdatePodCondition: the condition as it would be stored (lastTransitionTime now, or kept
 * when the status is unchanged), or undefined when nothing would change.
 */
export function updatePodCondition(
  conditions: readonly DeepReadonly<PodCondition>[],
  condition: PodCondition,
  nowMs: number,
): PodCondition | undefined {
  const next: PodCondition = { ...condition, lastTransitionTime: rfc3339(nowMs) };
  const old = conditions.find((c) => c.type === condition.type);
  if (old === undefined) return next;
  if (next.status === old.status) {
    if (old.lastTransitionTime) next.lastTransitionTime = old.lastTransitionTime;
    else delete next.lastTransitionTime;
  }
  const equal =
    next.status === old.status &&
    (next.reason ?? '') === (old.reason ?? '') &&
    (next.message ?? '') === (old.message ?? '') &&
    (next.lastProbeTime ?? null) === (old.lastProbeTime ?? null) &&
    (next.lastTransitionTime ?? null) === (old.lastTransitionTime ?? null);
  return equal ? undefined : next;
}
