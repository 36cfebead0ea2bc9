/**
 * The garbage collector (pkg/controller/garbagecollector, v1.32: garbagecollector.go,
 * graph_builder.go, operations.go), smaller than Kubernetes' but with its rules:
 * - an owner being deleted with the `orphan` finalizer: its dependents lose their ownerReference to
 *   it, then the finalizer is removed (attemptToOrphan);
 * - an owner being deleted with `foregroundDeletion`: its dependents are deleted; once none with
 *   blockOwnerDeletion remains, the finalizer is removed (processDeletingDependentsItem);
 * - a dependent whose owners are all gone (checked with a live GET, uid compared) is deleted in the
 *   background; one with some owners gone loses only the dangling references (attemptToDeleteItem).
 *
 * The dependency graph comes from the shared informer of every resource, namespaced and
 * cluster-scoped, and — with `customResources` — of every Established CRD's, monitors added and
 * removed as CRDs come and go (the GraphBuilder's monitors and resyncMonitors: their handlers update
 * the graph and enqueue the items to look at); owner kinds resolve to resources through the same
 * table (the RESTMapper's role). A namespaced dependent's owner of a namespaced kind is looked for
 * in the dependent's namespace, one of a cluster-scoped kind at the cluster scope (isDangling); a
 * reference naming an owner observed in another namespace gets the OwnerRefInvalidNamespace Event
 * on the dependent, and a cluster-scoped dependent naming a namespaced kind is left alone ("cluster-
 * scoped objects cannot refer to namespaced owners"). The graph holds only what exists: an owner
 * UID's entry goes with its last dependent, and with the owner itself (its dependents are looked at
 * again, as orphans maybe); owners seen deleted, or not found, are remembered (absentOwnerCache, the
 * last 500), so a dependent of a custom resource whose CRD went with it is still collected.
 *
 * Writes as operations.go makes them: dependents lose references by a strategic-merge patch
 * deleting them by uid, the dependent's uid as precondition (a JSON merge patch with the
 * resourceVersion for custom resources, which take no strategic merge); finalizers go by a JSON
 * merge patch with the resourceVersion, retried on conflict (retry.RetryOnConflict with
 * DefaultBackoff, then "updateMaxRetries(4) has reached").
 *
 *   const gc = new GarbageCollector({ factory, client, resources, customResources: true, clock });
 *   factory.start();
 *   await gc.run(); … await gc.stop();
 */
import {
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type KubeObject,
  type OwnerReference,
} from '../../api/meta.js';
import { isConflict, isNotFound, isUnsupportedMediaType } from '../../api/status.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import { EventRecorder } from '../../client/event-recorder.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { EventHandlerRegistration, SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { apiVersionOf, type ResourceType } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { deleteOwnerRefStrategicMergePatch } from '../framework/controller-ref-manager.js';
import { CustomResourceTypes } from '../framework/crd-resources.js';
import { GARBAGE_COLLECTOR_CONTROLLER } from '../framework/names.js';
import { DEFAULT_BACKOFF, retryOnConflict } from '../framework/retry.js';
import { Registrations, Workers } from '../framework/workers.js';

// pkg/controller/garbagecollector/config/v1alpha1/defaults.go: --concurrent-gc-syncs 20.
export const DEFAULT_GC_WORKERS = 20;
// graph_builder.go NewReferenceCache(500): the owners remembered absent.
export const ABSENT_OWNER_CACHE_SIZE = 500;
// graph_builder.go: the GraphBuilder's Events come from this component.
const EVENT_COMPONENT = 'garbage-collector-controller';
// graph_builder.go reportInvalidNamespaceOwnerRef.
export const OWNER_REF_INVALID_NAMESPACE = 'OwnerRefInvalidNamespace';

/** graph.go's node: an object of the dependency graph, with its owner references. */
interface GraphNode {
  type: ResourceType;
  /** '' for a cluster-scoped object. */
  namespace: string;
  name: string;
  uid: string;
  owners: readonly DeepReadonly<OwnerReference>[];
  deleting: boolean;
  finalizers: readonly string[];
}

export interface GarbageCollectorOptions {
  /** The shared informers: one per namespaced resource watched. */
  factory: SharedInformerFactory;
  /** The collector's own client: live owner reads, deletes, and reference and finalizer rewrites. */
  client: Client;
  /** The resources whose objects can be owners or dependents, all watched (events aside). */
  resources: readonly ResourceType[];
  /** Also every Established CRD's resource, watched while it is served (the CRD informer's). */
  customResources?: boolean;
  clock?: Clock;
  /** --concurrent-gc-syncs: run()'s default (20). */
  workers?: number;
  onError?: (err: unknown, uid: string) => void;
}

// garbagecollector DefaultIgnoredResources: events are never owners or dependents worth watching.
const isIgnored = (r: ResourceType): boolean =>
  r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io');

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? (apiVersion.split('/')[0] as string) : '');

