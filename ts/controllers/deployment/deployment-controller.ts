/**
 * The Deployment controller (pkg/controller/deployment/deployment_controller.go at v1.32): each
 * Deployment's ReplicaSets claimed (adopted by ControllerRef, released when they stop matching),
 * then — from the listers — its status kept while it is being deleted, scaled only while paused
 * or when resized, rolled back on the deprecated annotation, or rolled out by its strategy
 * (RollingUpdate: rolling.ts, Recreate: recreate.ts).
 *
 *   const dc = new DeploymentController({ factory, client, clock, onError });
 *   factory.start();
 *   await dc.run(5);  …  await dc.stop();
 *
 * Handlers on the deployments, replicasets and pods informers only enqueue the owning
 * Deployment's key (a pod only when it is deleted, and only for Recreate Deployments whose pods
 * are all gone). A key failing 15 times in a row is dropped (maxRetries); one refused because its
 * namespace is terminating is forgotten.
 *
 * Differences: the pod-template-hash is computed from the template's JSON (util/hash.ts), so its
 * value differs from Kubernetes' for the same template; Semantic.DeepEqual of templates reads
 * absent, null, [] and {} alike but compares quantities as text; the live ReplicaSet list of a
 * pod deletion runs after the handler returns (Go's blocks the handler); the controller owns its
 * EventRecorder (flushed by stop()); a key dropped after maxRetries goes to onError.
 */
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { Deployment, ReplicaSet } from '../../api/types/apps/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import { type DeepReadonly, deepCopy } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { addPodControllerIndexer, filterPodsByOwner } from '../../client/informers/index-funcs.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { Controller } from '../framework/controller.js';
import { getControllerOf, recheckDeletionTimestamp } from '../framework/controller-ref-manager.js';
import { DEPLOYMENT_CONTROLLER } from '../framework/names.js';
import { Registrations } from '../framework/workers.js';
import { type PodMap, rolloutRecreate } from './recreate.js';
import { ReplicaSetControllerRefManager } from './replica-set-controller-ref-manager.js';
import { getRollbackTo, rollback } from './rollback.js';
import { rolloutRolling } from './rolling.js';
import {
  checkPausedConditions,
  type DeploymentApi,
  deploymentApi,
  eventf,
  isScalingEvent,
  type SyncContext,
  sync,
  syncStatusOnly,
} from './sync.js';
import { deploymentSelector, getDeploymentsForReplicaSet, type RO } from './util/deployment-util.js';

// pkg/controller/deployment/config/v1alpha1/defaults.go: --concurrent-deployment-syncs 5.
export const DEFAULT_WORKERS = 5;
// deployment_controller.go: maxRetries, the failures after which a key is dropped.
export const MAX_RETRIES = 15;

/** schema.GroupVersionKind of apps/v1 Deployment: the controllerKind of its ReplicaSets' references. */
export const DEPLOYMENT_KIND = { group: 'apps', version: 'v1', kind: 'Deployment' } as const;

export interface DeploymentControllerOptions {
  /** The shared informers: deployments, replicasets, pods. */
  factory: SharedInformerFactory;
  /** The controller's own client: its writes, and the uncached reads Go makes. */
  client: Client;
  clock?: Clock;
  /** A sync that failed for good (utilruntime.HandleError), or a dropped key. */
  onError?: (err: unknown, key: string) => void;
  /** --concurrent-deployment-syncs (default 5). */
  workers?: number;
  logger?: Logger;
}

export class DeploymentController implements Controller {
  readonly name = DEPLOYMENT_CONTROLLER;
  private readonly client: Client;
  private readonly api: DeploymentApi;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly onError: (err: unknown, key: string) => void;
  private readonly defaultWorkers: number;
  private readonly queue: WorkQueue<string>;
  private readonly handlers = new Registrations();
  private readonly dLister: Lister<Deployment>;
  private readonly rsLister: Lister<ReplicaSet>;
  private readonly replicaSets: SharedIndexInformer<ReplicaSet>;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly recorder: EventRecorder;
  private readonly ctx: SyncContext;
  private running: Promise<void>[] = [];
  private runCall: Promise<void> | undefined;
  private stopped = false;

