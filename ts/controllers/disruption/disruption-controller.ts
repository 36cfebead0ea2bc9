/**
 * The disruption controller (pkg/controller/disruption/disruption.go at v1.32): keeps each
 * PodDisruptionBudget's status — expectedPods, currentHealthy, desiredHealthy,
 * disruptionsAllowed, observedGeneration, the DisruptionAllowed condition — from the pods its
 * selector picks, so that the eviction subresource (ts/apiserver/registry/core/pods/eviction.ts)
 * can allow or refuse a disruption; and resets the DisruptionTarget condition of pods an eviction
 * marked but nobody deleted.
 *
 *   const dc = new DisruptionController({ factory, client, clock, onError });
 *   factory.start();
 *   await dc.run();  …  await dc.stop();
 *
 * As Kubernetes': the pod and PDB handlers only enqueue the PDB's key (a pod's first matching
 * PDB); a sync counts the ready pods not being deleted nor recently evicted (disruptedPods, kept
 * for DeletionTimeout, 2 min), and reads the desired count from minAvailable or maxUnavailable —
 * a percentage, and maxUnavailable always, of the pods' controllers' scale (ReplicationControllers,
 * ReplicaSets, Deployments through their ReplicaSets, StatefulSets from the listers; any other kind
 * through its scale subresource). A sync that fails for any reason but a conflict writes disruptionsAllowed 0
 * with DisruptionAllowed=False/SyncFailed (failSafe), so evictions stop while it is wrong.
 */

