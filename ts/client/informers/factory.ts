/**
 * The SharedInformerFactory (client-go informers/factory.go at v0.32): every component of a
 * process asks it for the informer of a resource and gets the same one — one list+watch, one
 * cache — however many controllers, node agents or plugins read it.
 *
 *   const factory = new SharedInformerFactory(client, { clock, onError });
 *   const pods = factory.informerFor(RESOURCES.pods);   // Pods' informer, the same object for every caller
 *   pods.addEventHandler({ … });
 *   factory.start();                  // starts every informer asked for so far
 *   await factory.waitForCacheSync();
 *   …  await factory.shutdown();
 *
 * As in client-go, an informer asked for after start() waits for the next start() (which starts
 * only the new ones), and a factory built with other options (namespace, tweakListOptions,
 * transform) is a different factory: its informers are its own. Every informer has the namespace
 * index, as client-go's typed informers do.
 */
import type { KubeObject } from '../../api/meta.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Client } from '../client.js';
import type { GroupVersionResource, ObjectOfResource } from '../resources.js';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX } from './index-funcs.js';
import { SharedIndexInformer, type TransformFunc } from './shared-informer.js';

/** The list options a factory's informers may narrow (internalinterfaces.TweakListOptionsFunc). */
export interface TweakableListOptions {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface SharedInformerFactoryOptions {
  /** WithNamespace: only this namespace's objects (default: every namespace). */
  namespace?: string;
  /** WithTweakListOptions: narrows every list and watch (e.g. a label or field selector). */
  tweakListOptions?: (options: TweakableListOptions) => void;
  /**
   * WithTransform: every informer's SetTransform — each object rewritten before it is cached and
   * before any handler sees it (kube-controller-manager trims managedFields).
   */
  transform?: TransformFunc<KubeObject>;
  clock?: Clock;
  /** A list or watch failure, a failing event handler, or an object an index refused, of one informer (it goes on). */
  onError?: (err: unknown, resource: GroupVersionResource) => void;
  /** Each watch's server-side timeout (default 300 s). */
  watchTimeoutSeconds?: number;
  /** Page size of the lists (0: one page). */
  pageSize?: number;
}

/** schema.GroupVersionResource.String(): `apps/v1, Resource=deployments`, `/v1, Resource=pods`. */
export function resourceString(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}

export class SharedInformerFactory {
  private readonly clock: Clock;
  private readonly informers = new Map<string, SharedIndexInformer<KubeObject>>();
  private readonly startedInformers = new Set<string>();
  private shuttingDown = false;

  constructor(
    private readonly client: Client,
    private readonly options: SharedInformerFactoryOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
  }

  /**
   * InformerFor / ForResource: the one informer of `resource`, made on first ask; typed by the
   * resource's kind (`informerFor(RESOURCES.pods)` is Pod's), or by `T` when given.
   */
  informerFor<T extends KubeObject = never, R extends GroupVersionResource = GroupVersionResource>(
    resource: R,
  ): SharedIndexInformer<[T] extends [never] ? ObjectOfResource<R> : T> {
    type Informer = SharedIndexInformer<[T] extends [never] ? ObjectOfResource<R> : T>;
    const key = resourceString(resource);
    const existing = this.informers.get(key);
    if (existing !== undefined) return existing as unknown as Informer;
    const selectors: TweakableListOptions = {};
    this.options.tweakListOptions?.(selectors);
    const { watchTimeoutSeconds, pageSize, onError, transform } = this.options;
    // A cluster-scoped resource has no namespaces to narrow to (its typed client takes none).
    const clusterScoped = 'namespaced' in resource && resource.namespaced === false;
    const namespace = clusterScoped ? undefined : this.options.namespace;
    const informer: Informer = new SharedIndexInformer(this.client, resource, {
      clock: this.clock,
      indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
      ...(namespace === undefined || namespace === '' ? {} : { namespace }),
      ...(selectors.labelSelector === undefined ? {} : { labelSelector: selectors.labelSelector }),
      ...(selectors.fieldSelector === undefined ? {} : { fieldSelector: selectors.fieldSelector }),
      ...(watchTimeoutSeconds === undefined ? {} : { watchTimeoutSeconds }),
      ...(pageSize === undefined ? {} : { pageSize }),
      ...(onError === undefined ? {} : { onError: (err: unknown) => onError(err, resource) }),
      ...(transform === undefined ? {} : { transform }),
    });
    this.informers.set(key, informer as unknown as SharedIndexInformer<KubeObject>);
    // Asked for during shutdown: it will never start, so it is stopped (its synced() answers false).
    if (this.shuttingDown) void informer.stop();
    return informer;
  }

  /** Start: every informer asked for and not yet started is started; a no-op once shutting down. */
  start(): void {
    if (this.shuttingDown) return;
    for (const [key, informer] of this.informers) {
      if (this.startedInformers.has(key)) continue;
      informer.start();
      this.startedInformers.add(key);
    }
  }

  /**
   * WaitForCacheSync: resolves once every started informer has synced (or stopped), with whether
   * each did, by resource (`apps/v1, Resource=deployments`).
   */
  async waitForCacheSync(): Promise<Map<string, boolean>> {
    const started = [...this.informers].filter(([key]) => this.startedInformers.has(key));
    const results = await Promise.all(started.map(([, informer]) => informer.synced()));
    return new Map(started.map(([key], i) => [key, results[i] as boolean]));
  }

  /** Shutdown: no informer starts any more (one asked for later is stopped at once); every one is stopped; resolves when they have. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  /** The resources asked for so far (`apps/v1, Resource=deployments`), started or not. */
  resources(): string[] {
    return [...this.informers.keys()];
  }
}
