/**
 * A garbage collector for namespaced objects (pkg/controller/garbagecollector, v1.32), smaller than
 * Kubernetes' but with its rules:
 * - an owner being deleted with the `orphan` finalizer: its dependents lose their ownerReference to
 *   it, then the finalizer is removed (attemptToOrphan);
 * - an owner being deleted with `foregroundDeletion`: its dependents are deleted; once none with
 *   blockOwnerDeletion remains, the finalizer is removed (processDeletingDependentsItem);
 * - a dependent whose owners are all gone (checked with a live GET, uid compared) is deleted in the
 *   background; one with some owners gone loses only the dangling references (attemptToDeleteItem).
 *
 * The dependency graph comes from the shared informer of each namespaced resource (the
 * GraphBuilder's monitors: their handlers update the graph and enqueue the items to look at); owner
 * kinds resolve to resources through the same table (the RESTMapper's role). Cluster-scoped owners
 * are not followed.
 *
 *   const gc = new GarbageCollector({ factory, client, resources, clock });
 *   factory.start();
 *   await gc.run(); … await gc.stop();
 */
import {
  FINALIZER_DELETE_DEPENDENTS,
  FINALIZER_ORPHAN_DEPENDENTS,
  type KubeObject,
  type OwnerReference,
} from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import { isApiError } from '../../client/errors.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { ResourceType } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { GARBAGE_COLLECTOR_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';

// kube-controller-manager --concurrent-gc-syncs default.
export const DEFAULT_GC_WORKERS = 20;
const MAX_CONFLICT_RETRIES = 5;

interface Node {
  type: ResourceType;
  namespace: string;
  name: string;
  uid: string;
  owners: OwnerReference[];
  deleting: boolean;
  finalizers: string[];
}

export interface GarbageCollectorOptions {
  /** The shared informers: one per namespaced resource watched. */
  factory: SharedInformerFactory;
  /** The collector's own client: live owner reads, deletes, and reference and finalizer rewrites. */
  client: Client;
  /** The resources whose objects can be owners or dependents (namespaced ones are watched). */
  resources: readonly ResourceType[];
  clock?: Clock;
  /** --concurrent-gc-syncs: run()'s default (20). */
  workers?: number;
  onError?: (err: unknown, uid: string) => void;
}

// garbagecollector DefaultIgnoredResources: events are never owners or dependents worth watching.
const isIgnored = (r: ResourceType): boolean =>
  r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io');

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? (apiVersion.split('/')[0] as string) : '');

export class GarbageCollector implements Controller {
  readonly name = GARBAGE_COLLECTOR_CONTROLLER;
  private readonly client: Client;
  private readonly resources: readonly ResourceType[];
  private readonly nodes = new Map<string, Node>();
  /** owner uid → dependent uids */
  private readonly dependents = new Map<string, Set<string>>();
  private readonly queue: WorkQueue<string>;
  private readonly workers: Workers<string>;
  private readonly defaultWorkers: number;

