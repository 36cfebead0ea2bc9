/**
 * The CustomResourceDefinitions of the apiserver's shared CRD informer (the informer
 * apiextensions-apiserver's handler and controllers share, which the namespace controller reads
 * too), and the custom resources they serve: `findResource` consults it for any path the built-in
 * table does not serve. Every change is handed to `onChange` (the in-server controllers,
 * controllers.ts).
 *
 *   registry.start();            // with the first request: the informer lists and watches
 *   await registry.synced();     // read-your-writes: every CRD change made before is in
 *   registry.find('stable.example.com', 'v1', 'crontabs');
 */

import type { DeepReadonly } from '../../api/types/readonly.js';
import { compareVersionPriority } from '../../api/version-priority.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { EventHandlerRegistration, SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import type { Storage } from '../../storage/storage.js';
import { waitUntilFresh } from '../informers/fresh.js';
import type { CustomResourceLookup, ResourceInfo } from '../registry/resources.js';
import { servedResourcesOf } from './served.js';
import type { Crd } from './types.js';

/** Where CRDs are stored (objectKey of the apiextensions.k8s.io customresourcedefinitions row). */
export const CRD_PREFIX = '/registry/customresourcedefinitions/';

/** How long a request waits for the CRD informer to catch up before it is served as things stand. */
const SYNC_WAIT_MS = 5000;

export class CrdRegistry implements CustomResourceLookup {
  private informer: SharedIndexInformer<Crd> | undefined;
  private registration: EventHandlerRegistration | undefined;
  /** The served custom resources, rebuilt on the first read after a change. */
  private served: ResourceInfo[] | undefined = [];
  private readonly index = new Map<string, ResourceInfo>();
  /** Called with a CRD's name after each change to it (deleted ones too). */
  onChange: ((name: string) => void) | undefined;

  constructor(
    private readonly informers: SharedInformerFactory,
    private readonly storage: Storage,
  ) {}

  /** Starts the CRD informer (once; the first request does); its first list arrives in the background. */
  start(): void {
    if (this.informer !== undefined) return;
    const informer = this.informers.informerFor<Crd>(RESOURCES.customresourcedefinitions);
    this.informer = informer;
    const changed = (crd: DeepReadonly<Crd>) => {
      this.served = undefined;
      this.onChange?.(crd.metadata?.name ?? '');
    };
    this.registration = informer.addEventHandler({
      onAdd: changed,
      onUpdate: (_old, crd) => changed(crd),
      onDelete: changed,
    });
    // The factory's start(): nothing starts once it is shutting down.
    this.informers.start();
  }

  /**
   * Resolves once every CRD change made up to now is in (a read-your-writes barrier for requests),
   * or after SYNC_WAIT_MS: an informer that cannot catch up (the store away) leaves requests the
   * CRDs as last seen.
   */
  async synced(): Promise<void> {
    this.start();
    if (this.informer === undefined) return;
    await waitUntilFresh([this.informer], this.storage, { timeoutMs: SYNC_WAIT_MS });
  }

  /** Stops telling onChange (the informer is the factory's: its owner stops it). */
  stop(): void {
    if (this.registration !== undefined) this.informer?.removeEventHandler(this.registration);
    this.registration = undefined;
  }

  /** The CRD of that name, as last seen; shared with every reader: read it, never change it. */
  get(name: string): DeepReadonly<Crd> | undefined {
    return this.informer?.get(undefined, name);
  }

  /** Every CRD, as last seen; shared, as get's. */
  list(): DeepReadonly<Crd>[] {
    return this.informer?.list() ?? [];
  }

  find(group: string, version: string, resource: string): ResourceInfo | undefined {
    this.rebuild();
    return this.index.get(`${group}/${version}/${resource}`);
  }

  all(): readonly ResourceInfo[] {
    return this.rebuild();
  }

  private rebuild(): ResourceInfo[] {
    if (this.served !== undefined) return this.served;
    const out = this.list().flatMap(servedResourcesOf);
    // Groups by name, each group's versions by priority, resources by name (CRD discovery order).
    out.sort(
      (a, b) =>
        (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) ||
        compareVersionPriority(a.version, b.version) ||
        (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0),
    );
    this.served = out;
    this.index.clear();
    for (const info of out) this.index.set(`${info.group}/${info.version}/${info.resource}`, info);
    return out;
  }
}