/** A monitor of a custom resource, added and removed with its CRD. */
interface CustomMonitor {
  informer: SharedIndexInformer<KubeObject>;
  registration: EventHandlerRegistration;
}

const typeKey = (t: ResourceType): string => `${t.group}/${t.version}/${t.resource}`;

export class GarbageCollector implements Controller {
  readonly name = GARBAGE_COLLECTOR_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly factory: SharedInformerFactory;
  /** The built-in types, then the custom ones (a live array with `customResources`). */
  private readonly resources: readonly ResourceType[];
  private readonly customMonitors = new Map<string, CustomMonitor>();
  private readonly nodes = new Map<string, GraphNode>();
  /** owner uid → dependent uids */
  private readonly dependents = new Map<string, Set<string>>();
  /** absentOwnerCache: `<namespace>/<uid>` of owners seen deleted or not found ('' namespace: cluster scope). */
  private readonly absentOwners = new Set<string>();
  private readonly recorder: EventRecorder;
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly defaultWorkers: number;

  constructor(options: GarbageCollectorOptions) {
    this.defaultWorkers = options.workers ?? DEFAULT_GC_WORKERS;
    this.client = options.client;
    this.factory = options.factory;
    this.clock = options.clock ?? realClock;
    this.queue = new WorkQueue<string>({ clock: this.clock });
    this.recorder = new EventRecorder({ client: this.client, clock: this.clock, component: EVENT_COMPONENT });
    const handlers = new Registrations();
    for (const type of options.resources.filter((r) => !isIgnored(r))) {
      handlers.add(options.factory.informerFor(type), this.monitorOf(type));
    }
    this.resources =
      options.customResources === true
        ? new CustomResourceTypes(options.factory, options.resources, handlers, {
            onChange: (custom) => this.syncCustomMonitors(custom),
          }).resources
        : options.resources;
    this.workers = new Workers({
      queue: this.queue,
      handlers,
      sync: (uid) => this.sync(uid),
      onError: options.onError ?? (() => {}),
    });
  }

  /** Waits for every monitor's informer, then runs the workers (--concurrent-gc-syncs). */
  run(workers = this.defaultWorkers): Promise<void> {
    return this.workers.run(workers);
  }

  async stop(): Promise<void> {
    await this.workers.stop();
    for (const key of [...this.customMonitors.keys()]) this.removeCustomMonitor(key);
    await this.recorder.flush();
  }

  /** A monitor's handlers: the graph kept from the informer's events. */
  private monitorOf(type: ResourceType) {
    return {
      onAdd: (o: DeepReadonly<KubeObject>) => this.observe(type, o),
      onUpdate: (_: DeepReadonly<KubeObject>, o: DeepReadonly<KubeObject>) => this.observe(type, o),
      onDelete: (o: DeepReadonly<KubeObject>) => this.forget(o),
    };
  }

  /**
   * resyncMonitors for the custom types: a monitor for each newly served type (its informer started
   * with the factory's), none left for a type no longer served.
   */
  private syncCustomMonitors(custom: readonly ResourceType[]): void {
    const wanted = new Map(custom.map((t) => [typeKey(t), t]));
    for (const key of [...this.customMonitors.keys()]) if (!wanted.has(key)) this.removeCustomMonitor(key);
    let added = false;
    for (const [key, type] of wanted) {
      if (this.customMonitors.has(key)) continue;
      const informer = this.factory.informerFor<KubeObject>(type);
      this.customMonitors.set(key, { informer, registration: informer.addEventHandler(this.monitorOf(type)) });
      added = true;
    }
    // startMonitors: the new informers start (the factory only starts those not yet running).
    if (added) this.factory.start();
  }