import { getScaledValueFromIntOrPercent } from '../../api/intstr.js';
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { Selector } from '../../api/labels/selector.js';
import type { KubeObject, LabelSelector, OwnerReference } from '../../api/meta.js';
import {
  conditionsAreUpToDate,
  DISRUPTION_ALLOWED_CONDITION,
  SYNC_FAILED_REASON,
  setStatusCondition,
  updateDisruptionAllowedCondition,
} from '../../api/poddisruptionbudget.js';
import { BUILTIN_RESOURCES, type GroupVersionResource, type ResourceType } from '../../api/resources.js';
import { isConflict, isNotFound } from '../../api/status.js';
import { rfc3339 } from '../../api/time.js';
import type { CustomResourceDefinition } from '../../api/types/apiextensions/v1.js';
import type { Pod } from '../../api/types/core/v1.js';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from '../../api/types/policy/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import { defaultControllerRateLimiter, runWorker, WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { isPodReady } from '../framework/active-pods.js';
import type { Controller } from '../framework/controller.js';
import { getControllerOf } from '../framework/controller-ref-manager.js';
import { DISRUPTION_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';

// disruption.go DeletionTimeout: how long an evicted pod stays in disruptedPods (not counted as
// healthy) waiting to be seen marked for deletion.
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;
// disruption.go stalePodDisruptionTimeout: how long a pod may carry DisruptionTarget=True without
// being deleted before the condition is set back to False.
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60 * 1000;
// disruption.go Run: one worker (wait.UntilWithContext(ctx, dc.worker, …)).
export const DEFAULT_WORKERS = 1;
// disruption.go NewDisruptionControllerInternal: the recorder's EventSource component.
export const EVENT_COMPONENT = 'controllermanager';
// core/v1 PodReasonTerminationByKubelet: a DisruptionTarget the kubelet set is never stale.
const TERMINATION_BY_KUBELET = 'TerminationByKubelet';
const DISRUPTION_TARGET = 'DisruptionTarget';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyPdb = DeepReadonly<PodDisruptionBudget>;

export interface DisruptionControllerOptions {
  /** The shared informers: pods, PodDisruptionBudgets, ReplicaSets, Deployments, StatefulSets. */
  factory: SharedInformerFactory;
  /** The controller's own client: PDB and pod status writes, scale reads, Events. */
  client: Client;
  clock?: Clock;
  /** Workers on the PDB queue (default 1, as kube-controller-manager runs one). */
  workers?: number;
  /**
   * The served resources, the RESTMapper of the scale finder (kinds of ownerReferences to
   * resources); default the built-in ones. A resource given without `subresources` is taken to
   * serve `scale`.
   */
  resources?: readonly (ResourceType & { subresources?: readonly string[] })[];
  /**
   * Map the kinds of Established CustomResourceDefinitions too (from the shared CRD informer), as
   * kube-controller-manager's discovery RESTMapper does: their scale subresource serves the finder.
   */
  customResources?: boolean;
  /** How long a pod's DisruptionTarget condition may stay True without a deletion (default 2 min). */
  stalePodDisruptionTimeoutMs?: number;
  /** A failed sync (utilruntime.HandleError): its error and key. */
  onError?: (err: unknown, key: string) => void;
}

/** controllerAndScale: a controller's UID and its desired replicas. */
interface ControllerAndScale {
  uid: string;
  scale: number;
}

type PodControllerFinder = (
  ref: DeepReadonly<OwnerReference>,
  namespace: string,
) => Promise<ControllerAndScale | undefined>;

/** schema.ParseGroupVersion of an ownerReference's apiVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** verifyGroupKind: the reference is of `kind` in one of `groups`. */
function verifyGroupKind(ref: DeepReadonly<OwnerReference>, kind: string, groups: readonly string[]): boolean {
  const gv = parseGroupVersion(ref.apiVersion);
  return ref.kind === kind && groups.includes(gv.group);
}

/** `%v` of a *metav1.LabelSelector: its generated String(), `&LabelSelector{MatchLabels:map[string]string{a: b,},…}`. */
export function labelSelectorString(s: DeepReadonly<LabelSelector> | undefined): string {
  if (s === undefined) return 'nil';
  const labels = Object.keys(s.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${s.matchLabels?.[k] ?? ''},`)
    .join('');
  const exprs = (s.matchExpressions ?? [])
    .map(
      (e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

const isDeleting = (obj: DeepReadonly<KubeObject>): boolean => (obj.metadata?.deletionTimestamp ?? null) !== null;

/** The object with its kind, as the recorder's involvedObject names it (listers' objects may have none). */
function withKind<T extends DeepReadonly<KubeObject>>(obj: T, apiVersion: string, kind: string): T {
  return { ...obj, apiVersion, kind };
}

export class DisruptionController implements Controller {
  readonly name = DISRUPTION_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly defaultWorkers: number;
  private readonly stalePodDisruptionTimeoutMs: number;
  private readonly resources: readonly (ResourceType & { subresources?: readonly string[] })[];
  private readonly recorder: EventRecorder;
  private readonly pods: SharedIndexInformer<Pod>;
  private readonly pdbs: SharedIndexInformer<PodDisruptionBudget>;
  private readonly replicationControllers;
  private readonly replicaSets;
  private readonly deployments;
  private readonly statefulSets;
  private readonly crds: SharedIndexInformer<CustomResourceDefinition> | undefined;
  /** PDB keys to sync. */
  private readonly queue: WorkQueue<string>;
  /** PDB keys to sync again when their earliest disruptedPods entry expires. */
  private readonly recheckQueue: WorkQueue<string>;
  /** Pod keys whose DisruptionTarget condition may have gone stale. */
  private readonly stalePodDisruptionQueue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private extraWorkers: Promise<void>[] = [];
  private readonly onError: (err: unknown, key: string) => void;

  constructor(options: DisruptionControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.stalePodDisruptionTimeoutMs = options.stalePodDisruptionTimeoutMs ?? STALE_POD_DISRUPTION_TIMEOUT_MS;
    this.resources = options.resources ?? BUILTIN_RESOURCES;
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: EVENT_COMPONENT });
    this.queue = new WorkQueue<string>({ clock: this.clock, rateLimiter: defaultControllerRateLimiter(this.clock) });
    this.recheckQueue = new WorkQueue<string>({ clock: this.clock });
    this.stalePodDisruptionQueue = new WorkQueue<string>({
      clock: this.clock,
      rateLimiter: defaultControllerRateLimiter(this.clock),
    });

    const factory = options.factory;
    this.pods = factory.informerFor(RESOURCES.pods);
    this.pdbs = factory.informerFor(RESOURCES.poddisruptionbudgets);
    this.replicationControllers = factory.informerFor(RESOURCES.replicationcontrollers);
    this.replicaSets = factory.informerFor(RESOURCES.replicasets);
    this.deployments = factory.informerFor(RESOURCES.deployments);
    this.statefulSets = factory.informerFor(RESOURCES.statefulsets);

    const handlers = new Registrations();
    handlers.add(this.pods, {
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (_old, cur) => this.podChanged(cur),
      onDelete: (pod) => {
        const pdb = this.getPdbForPod(pod);
        if (pdb !== undefined) this.queue.add(objectKey(pdb));
      },
    });
    handlers.add(this.pdbs, {
      onAdd: (pdb) => this.queue.add(objectKey(pdb)),
      onUpdate: (_old, cur) => this.queue.add(objectKey(cur)),
      onDelete: (pdb) => this.queue.add(objectKey(pdb)),
    });
    // The workload listers are read, not watched: WaitForNamedCacheSync waits for them too.
    handlers.add(this.replicationControllers, {});
    handlers.add(this.replicaSets, {});
    handlers.add(this.deployments, {});
    handlers.add(this.statefulSets, {});
    this.crds = options.customResources ? factory.informerFor(RESOURCES.customresourcedefinitions) : undefined;
    if (this.crds !== undefined) handlers.add(this.crds, {});

    this.onError = options.onError ?? (() => {});
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (key) => this.sync(key),
      onError: (err, key) =>
        this.onError(new Error(`Error syncing PodDisruptionBudget ${key}, requeuing: ${errorText(err)}`), key),
    });
  }

  async run(workers = this.defaultWorkers): Promise<void> {
    await this.workers.run(workers);
    if (this.recheckQueue.shuttingDown()) return;
    // recheckWorker: a due recheck goes to the main queue, rate-limited.
    this.extraWorkers.push(
      runWorker(
        this.recheckQueue,
        async (key) => this.queue.addRateLimited(key),
        () => {},
      ),
      runWorker(
        this.stalePodDisruptionQueue,
        (key) => this.syncStalePodDisruption(key),
        (err, key) =>
          this.onError(
            new Error(`error syncing Pod ${key} to clear DisruptionTarget condition, requeueing: ${errorText(err)}`),
            key,
          ),
      ),
    );
  }

  async stop(): Promise<void> {
    this.recheckQueue.shutDown();
    this.stalePodDisruptionQueue.shutDown();
    await this.workers.stop();
    await Promise.all(this.extraWorkers);
    this.extraWorkers = [];
    await this.recorder.flush();
  }

  // --- event handlers: they only enqueue keys ---

  /** addPod / updatePod: the pod's PDB synced, and a stale DisruptionTarget condition looked at when due. */
  private podChanged(pod: ReadonlyPod): void {
    const pdb = this.getPdbForPod(pod);
    if (pdb !== undefined) this.queue.add(objectKey(pdb));
    const stale = this.nonTerminatingPodHasStaleDisruptionCondition(pod);
    if (stale !== undefined) this.stalePodDisruptionQueue.addAfter(objectKey(pod), stale);
  }

  /**
   * getPdbForPod: the first of the namespace's PDBs whose selector matches the pod (by name — the
   * lister's order is Go's map order, arbitrary); a Warning on the pod when more than one does.
   */
  getPdbForPod(pod: ReadonlyPod): ReadonlyPdb | undefined {
    const namespace = pod.metadata?.namespace ?? '';
    const labels = pod.metadata?.labels ?? {};
    const matching = this.pdbs
      .lister()
      .byNamespace(namespace)
      .list()
      .filter((pdb) => {
        try {
          // Unlike policy/v1beta1, an empty selector matches every pod.
          return labelSelectorAsSelector(pdb.spec?.selector as LabelSelector | undefined).matches(labels);
        } catch {
          return false;
        }
      })
      .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    const first = matching[0];
    if (first === undefined) return undefined;
    if (matching.length > 1) {
      const msg = `Pod ${JSON.stringify(namespace)}/${JSON.stringify(pod.metadata?.name ?? '')} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(first.metadata?.name ?? '')} arbitrarily.`;
      this.recorder.record(withKind(pod, 'v1', 'Pod'), 'Warning', 'MultiplePodDisruptionBudgets', msg);
    }
    return first;
  }

  /** getPodsForPdb: the namespace's pods the selector picks (nothing for no selector). */
  private getPodsForPdb(pdb: ReadonlyPdb): ReadonlyPod[] {
    const selector: Selector = labelSelectorAsSelector(pdb.spec?.selector as LabelSelector | undefined);
    return this.pods
      .lister()
      .byNamespace(pdb.metadata?.namespace ?? '')
      .list(selector);
  }

  // --- the finders: a pod's controller and its scale ---

  /** finders: the listers first, the scale subresource last (no lister serves it). */
  private finders(): PodControllerFinder[] {
    return [
      async (ref, ns) => this.getPodReplicationController(ref, ns),
      async (ref, ns) => this.getPodDeployment(ref, ns),
      async (ref, ns) => this.getPodReplicaSet(ref, ns),
      async (ref, ns) => this.getPodStatefulSet(ref, ns),
      (ref, ns) => this.getScaleController(ref, ns),
    ];
  }

  /** getPodReplicationController: its spec.replicas (defaulted to 1 by the apiserver). */
  getPodReplicationController(ref: DeepReadonly<OwnerReference>, namespace: string): ControllerAndScale | undefined {
    if (!verifyGroupKind(ref, 'ReplicationController', [''])) return undefined;
    const rc = this.replicationControllers.get(namespace, ref.name);
    if (rc === undefined || rc.metadata?.uid !== ref.uid) return undefined;
    return { uid: rc.metadata?.uid ?? '', scale: rc.spec?.replicas ?? 1 };
  }

  /** getPodReplicaSet: a ReplicaSet no Deployment controls. */
  getPodReplicaSet(ref: DeepReadonly<OwnerReference>, namespace: string): ControllerAndScale | undefined {
    if (!verifyGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = this.replicaSets.get(namespace, ref.name);
    if (rs === undefined || rs.metadata?.uid !== ref.uid) return undefined;
    // One a Deployment controls counts through the Deployment.
    if (getControllerOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: rs.metadata?.uid ?? '', scale: rs.spec?.replicas ?? 1 };
  }

  /** getPodStatefulSet. */
  getPodStatefulSet(ref: DeepReadonly<OwnerReference>, namespace: string): ControllerAndScale | undefined {
    if (!verifyGroupKind(ref, 'StatefulSet', ['apps'])) return undefined;
    const ss = this.statefulSets.get(namespace, ref.name);
    if (ss === undefined || ss.metadata?.uid !== ref.uid) return undefined;
    return { uid: ss.metadata?.uid ?? '', scale: ss.spec?.replicas ?? 1 };
  }

  /** getPodDeployment: the Deployment controlling the pod's ReplicaSet. */
  getPodDeployment(ref: DeepReadonly<OwnerReference>, namespace: string): ControllerAndScale | undefined {
    if (!verifyGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = this.replicaSets.get(namespace, ref.name);
    if (rs === undefined || rs.metadata?.uid !== ref.uid) return undefined;
    const rsRef = getControllerOf(rs);
    if (rsRef === undefined || !verifyGroupKind(rsRef, 'Deployment', ['apps', 'extensions'])) return undefined;
    const d = this.deployments.get(rs.metadata?.namespace ?? namespace, rsRef.name);
    if (d === undefined || d.metadata?.uid !== rsRef.uid) return undefined;
    return { uid: d.metadata?.uid ?? '', scale: d.spec?.replicas ?? 1 };
  }

  /**
   * getScaleController: the scale subresource of the reference's kind, mapped to its resource; a
   * 404 is "no controller" when the resource serves scale, an error when it does not.
   */
  async getScaleController(
    ref: DeepReadonly<OwnerReference>,
    namespace: string,
  ): Promise<ControllerAndScale | undefined> {
    const gv = parseGroupVersion(ref.apiVersion);
    const mapping =
      this.resources.find((r) => r.group === gv.group && r.version === gv.version && r.kind === ref.kind) ??
      this.customMapping(gv.group, gv.version, ref.kind);
    if (mapping === undefined) {
      // meta.NoKindMatchError with the one version searched.
      const version = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
      throw new Error(`no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(version)}`);
    }
    const gvr: GroupVersionResource = { group: mapping.group, version: mapping.version, resource: mapping.resource };
    try {
      const scale = await this.client.getScale(gvr, namespace, ref.name);
      if (scale.metadata?.uid !== ref.uid) return undefined;
      return { uid: scale.metadata?.uid ?? '', scale: scale.spec?.replicas ?? 0 };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // implementsScale: discovery lists <resource>/scale.
      const implementsScale = mapping.subresources === undefined || mapping.subresources.includes('scale');
      if (!implementsScale) {
        const gr = mapping.group === '' ? mapping.resource : `${mapping.resource}.${mapping.group}`;
        throw new Error(`${gr} does not implement the scale subresource`);
      }
      return undefined;
    }
  }

  /**
   * RESTMapping of a custom kind: the Established CRD of `group` whose accepted kind it is, at a
   * served `version`; it implements scale when that version declares the subresource.
   */
  private customMapping(
    group: string,
    version: string,
    kind: string,
  ): (ResourceType & { subresources: readonly string[] }) | undefined {
    for (const crd of this.crds?.lister().list() ?? []) {
      const established = (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
      if (!established || crd.spec?.group !== group || crd.status?.acceptedNames?.kind !== kind) continue;
      const served = (crd.spec?.versions ?? []).find((v) => v.name === version && v.served === true);
      if (served === undefined) continue;
      return {
        group,
        version,
        resource: crd.status?.acceptedNames?.plural ?? '',
        kind,
        namespaced: crd.spec?.scope === 'Namespaced',
        subresources: served.subresources?.scale === undefined ? [] : ['scale'],
      };
    }
    return undefined;
  }

  // --- the sync ---

  /**
   * sync: a PDB's status from the listers. A conflict is returned (the key comes back
   * rate-limited); any other failure goes through failSafe. Tests call it directly.
   */
  async sync(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const pdb = this.pdbs.get(namespace, name);
    if (pdb === undefined) return;
    try {
      await this.trySync(pdb);
    } catch (err) {
      // A conflict: requeued without the failSafe.
      if (isConflict(err)) throw err;
      this.onError(new Error(`Failed to sync PDB ${key}: ${errorText(err)}`), key);
      await this.failSafe(pdb, err);
    }
  }

  private async trySync(pdb: ReadonlyPdb): Promise<void> {
    const event = withKind(pdb, 'policy/v1', 'PodDisruptionBudget');
    let pods: ReadonlyPod[];
    try {
      pods = this.getPodsForPdb(pdb);
    } catch (err) {
      this.recorder.record(event, 'Warning', 'NoPods', `Failed to get pods: ${errorText(err)}`);
      throw err;
    }
    if (pods.length === 0) this.recorder.record(event, 'Normal', 'NoPods', 'No matching pods found');

    let expected: { expectedCount: number; desiredHealthy: number; unmanagedPods: string[] };
    try {
      expected = await this.getExpectedPodCount(pdb, pods);
    } catch (err) {
      this.recorder.record(
        event,
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${errorText(err)}`,
      );
      throw err;
    }
    // Unmanaged pods: reported, not an error (the PDB would hot-loop otherwise).
    if (expected.unmanagedPods.length > 0) {
      this.recorder.record(
        event,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${labelSelectorString(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }

    const now = this.clock.now();
    const { disruptedPods, recheckTime } = this.buildDisruptedPodMap(pods, pdb, now);
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    await this.updatePdbStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disruptedPods);
    // At most one recheck waits per PDB, at the earliest time asked for.
    if (recheckTime !== undefined) this.recheckQueue.addAfter(objectKey(pdb), recheckTime - now);
  }

  /**
   * getExpectedPodCount: maxUnavailable (int or percent) against the controllers' scale;
   * minAvailable as an int against the pods selected, as a percent against the scale.
   */
  async getExpectedPodCount(
    pdb: ReadonlyPdb,
    pods: readonly ReadonlyPod[],
  ): Promise<{ expectedCount: number; desiredHealthy: number; unmanagedPods: string[] }> {
    const { maxUnavailable, minAvailable } = pdb.spec ?? {};
    if (maxUnavailable !== undefined) {
      const { expectedCount, unmanagedPods } = await this.getExpectedScale(pdb, pods);
      const max = getScaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
      return { expectedCount, desiredHealthy: Math.max(expectedCount - max, 0), unmanagedPods };
    }
    if (minAvailable !== undefined) {
      if (typeof minAvailable === 'number') {
        return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
      }
      const { expectedCount, unmanagedPods } = await this.getExpectedScale(pdb, pods);
      const min = getScaledValueFromIntOrPercent(minAvailable, expectedCount, true);
      return { expectedCount, desiredHealthy: min, unmanagedPods };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
  }

  /**
   * getExpectedScale: the sum of the scales of the pods' controllers, each counted once; pods
   * without a controller are returned as unmanaged; a controller no finder knows is an error.
   */
  async getExpectedScale(
    _pdb: ReadonlyPdb,
    pods: readonly ReadonlyPod[],
  ): Promise<{ expectedCount: number; unmanagedPods: string[] }> {
    const controllerScale = new Map<string, number>();
    const unmanagedPods: string[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (ref === undefined) {
        unmanagedPods.push(pod.metadata?.name ?? '');
        continue;
      }
      if (controllerScale.has(ref.uid)) continue;
      let found = false;
      for (const finder of this.finders()) {
        const cs = await finder(ref, pod.metadata?.namespace ?? '');
        if (cs !== undefined) {
          controllerScale.set(cs.uid, cs.scale);
          found = true;
          break;
        }
      }
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata?.name ?? '')}`);
    }
    let expectedCount = 0;
    for (const scale of controllerScale.values()) expectedCount += scale;
    return { expectedCount, unmanagedPods };
  }

  /**
   * buildDisruptedPodMap: the disruptedPods entries still waiting (pod there, not being deleted,
   * within DeletionTimeout) and the earliest time one expires; an expired one is dropped with a
   * NotDeleted Warning on its pod.
   */
  private buildDisruptedPodMap(
    pods: readonly ReadonlyPod[],
    pdb: ReadonlyPdb,
    now: number,
  ): { disruptedPods: Record<string, string>; recheckTime: number | undefined } {
    const disrupted = pdb.status?.disruptedPods;
    const result: Record<string, string> = {};
    let recheckTime: number | undefined;
    if (disrupted === undefined) return { disruptedPods: result, recheckTime };
    for (const pod of pods) {
      if (isDeleting(pod)) continue;
      const name = pod.metadata?.name ?? '';
      const time = disrupted[name];
      if (time === undefined) continue;
      const expectedDeletion = Date.parse(time) + DELETION_TIMEOUT_MS;
      if (expectedDeletion < now) {
        // Kubernetes names the PDB by its namespace twice here.
        this.recorder.record(
          withKind(pod, 'v1', 'Pod'),
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${pdb.metadata?.namespace ?? ''}/${pdb.metadata?.namespace ?? ''} to be deleted but it wasn't`,
        );
      } else {
        if (recheckTime === undefined || expectedDeletion < recheckTime) recheckTime = expectedDeletion;
        result[name] = time;
      }
    }
    return { disruptedPods: result, recheckTime };
  }

  /** failSafe: disruptionsAllowed 0 and DisruptionAllowed=False/SyncFailed with the error. */
  private async failSafe(pdb: ReadonlyPdb, err: unknown): Promise<void> {
    const status = structuredClone(pdb.status ?? emptyStatus()) as PodDisruptionBudgetStatus;
    status.disruptionsAllowed = 0;
    status.conditions ??= [];
    setStatusCondition(
      status.conditions,
      {
        type: DISRUPTION_ALLOWED_CONDITION,
        status: 'False',
        reason: SYNC_FAILED_REASON,
        message: errorText(err),
        observedGeneration: status.observedGeneration ?? 0,
      },
      rfc3339(this.clock.now()),
    );
    await this.writePdbStatus(pdb, status);
  }

  /**
   * updatePdbStatus: disruptionsAllowed is currentHealthy − desiredHealthy, 0 while no pod is
   * expected (a PDB whose first pods appear is safe before its first sync); written only when
   * something differs, DisruptionAllowed included.
   */
  private async updatePdbStatus(
    pdb: ReadonlyPdb,
    currentHealthy: number,
    desiredHealthy: number,
    expectedCount: number,
    disruptedPods: Record<string, string>,
  ): Promise<void> {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const old = pdb.status;
    const generation = pdb.metadata?.generation ?? 0;
    if (
      old !== undefined &&
      old.currentHealthy === currentHealthy &&
      old.desiredHealthy === desiredHealthy &&
      old.expectedPods === expectedCount &&
      old.disruptionsAllowed === disruptionsAllowed &&
      sameDisruptedPods(old.disruptedPods, disruptedPods) &&
      (old.observedGeneration ?? 0) === generation &&
      conditionsAreUpToDate(pdb)
    ) {
      return;
    }
    const status: PodDisruptionBudgetStatus = {
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy,
      expectedPods: expectedCount,
      ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
      ...(generation !== 0 ? { observedGeneration: generation } : {}),
      conditions: structuredClone((old?.conditions ?? []) as PodDisruptionBudgetStatus['conditions']) ?? [],
    };
    updateDisruptionAllowedCondition(status, rfc3339(this.clock.now()));
    await this.writePdbStatus(pdb, status);
  }

  /** writePdbStatus: UpdateStatus at the cached resourceVersion, not retried here (the queue retries). */
  private async writePdbStatus(pdb: ReadonlyPdb, status: PodDisruptionBudgetStatus): Promise<void> {
    const body = { ...structuredClone(pdb), status } as PodDisruptionBudget;
    await this.client.updateStatus(RESOURCES.poddisruptionbudgets, pdb.metadata?.namespace ?? '', body);
  }

  /**
   * nonTerminatingPodHasStaleDisruptionCondition: for a pod not being deleted, not terminal, with
   * DisruptionTarget=True set by anyone but the kubelet, how long until the condition is stale (0
   * when it is); undefined when there is no such condition.
   */
  nonTerminatingPodHasStaleDisruptionCondition(pod: ReadonlyPod): number | undefined {
    if (isDeleting(pod)) return undefined;
    const cond = pod.status?.conditions?.find((c) => c.type === DISRUPTION_TARGET);
    const phase = pod.status?.phase ?? '';
    if (
      cond === undefined ||
      cond.status !== 'True' ||
      cond.reason === TERMINATION_BY_KUBELET ||
      phase === 'Succeeded' ||
      phase === 'Failed'
    ) {
      return undefined;
    }
    const since = cond.lastTransitionTime ? this.clock.now() - Date.parse(cond.lastTransitionTime) : this.clock.now();
    return Math.max(this.stalePodDisruptionTimeoutMs - since, 0);
  }

  /** syncStalePodDisruption: DisruptionTarget set back to False once stale (UpdatePodCondition). */
  async syncStalePodDisruption(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const pod = this.pods.get(namespace, name);
    if (pod === undefined) return;
    const cleanAfter = this.nonTerminatingPodHasStaleDisruptionCondition(pod);
    if (cleanAfter === undefined) return;
    if (cleanAfter > 0) {
      this.stalePodDisruptionQueue.addAfter(key, cleanAfter);
      return;
    }
    const updated = structuredClone(pod) as Pod;
    const conditions = updated.status?.conditions ?? [];
    const i = conditions.findIndex((c) => c.type === DISRUPTION_TARGET);
    // A new condition of status False: no reason nor message, the transition now.
    conditions[i] = {
      type: DISRUPTION_TARGET,
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: rfc3339(this.clock.now()),
    };
    await this.client.updateStatus(RESOURCES.pods, namespace, updated);
  }
}

/** countHealthyPods: ready pods neither being deleted nor evicted within DeletionTimeout. */
export function countHealthyPods(
  pods: readonly ReadonlyPod[],
  disruptedPods: Readonly<Record<string, string>>,
  now: number,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (isDeleting(pod)) continue;
    const time = disruptedPods[pod.metadata?.name ?? ''];
    if (time !== undefined && Date.parse(time) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** apiequality.Semantic.DeepEqual of two disruptedPods maps: nil equals empty, times compared as instants. */
function sameDisruptedPods(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>>,
): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] !== undefined && Date.parse(a?.[k] ?? '') === Date.parse(b[k]));
}

const emptyStatus = (): PodDisruptionBudgetStatus => ({
  disruptionsAllowed: 0,
  currentHealthy: 0,
  desiredHealthy: 0,
  expectedPods: 0,
});

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