  constructor(options: GarbageCollectorOptions) {
    this.defaultWorkers = options.workers ?? DEFAULT_GC_WORKERS;
    this.client = options.client;
    this.resources = options.resources;
    const clock = options.clock ?? realClock;
    this.queue = new WorkQueue<string>({ clock });
    const handlers = new Registrations();
    for (const type of this.resources.filter((r) => r.namespaced && !isIgnored(r))) {
      handlers.add(options.factory.informerFor(type), {
        onAdd: (o) => this.observe(type, o),
        onUpdate: (_, o) => this.observe(type, o),
        onDelete: (o) => this.forget(o),
      });
    }
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

  stop(): Promise<void> {
    return this.workers.stop();
  }

  private observe(type: ResourceType, o: KubeObject): void {
    const meta = o.metadata ?? {};
    const uid = meta.uid ?? '';
    if (uid === '') return;
    const previous = this.nodes.get(uid);
    for (const ref of previous?.owners ?? []) this.dependents.get(ref.uid)?.delete(uid);
    const node: Node = {
      type,
      namespace: meta.namespace ?? '',
      name: meta.name ?? '',
      uid,
      owners: meta.ownerReferences ?? [],
      deleting: Boolean(meta.deletionTimestamp),
      finalizers: meta.finalizers ?? [],
    };
    this.nodes.set(uid, node);
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid) ?? new Set<string>();
      this.dependents.set(ref.uid, set);
      set.add(uid);
      // A dependent changed: its owner may be waiting for it (foreground), or be gone.
      this.queue.add(ref.uid);
    }
    if (node.owners.length > 0) this.queue.add(uid);
    if (
      node.deleting &&
      (node.finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS) || node.finalizers.includes(FINALIZER_DELETE_DEPENDENTS))
    ) {
      this.queue.add(uid);
    }
  }

  private forget(o: KubeObject): void {
    const uid = o.metadata?.uid ?? '';
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    this.nodes.delete(uid);
    for (const ref of node.owners) {
      this.dependents.get(ref.uid)?.delete(uid);
      this.queue.add(ref.uid);
    }
    // Its dependents may now be orphans to collect.
    for (const d of this.dependents.get(uid) ?? []) this.queue.add(d);
  }

  private dependentsOf(uid: string): Node[] {
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
  private async collectIfOrphaned(node: Node): Promise<void> {
    const dangling = new Set<string>();
    let waiting = false;
    for (const ref of node.owners) {
      // The graph knows most owners; only an absent one is looked up live (the cache may lag).
      const known = this.nodes.get(ref.uid);
      if (known !== undefined) {
        if (known.deleting && known.finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) waiting = true;
        continue;
      }
      const owner = await this.liveOwner(node.namespace, ref);
      if (owner === undefined) dangling.add(ref.uid);
      else if (
        owner.metadata?.deletionTimestamp &&
        (owner.metadata.finalizers ?? []).includes(FINALIZER_DELETE_DEPENDENTS)
      ) {
        waiting = true;
      }
    }
    if (dangling.size === 0) return;
    if (dangling.size === node.owners.length) {
      await this.deleteNode(node, waiting ? 'Foreground' : 'Background');
      return;
    }
    await this.removeOwnerRefs(node, dangling);
  }

  /** The owner an ownerReference names, if it still exists with that uid (absent: undefined). */
  private async liveOwner(namespace: string, ref: OwnerReference): Promise<KubeObject | undefined> {
    const type = this.resources.find((r) => r.kind === ref.kind && r.group === groupOf(ref.apiVersion));
    // An owner kind this cluster does not serve: leave the dependent alone, as Kubernetes does.
    if (type === undefined) return { metadata: { uid: ref.uid } };
    try {
      const owner = await this.client.get(type, type.namespaced ? namespace : undefined, ref.name);
      return owner.metadata?.uid === ref.uid ? owner : undefined;
    } catch (err) {
      if (isApiError(err) && err.code === 404) return undefined;
      throw err;
    }
  }

  private async deleteNode(node: Node, propagationPolicy: 'Foreground' | 'Background'): Promise<void> {
    try {
      await this.client.delete(node.type, node.namespace, node.name, {
        propagationPolicy,
        preconditions: { uid: node.uid },
      });
    } catch (err) {
      if (!(isApiError(err) && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** Read-modify-write of one object, retried on conflict; a vanished object is done. */
  private async rewrite(node: Node, change: (o: KubeObject) => boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let current: KubeObject;
      try {
        current = await this.client.get(node.type, node.namespace, node.name);
      } catch (err) {
        if (isApiError(err) && err.code === 404) return;
        throw err;
      }
      if (current.metadata?.uid !== node.uid || !change(current)) return;
      try {
        await this.client.update(node.type, node.namespace, current);
        return;
      } catch (err) {
        if (isApiError(err) && err.code === 404) return;
        if (!(isApiError(err) && err.code === 409) || attempt >= MAX_CONFLICT_RETRIES) throw err;
      }
    }
  }

  private removeOwnerRefs(node: Node, uids: ReadonlySet<string>): Promise<void> {
    return this.rewrite(node, (o) => {
      const meta = o.metadata ?? {};
      const refs = meta.ownerReferences ?? [];
      const kept = refs.filter((r) => !uids.has(r.uid));
      if (kept.length === refs.length) return false;
      if (kept.length > 0) meta.ownerReferences = kept;
      else delete meta.ownerReferences;
      return true;
    });
  }

  private removeFinalizer(node: Node, finalizer: string): Promise<void> {
    return this.rewrite(node, (o) => {
      const meta = o.metadata ?? {};
      const list = meta.finalizers ?? [];
      if (!list.includes(finalizer)) return false;
      const kept = list.filter((f) => f !== finalizer);
      if (kept.length > 0) meta.finalizers = kept;
      else delete meta.finalizers;
      return true;
    });
  }
}