  private removeCustomMonitor(key: string): void {
    const monitor = this.customMonitors.get(key);
    if (monitor === undefined) return;
    monitor.informer.removeEventHandler(monitor.registration);
    this.customMonitors.delete(key);
  }

  /** The graph's size: objects, and owner UIDs with dependents (for tests and diagnostics). */
  graphSize(): { nodes: number; owners: number } {
    return { nodes: this.nodes.size, owners: this.dependents.size };
  }

  private observe(type: ResourceType, o: DeepReadonly<KubeObject>): void {
    const meta = o.metadata ?? {};
    const uid = meta.uid ?? '';
    if (uid === '') return;
    const previous = this.nodes.get(uid);
    for (const ref of previous?.owners ?? []) this.unlinkDependent(ref.uid, uid);
    const node: GraphNode = {
      type,
      namespace: meta.namespace ?? '',
      name: meta.name ?? '',
      uid,
      owners: meta.ownerReferences ?? [],
      deleting: Boolean(meta.deletionTimestamp),
      finalizers: meta.finalizers ?? [],
    };
    this.nodes.set(uid, node);
    const known = new Set((previous?.owners ?? []).map((r) => r.uid));
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid) ?? new Set<string>();
      this.dependents.set(ref.uid, set);
      set.add(uid);
      // A dependent changed: its owner may be waiting for it (foreground), or be gone.
      this.queue.add(ref.uid);
      // addDependentToOwners: a new reference to an owner observed in another namespace is wrong.
      const owner = this.nodes.get(ref.uid);
      if (!known.has(ref.uid) && owner !== undefined && owner.namespace !== '' && owner.namespace !== node.namespace) {
        this.reportInvalidNamespaceOwnerRef(node, ref.uid);
      }
    }
    // The owner observed for the first time: its dependents in other namespaces named it wrongly.
    if (previous === undefined && node.namespace !== '') {
      for (const d of this.dependentsOf(uid)) {
        if (d.namespace === node.namespace) continue;
        this.reportInvalidNamespaceOwnerRef(d, uid);
        this.queue.add(d.uid);
      }
    }
    if (node.owners.length > 0) this.queue.add(uid);
    if (
      node.deleting &&
      (node.finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS) || node.finalizers.includes(FINALIZER_DELETE_DEPENDENTS))
    ) {
      this.queue.add(uid);
    }
  }

  private forget(o: DeepReadonly<KubeObject>): void {
    const uid = o.metadata?.uid ?? '';
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    this.nodes.delete(uid);
    // absentOwnerCache.Add(identityFromEvent): its dependents' references to it dangle, served or not.
    this.rememberAbsent(node.namespace, uid);
    for (const ref of node.owners) {
      this.unlinkDependent(ref.uid, uid);
      this.queue.add(ref.uid);
    }
    // Its dependents may now be orphans to collect; a UID never comes back, so its entry goes
    // (a dependent observed again while it still names it brings it back until that goes too).
    for (const d of this.dependents.get(uid) ?? []) this.queue.add(d);
    this.dependents.delete(uid);
  }

  /** `dependent` no longer names `owner`; an owner left without dependents leaves the map. */
  private unlinkDependent(owner: string, dependent: string): void {
    const set = this.dependents.get(owner);
    if (set === undefined) return;
    set.delete(dependent);
    if (set.size === 0) this.dependents.delete(owner);
  }

  private dependentsOf(uid: string): GraphNode[] {
    return [...(this.dependents.get(uid) ?? [])].flatMap((d) => {
      const n = this.nodes.get(d);
      return n === undefined ? [] : [n];
    });
  }

  /** One item: an owner's GC finalizers, then the item as a dependent. */
  private async sync(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    if (node.deleting && node.finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS)) {
      for (const d of this.dependentsOf(uid)) await this.removeOwnerRefs(d, new Set([uid]));
      await this.removeFinalizer(node, FINALIZER_ORPHAN_DEPENDENTS);
      return;
    }
    if (node.deleting && node.finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
      const deps = this.dependentsOf(uid);
      for (const d of deps) if (!d.deleting) await this.deleteNode(d, 'Foreground');
      const blocking = deps.filter((d) => d.owners.some((r) => r.uid === uid && r.blockOwnerDeletion === true));
      if (blocking.length === 0) await this.removeFinalizer(node, FINALIZER_DELETE_DEPENDENTS);
      return;
    }
    if (node.owners.length > 0 && !node.deleting) await this.collectIfOrphaned(node);
  }

  /** attemptToDeleteItem: owners verified live; all gone → delete, some gone → drop those references. */
  private async collectIfOrphaned(node: GraphNode): Promise<void> {
    const dangling = new Set<string>();
    let waiting = false;
    for (const ref of node.owners) {
      const state = await this.ownerState(node, ref);
      // namespacedOwnerOfClusterScopedObjectErr: the item is forgotten, not collected.
      if (state === 'invalid') return;
      if (state === 'dangling') dangling.add(ref.uid);
      else if (state === 'waiting') waiting = true;
    }
    if (dangling.size === 0) return;
    if (dangling.size === node.owners.length) {
      await this.deleteNode(node, waiting ? 'Foreground' : 'Background');
      return;
    }
    await this.removeOwnerRefs(node, dangling);
  }

  /**
   * isDangling: the absent-owner cache first (the cluster scope, then the dependent's namespace);
   * then the owner's kind — unknown: solid, as Kubernetes retries it; namespaced for a
   * cluster-scoped dependent: invalid — then the owner in the graph at the namespace the reference
   * resolves to (the dependent's, or none for a cluster-scoped kind), else read live.
   */
  private async ownerState(
    node: GraphNode,
    ref: DeepReadonly<OwnerReference>,
  ): Promise<'solid' | 'dangling' | 'waiting' | 'invalid'> {
    if (this.absentOwners.has(`/${ref.uid}`) || this.absentOwners.has(`${node.namespace}/${ref.uid}`)) {
      return 'dangling';
    }
    const type = this.resources.find((r) => r.kind === ref.kind && r.group === groupOf(ref.apiVersion));
    // An owner kind this cluster does not serve: leave the dependent alone, as Kubernetes does.
    if (type === undefined) return 'solid';
    if (node.namespace === '' && type.namespaced) return 'invalid';
    const namespace = type.namespaced ? node.namespace : '';
    // The graph knows most owners; only one it does not know there is looked up live (the cache may lag).
    const known = this.nodes.get(ref.uid);
    if (known !== undefined && known.namespace === namespace)
      return isWaitingForDependents(known) ? 'waiting' : 'solid';
    const owner = await this.liveOwner(type, namespace, ref);
    if (owner === undefined) {
      this.rememberAbsent(namespace, ref.uid);
      return 'dangling';
    }
    const meta = owner.metadata ?? {};
    return meta.deletionTimestamp && (meta.finalizers ?? []).includes(FINALIZER_DELETE_DEPENDENTS)
      ? 'waiting'
      : 'solid';
  }

  /** The owner an ownerReference names, if it still exists with that uid (absent: undefined). */
  private async liveOwner(
    type: ResourceType,
    namespace: string,
    ref: DeepReadonly<OwnerReference>,
  ): Promise<KubeObject | undefined> {
    try {
      const owner = await this.client.get(type, type.namespaced ? namespace : undefined, ref.name);
      return owner.metadata?.uid === ref.uid ? owner : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** absentOwnerCache.Add, keeping the last ABSENT_OWNER_CACHE_SIZE. */
  private rememberAbsent(namespace: string, uid: string): void {
    const key = `${namespace}/${uid}`;
    this.absentOwners.delete(key);
    this.absentOwners.add(key);
    if (this.absentOwners.size > ABSENT_OWNER_CACHE_SIZE) {
      const oldest = this.absentOwners.values().next().value;
      if (oldest !== undefined) this.absentOwners.delete(oldest);
    }
  }

  /** reportInvalidNamespaceOwnerRef: a Warning on the dependent naming the reference it cannot have. */
  private reportInvalidNamespaceOwnerRef(node: GraphNode, ownerUid: string): void {
    const ref = node.owners.find((r) => r.uid === ownerUid);
    if (ref === undefined) return;
    const invalid = `[${ref.apiVersion}/${ref.kind}, namespace: ${node.namespace}, name: ${ref.name}, uid: ${ref.uid}]`;
    this.recorder.record(
      {
        apiVersion: apiVersionOf(node.type),
        kind: node.type.kind,
        metadata: { name: node.name, uid: node.uid, ...(node.namespace === '' ? {} : { namespace: node.namespace }) },
      },
      'Warning',
      OWNER_REF_INVALID_NAMESPACE,
      `ownerRef ${invalid} does not exist in namespace ${JSON.stringify(node.namespace)}`,
    );
  }

  private async deleteNode(node: GraphNode, propagationPolicy: 'Foreground' | 'Background'): Promise<void> {
    try {
      await this.client.delete(node.type, namespaceOf(node), node.name, {
        propagationPolicy,
        preconditions: { uid: node.uid },
      });
    } catch (err) {
      if (!(isNotFound(err) || isConflict(err))) throw err;
    }
  }

  /**
   * orphanDependents / the dangling references of attemptToDeleteItem (operations.go patch): the
   * strategic-merge patch deleting the references by uid, with the dependent's uid as
   * precondition; a resource without strategic merge (415, custom resources) gets a JSON merge
   * patch of the references kept, with the resourceVersion read. A vanished dependent is done.
   */
  private async removeOwnerRefs(node: GraphNode, uids: ReadonlySet<string>): Promise<void> {
    try {
      await this.client.patch(
        node.type,
        namespaceOf(node),
        node.name,
        'strategic',
        JSON.parse(deleteOwnerRefStrategicMergePatch(node.uid, [...uids])),
      );
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isUnsupportedMediaType(err)) throw err;
    }
    // deleteOwnerRefJSONMergePatch
    const current = await this.current(node);
    if (current === undefined) return;
    const kept = (current.metadata?.ownerReferences ?? []).filter((r) => !uids.has(r.uid));
    try {
      await this.client.patch(node.type, namespaceOf(node), node.name, 'merge', {
        metadata: {
          resourceVersion: current.metadata?.resourceVersion ?? '',
          ownerReferences: kept.length > 0 ? kept : null,
        },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * removeFinalizer (operations.go): read the owner, drop `finalizer`, JSON merge patch the
   * finalizers with the resourceVersion read; retried on conflict with DefaultBackoff.
   */
  private async removeFinalizer(node: GraphNode, finalizer: string): Promise<void> {
    try {
      await retryOnConflict(this.clock, async () => {
        const owner = await this.current(node);
        if (owner === undefined) return;
        const finalizers = owner.metadata?.finalizers ?? [];
        if (!finalizers.includes(finalizer)) return;
        const kept = finalizers.filter((f) => f !== finalizer);
        await this.client.patch(node.type, namespaceOf(node), node.name, 'merge', {
          metadata: {
            resourceVersion: owner.metadata?.resourceVersion ?? '',
            finalizers: kept.length > 0 ? kept : null,
          },
        });
      });
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err)) {
        throw new Error(
          `updateMaxRetries(${DEFAULT_BACKOFF.steps}) has reached. The garbage collector will retry later for owner ${identity(node)}`,
          { cause: err },
        );
      }
      throw err;
    }
  }

  /** The object a node stands for, read live; undefined when it is gone or replaced (another uid). */
  private async current(node: GraphNode): Promise<KubeObject | undefined> {
    try {
      const o = await this.client.get(node.type, namespaceOf(node), node.name);
      return o.metadata?.uid === node.uid ? o : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}

/** Where a node's object is addressed: its namespace, none for a cluster-scoped one. */
const namespaceOf = (node: GraphNode): string | undefined => (node.namespace === '' ? undefined : node.namespace);

/** An owner being deleted in the foreground: its dependents go first. */
const isWaitingForDependents = (node: GraphNode): boolean =>
  node.deleting && node.finalizers.includes(FINALIZER_DELETE_DEPENDENTS);

/** objectReference.String(): `[apps/v1/Deployment, namespace: default, name: web, uid: …]`. */
function identity(node: GraphNode): string {
  return `[${apiVersionOf(node.type)}/${node.type.kind}, namespace: ${node.namespace}, name: ${node.name}, uid: ${node.uid}]`;
}