  constructor(options: DeploymentControllerOptions) {
    this.client = options.client;
    this.api = deploymentApi(options.client);
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? discardLogger;
    this.onError = options.onError ?? (() => {});
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.queue = new WorkQueue<string>({
      clock: this.clock,
      rateLimiter: defaultControllerRateLimiter(this.clock),
    });
    this.recorder = new EventRecorder({ client: options.client, clock: this.clock, component: DEPLOYMENT_CONTROLLER });
    const deployments = options.factory.informerFor(RESOURCES.deployments);
    const replicaSets = options.factory.informerFor(RESOURCES.replicasets);
    const pods = options.factory.informerFor(RESOURCES.pods);
    this.dLister = deployments.lister();
    this.rsLister = replicaSets.lister();
    // The sets and pods each Deployment owns, found by controller rather than by a namespace scan.
    addPodControllerIndexer(replicaSets);
    addPodControllerIndexer(pods);
    this.replicaSets = replicaSets;
    this.pods = pods;
    this.handlers.add(deployments, {
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_old, cur) => this.enqueue(cur),
      onDelete: (d) => this.enqueue(d),
    });
    this.handlers.add(replicaSets, {
      onAdd: (rs) => this.addReplicaSet(rs),
      onUpdate: (old, cur) => this.updateReplicaSet(old, cur),
      onDelete: (rs) => this.deleteReplicaSet(rs),
    });
    this.handlers.add(pods, { onDelete: (pod) => this.deletePod(pod) });
    this.ctx = {
      api: this.api,
      getReplicaSet: (namespace, name) => this.rsLister.get(namespace, name),
      recorder: this.recorder,
      clock: this.clock,
      logger: this.logger,
      enqueueAfter: (d, ms) => this.queue.addAfter(objectKey(d), ms),
      enqueueRateLimited: (d) => this.queue.addRateLimited(objectKey(d)),
    };
  }

  /** Waits for the three caches, then runs `workers` workers. */
  run(workers = this.defaultWorkers): Promise<void> {
    if (this.runCall !== undefined) return Promise.reject(new Error('the deployment controller has already been run'));
    this.runCall = (async () => {
      this.logger.info('Starting controller', { controller: 'deployment' });
      if (!(await this.handlers.synced()) || this.stopped) return;
      for (let i = 0; i < workers; i++) this.running.push(this.worker());
    })();
    return this.runCall;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.shutDown();
    this.handlers.removeAll();
    await this.runCall?.catch(() => {});
    await Promise.all(this.running);
    this.running = [];
    await this.recorder.flush();
    this.logger.info('Shutting down controller', { controller: 'deployment' });
  }

  /** processNextWorkItem until the queue shuts down, with handleErr's retry rules. */
  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.syncDeployment(key);
        this.queue.forget(key);
      } catch (err) {
        this.handleErr(err, key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private handleErr(err: unknown, key: string): void {
    if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
      this.queue.forget(key);
      return;
    }
    if (this.queue.numRequeues(key) < MAX_RETRIES) {
      this.logger.info('Error syncing deployment', { deployment: key, err: String(err) });
      this.queue.addRateLimited(key);
      return;
    }
    this.onError(err, key);
    this.logger.info('Dropping deployment out of the queue', { deployment: key, err: String(err) });
    this.queue.forget(key);
  }

  private enqueue(d: RO<Deployment>): void {
    this.queue.add(objectKey(d));
  }

  /** resolveControllerRef: the Deployment a controller reference names, if it is that one (same UID). */
  private resolveControllerRef(
    namespace: string,
    ref: DeepReadonly<{ kind: string; name: string; uid: string }>,
  ): RO<Deployment> | undefined {
    if (ref.kind !== DEPLOYMENT_KIND.kind) return undefined;
    const d = this.dLister.get(namespace, ref.name);
    if (d === undefined || d.metadata?.uid !== ref.uid) return undefined;
    return d;
  }

  /** addReplicaSet: its owner, or for an orphan every Deployment that may adopt it. */
  private addReplicaSet(rs: RO<ReplicaSet>): void {
    if ((rs.metadata?.deletionTimestamp ?? null) !== null) {
      // A restart may show an object already being deleted.
      this.deleteReplicaSet(rs);
      return;
    }
    const ref = getControllerOf(rs);
    if (ref !== undefined) {
      const d = this.resolveControllerRef(rs.metadata?.namespace ?? '', ref);
      if (d !== undefined) this.enqueue(d);
      return;
    }
    for (const d of this.deploymentsForReplicaSet(rs)) this.enqueue(d);
  }

  private deploymentsForReplicaSet(rs: RO<ReplicaSet>): RO<Deployment>[] {
    return getDeploymentsForReplicaSet(this.dLister.byNamespace(rs.metadata?.namespace ?? '').list(), rs);
  }

  /** updateReplicaSet: old and new owners; for an orphan whose labels or reference changed, the matching ones. */
  private updateReplicaSet(old: RO<ReplicaSet>, cur: RO<ReplicaSet>): void {
    // A resync: nothing changed.
    if (cur.metadata?.resourceVersion === old.metadata?.resourceVersion) return;
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = JSON.stringify(curRef) !== JSON.stringify(oldRef);
    if (refChanged && oldRef !== undefined) {
      const d = this.resolveControllerRef(old.metadata?.namespace ?? '', oldRef);
      if (d !== undefined) this.enqueue(d);
    }
    if (curRef !== undefined) {
      const d = this.resolveControllerRef(cur.metadata?.namespace ?? '', curRef);
      if (d !== undefined) this.enqueue(d);
      return;
    }
    const labelsChanged = JSON.stringify(cur.metadata?.labels ?? {}) !== JSON.stringify(old.metadata?.labels ?? {});
    if (labelsChanged || refChanged) for (const d of this.deploymentsForReplicaSet(cur)) this.enqueue(d);
  }

  /** deleteReplicaSet: its owner (an orphan's deletion concerns nobody). */
  private deleteReplicaSet(rs: RO<ReplicaSet>): void {
    const ref = getControllerOf(rs);
    if (ref === undefined) return;
    const d = this.resolveControllerRef(rs.metadata?.namespace ?? '', ref);
    if (d !== undefined) this.enqueue(d);
  }

  /**
   * deletePod: a Recreate Deployment is synced once the last pod of its sets is gone (the sets
   * listed live, as Go's ListReplicaSets with RsListFromClient).
   */
  private deletePod(pod: RO<Pod>): void {
    const d = this.deploymentForPod(pod);
    if (d === undefined || d.spec?.strategy?.type !== 'Recreate') return;
    void (async () => {
      let rsList: RO<ReplicaSet>[];
      try {
        const selector = deploymentSelector(d);
        const list = await this.client.list(RESOURCES.replicasets, {
          namespace: d.metadata?.namespace ?? '',
          labelSelector: selector.toString(),
        });
        rsList = list.items.filter((rs) => {
          const ref = getControllerOf(rs);
          return ref !== undefined && ref.uid === d.metadata?.uid;
        });
      } catch {
        return;
      }
      const podMap = this.getPodMapForDeployment(d, rsList);
      let numPods = 0;
      for (const pods of podMap.values()) numPods += pods.length;
      if (numPods === 0) this.enqueue(d);
    })();
  }

  /** getDeploymentForPod: through the pod's ReplicaSet to that set's Deployment. */
  private deploymentForPod(pod: RO<Pod>): RO<Deployment> | undefined {
    const ref = getControllerOf(pod);
    if (ref === undefined || ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsLister.get(pod.metadata?.namespace ?? '', ref.name);
    if (rs === undefined || rs.metadata?.uid !== ref.uid) return undefined;
    const rsRef = getControllerOf(rs);
    if (rsRef === undefined) return undefined;
    return this.resolveControllerRef(rs.metadata?.namespace ?? '', rsRef);
  }

  /** getReplicaSetsForDeployment: the namespace's sets, claimed (adopted or released) for `d`. */
  private async getReplicaSetsForDeployment(d: RO<Deployment>): Promise<RO<ReplicaSet>[]> {
    const namespace = d.metadata?.namespace ?? '';
    // Its own sets and the namespace's orphans, from the controller index: the sets claimPods
    // would act on out of the whole namespace's list, which 1.32 walks on every sync.
    const rsList = filterPodsByOwner(this.replicaSets.getIndexer(), d.metadata, DEPLOYMENT_KIND.kind, true);
    let selector: ReturnType<typeof deploymentSelector>;
    try {
      selector = deploymentSelector(d);
    } catch (err) {
      throw new Error(
        `deployment ${namespace}/${d.metadata?.name ?? ''} has invalid label selector: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    const canAdopt = recheckDeletionTimestamp(async () => {
      const fresh = await this.api.getDeployment(namespace, d.metadata?.name ?? '');
      if (fresh.metadata?.uid !== d.metadata?.uid) {
        throw new Error(
          `original Deployment ${namespace}/${d.metadata?.name ?? ''} is gone: got uid ${fresh.metadata?.uid ?? ''}, wanted ${d.metadata?.uid ?? ''}`,
        );
      }
      return fresh;
    });
    const cm = new ReplicaSetControllerRefManager(this.api, d, selector, DEPLOYMENT_KIND, canAdopt);
    return cm.claimReplicaSets(rsList);
  }

  /**
   * getPodMapForDeployment: every set's uid → the pods matching the selector that it controls —
   * read per set from the pod controller index rather than filtered out of the namespace's pods.
   */
  private getPodMapForDeployment(d: RO<Deployment>, rsList: readonly RO<ReplicaSet>[]): PodMap {
    const selector = deploymentSelector(d);
    const podMap = new Map<string, RO<Pod>[]>();
    for (const rs of rsList) {
      const owned = filterPodsByOwner(this.pods.getIndexer(), rs.metadata, 'ReplicaSet', false);
      podMap.set(
        rs.metadata?.uid ?? '',
        owned.filter((pod) => selector.matches(pod.metadata?.labels ?? {})),
      );
    }
    return podMap;
  }

  /** syncDeployment: one Deployment reconciled from the listers. */
  async syncDeployment(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const cached = this.dLister.get(namespace, name);
    if (cached === undefined) {
      this.logger.info('Deployment has been deleted', { deployment: key });
      return;
    }
    const d = deepCopy(cached) as Deployment;
    const selector = d.spec?.selector;
    // reflect.DeepEqual with &metav1.LabelSelector{}: neither field set (an empty map is not nil).
    if (selector !== undefined && selector.matchLabels == null && selector.matchExpressions == null) {
      // An empty selector would select every pod of the namespace: refused.
      eventf(
        this.ctx,
        d,
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        d.status = { ...(d.status ?? {}), observedGeneration: d.metadata?.generation ?? 0 };
        await this.api.updateDeploymentStatus(d).catch(() => {});
      }
      return;
    }
    const rsList = await this.getReplicaSetsForDeployment(d);
    const podMap = this.getPodMapForDeployment(d, rsList);

    if ((d.metadata?.deletionTimestamp ?? null) !== null) {
      await syncStatusOnly(this.ctx, d, rsList);
      return;
    }
    await checkPausedConditions(this.ctx, d);
    if (d.spec?.paused === true) {
      await sync(this.ctx, d, rsList);
      return;
    }
    if (getRollbackTo(d) !== undefined) {
      await rollback(this.ctx, d, rsList);
      return;
    }
    if (await isScalingEvent(this.ctx, d, rsList)) {
      await sync(this.ctx, d, rsList);
      return;
    }
    switch (d.spec?.strategy?.type) {
      case 'Recreate':
        await rolloutRecreate(this.ctx, d, rsList, podMap);
        return;
      case 'RollingUpdate':
        await rolloutRolling(this.ctx, d, rsList);
        return;
      default:
        throw new Error(`unexpected deployment strategy type: ${d.spec?.strategy?.type ?? ''}`);
    }
  }
}
