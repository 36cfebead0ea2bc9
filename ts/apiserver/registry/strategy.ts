/**
 * What a resource adds to the generic store: its REST strategy — RESTCreateStrategy,
 * RESTUpdateStrategy, RESTDeleteStrategy and RESTGracefulDeleteStrategy (k8s.io/apiserver
 * pkg/registry/rest/create.go, update.go, delete.go) — and the hook fields of the generic store
 * (pkg/registry/generic/registry/store.go: BeginCreate, BeginUpdate, AfterDelete, TTLFunc,
 * ShouldDeleteDuringUpdate) that a resource's storage package sets
 * (pkg/registry/<group>/<resource>/storage/storage.go). Each resource's is in
 * registry/<group>/<resource>/strategy.ts; registry/strategies.ts finds it by group and resource.
 * A member left out is the generic step (registry/generic/default-strategy.ts).
 */
import type { ErrorList } from '../../api/field-errors.js';
import type { DeleteOptions, KubeObject } from '../../api/meta.js';
import type { ResourceRequest, RestContext } from './generic/context.js';
import type { Obj } from './objects.js';
import type { ResourceInfo } from './resources.js';

/** Which strategy an update goes through: the object's, its status subresource's, or `namespaces/<name>/finalize`'s. */
export type UpdateMode = 'main' | 'status' | 'finalize';

/** PrepareForUpdate and ValidateUpdate of one update strategy (the object's or a subresource's). */
export interface UpdateStrategy {
  /**
   * The new object made what may be written, from the stored one (`old`): status kept, spec reset,
   * …; `now` is the server clock's time (ms), for the few that stamp a time (a PV's phase change).
   */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, info: ResourceInfo, now: number): void;
  /** The kind's own checks on update, after ObjectMeta's. */
  validateUpdate?(obj: KubeObject, old: KubeObject, info: ResourceInfo): ErrorList;
}

/** GarbageCollectionDeleteStrategy's policies (rest/delete.go). */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/** A served version's conversion from and into the storage version (generic/versioned-storage.ts). */
export interface VersionConversion {
  /** The stored object as the served version shows it. */
  out(stored: Obj): Obj;
  /** A served object as stored; `stored` (the object it replaces, if any) keeps what only the storage version can say. */
  in(served: Obj, stored?: Obj): Obj;
}

/** store.go FinishFunc: told whether the write the hook prepared for was stored. */
export type FinishFunc = (success: boolean) => void;

/** The generic store's delete of one object, for a resource with its own Delete to finish with. */
export type GenericDelete = (options: DeleteOptions, obj: KubeObject) => Promise<KubeObject>;

export interface ResourceStrategy {
  /**
   * The scheme's defaulting of a decoded object of `version` (pkg/apis/<group>/<version>/defaults.go
   * SetDefaults_*), applied to a request's body before admission and the strategy see it.
   */
  defaults?(obj: Obj, version: string): void;
  /** Served versions other than the storage version (ResourceInfo.storageVersion), by version. */
  conversions?: Readonly<Record<string, VersionConversion>>;
  /** PrepareForCreate: the status a new object starts with, generated fields, disabled fields dropped. */
  prepareForCreate?(obj: KubeObject, info: ResourceInfo): void;
  /** Validate: the kind's own checks on create, after ObjectMeta's. */
  validate?(obj: KubeObject, info: ResourceInfo): ErrorList;
  /** The object's own update strategy. */
  update?: UpdateStrategy;
  /** The `…/status` subresource's (statusStrategy): only the status is written. */
  status?: UpdateStrategy;
  /** The `…/finalize` subresource's (namespaceFinalizeStrategy). */
  finalize?: UpdateStrategy;

  /**
   * RESTGracefulDeleteStrategy.CheckGracefulDelete: whether a delete is graceful, with the grace
   * period set in `options.gracePeriodSeconds`. Without it deletes are immediate.
   */
  checkGracefulDelete?(obj: KubeObject, options: DeleteOptions): boolean;
  /** GarbageCollectionDeleteStrategy.DefaultGarbageCollectionPolicy; without it DeleteDependents. */
  defaultGarbageCollectionPolicy?(info: ResourceInfo): GarbageCollectionPolicy;

  /** store.go TTLFunc: objects expire this long after creation; updates keep the lease. */
  ttlSeconds?: number;
  /**
   * store.go BeginCreate, after validation and validating admission, before the write (a Service's
   * ClusterIPs and node ports allocated); the FinishFunc is told whether the object was stored.
   */
  beginCreate?(ctx: RestContext, obj: KubeObject, dryRun: boolean): Promise<FinishFunc | undefined>;
  /** Awaited before the attempts of an update of the object itself, whose beginUpdate they call. */
  beforeUpdates?(ctx: RestContext): Promise<void>;
  /**
   * store.go BeginUpdate, in each attempt of an update of the object itself, after validation and
   * validating admission; a retried or failed attempt finishes with false.
   */
  beginUpdate?(ctx: RestContext, obj: KubeObject, old: KubeObject, dryRun: boolean): FinishFunc | undefined;
  /** store.go AfterDelete: the object is gone (a Service's allocations released). */
  afterDelete?(ctx: RestContext, obj: KubeObject): Promise<void>;
  /**
   * store.go ShouldDeleteDuringUpdate: whether an update that leaves `obj` so deletes it. Without
   * it: the last finalizer gone from an object being deleted with no grace period left.
   */
  shouldDeleteDuringUpdate?(obj: KubeObject, old: KubeObject): boolean;

  /** A REST that refuses some deletes before reading the object (the system PriorityClasses). */
  checkDelete?(name: string, info: ResourceInfo): void;
  /**
   * A REST with its own Delete (namespaces, CRDs), given the stored object after validating
   * admission; `genericDelete` is the generic store's delete, for it to end with.
   */
  delete?(
    ctx: RestContext,
    req: ResourceRequest,
    options: DeleteOptions,
    obj: KubeObject,
    genericDelete: GenericDelete,
  ): Promise<KubeObject>;
  /** The REST has no DeleteCollection (namespaces): 405 for a DELETE of the collection. */
  noDeleteCollection?: boolean;
}
