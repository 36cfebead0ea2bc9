/**
 * ControllerRevision history (pkg/controller/history/controller_history.go at v1.32): revisions
 * named `<parent>-<hash>` — the hash FNV-32 of the revision's data, salted with the collision
 * count as decimal text, in rand.SafeEncodeString's alphabet, also kept in the
 * `controller.kubernetes.io/hash` label — sorted by revision number (then creation time, then
 * name), compared by data, and the realHistory writes: create (a name taken by other data bumps
 * the collision count and tries again), renumber (retried on conflict), delete, adopt, release.
 *
 *   const history = new ControllerHistory(client, revisionsInformer, clock);
 *   const revision = newControllerRevision(set, STATEFUL_SET_KIND, labels, data, 3, collisionCount);
 *   const created = await history.createControllerRevision(set, revision, collision);   // collision.count may grow
 *
 * The StatefulSet controller uses all of it; the DaemonSet controller its sorting and maxRevision.
 */
import type { Selector } from '../../api/labels/selector.js';
import type { OwnerReference } from '../../api/meta.js';
import { isAlreadyExists, isInvalid, isNotFound } from '../../api/status.js';
import type { ControllerRevision } from '../../api/types/apps/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import { canonicalJson, safeEncodeString } from '../deployment/util/hash.js';
import {
  deleteOwnerRefStrategicMergePatch,
  type GroupVersionKind,
  getControllerOf,
  type ObjectWithMeta,
  ownerRefControllerPatch,
} from '../framework/controller-ref-manager.js';
import { retryOnConflict } from '../framework/retry.js';

type RRevision = DeepReadonly<ControllerRevision>;

// controller_history.go ControllerRevisionHashLabel: the label holding a revision's hash.
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
// controller_history.go ControllerRevisionName: prefixes are cut at 223 characters.
const MAX_PREFIX_LENGTH = 223;
// hash/fnv (Go standard library): offset32 and prime32.
const FNV32_OFFSET = 2166136261;
const FNV32_PRIME = 16777619;

/** The collision count CreateControllerRevision raises in place (Go's *int32). */
export interface CollisionCount {
  count: number;
}

/** ControllerRevisionName: `<prefix>-<hash>`, the prefix cut to 223 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > MAX_PREFIX_LENGTH ? prefix.slice(0, MAX_PREFIX_LENGTH) : prefix}-${hash}`;
}

/** hash/fnv New32 (FNV-1, not 1a: multiply, then xor) over `bytes`, continuing from `h`. */
function fnv32(bytes: Uint8Array, h = FNV32_OFFSET): number {
  let sum = h;
  for (const b of bytes) {
    sum = Math.imul(sum, FNV32_PRIME) >>> 0;
    sum = (sum ^ b) >>> 0;
  }
  return sum;
}

/** The revision's data as the bytes Kubernetes hashes: its JSON, keys sorted. */
export function revisionDataText(data: unknown): string {
  return canonicalJson(data ?? null);
}

/** HashControllerRevision: FNV-32 of the data, then of the probe's decimal text, safe-encoded. */
export function hashControllerRevision(
  revision: DeepReadonly<Pick<ControllerRevision, 'data'>>,
  probe?: number,
): string {
  const encoder = new TextEncoder();
  let h = fnv32(encoder.encode(revisionDataText(revision.data)));
  if (probe !== undefined) h = fnv32(encoder.encode(String(probe)), h);
  return safeEncodeString(String(h >>> 0));
}

/**
 * NewControllerRevision: the revision of `parent` with `data` and `revision`, the template labels
 * plus the hash label, the parent as its controller, named by the hash.
 */
export function newControllerRevision(
  parent: ObjectWithMeta,
  parentKind: GroupVersionKind,
  templateLabels: Readonly<Record<string, string>> | undefined,
  data: unknown,
  revision: number,
  collisionCount?: number,
): ControllerRevision {
  const cr: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      labels: { ...(templateLabels ?? {}) },
      ownerReferences: [newControllerRef(parent, parentKind)],
    },
    data: structuredClone(data),
    revision,
  };
  const hash = hashControllerRevision(cr, collisionCount);
  cr.metadata ??= {};
  cr.metadata.name = controllerRevisionName(parent.metadata?.name ?? '', hash);
  (cr.metadata.labels as Record<string, string>)[CONTROLLER_REVISION_HASH_LABEL] = hash;
  return cr;
}

/** metav1.NewControllerRef: the controlling, deletion-blocking reference to `owner`. */
export function newControllerRef(owner: ObjectWithMeta, kind: GroupVersionKind): OwnerReference {
  return {
    apiVersion: kind.group === '' ? kind.version : `${kind.group}/${kind.version}`,
    kind: kind.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** byRevision: revision number, then creation time, then name. */
function revisionLess(a: RRevision, b: RRevision): boolean {
  const ra = a.revision ?? 0;
  const rb = b.revision ?? 0;
  if (ra !== rb) return ra < rb;
  const ta = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (ta === tb) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '');
  return ta < tb;
}

/** SortControllerRevisions: a stable sort by byRevision, in place. */
export function sortControllerRevisions<T extends RRevision>(revisions: T[]): T[] {
  return revisions.sort((a, b) => (revisionLess(a, b) ? -1 : revisionLess(b, a) ? 1 : 0));
}

/**
 * EqualRevision: the same data; two hash labels that both parse as integers and differ say no
 * first (the shortcut Go takes).
 */
export function equalRevision(lhs: RRevision | undefined, rhs: RRevision | undefined): boolean {
  if (lhs === undefined || rhs === undefined) return lhs === rhs;
  const parse = (r: RRevision): number | undefined => {
    const hs = r.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL];
    return hs !== undefined && /^[+-]?\d+$/.test(hs) ? Number(hs) >>> 0 : undefined;
  };
  const lh = parse(lhs);
  const rh = parse(rhs);
  if (lh !== undefined && rh !== undefined && lh !== rh) return false;
  return revisionDataText(lhs.data) === revisionDataText(rhs.data);
}

/** FindEqualRevisions: those of `revisions` equal to `needle`, in order. */
export function findEqualRevisions<T extends RRevision>(revisions: readonly T[], needle: RRevision): T[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

/** The highest revision number, 0 for none (the DaemonSet controller's maxRevision). */
export function maxRevision(revisions: readonly RRevision[]): number {
  return revisions.reduce((m, h) => Math.max(m, h.revision ?? 0), 0);
}

/** realHistory: the revisions of the shared informer, written through the controller's client. */
export class ControllerHistory {
  constructor(
    private readonly client: Client,
    private readonly revisions: SharedIndexInformer<ControllerRevision>,
    private readonly clock: Clock,
  ) {}

  /** ListControllerRevisions: the namespace's revisions `selector` matches that `parent` controls or nobody does. */
  listControllerRevisions(parent: ObjectWithMeta, selector: Selector): RRevision[] {
    return this.revisions
      .lister()
      .byNamespace(parent.metadata?.namespace ?? '')
      .list()
      .filter((r) => selector.matches(r.metadata?.labels ?? {}))
      .filter((r) => {
        const ref = getControllerOf(r);
        return ref === undefined || ref.uid === parent.metadata?.uid;
      });
  }

  /**
   * CreateControllerRevision: created under the name its hash with `collision.count` gives; a
   * name already taken by the same data is that revision, by other data a collision — the count
   * raised and the next name tried.
   */
  async createControllerRevision(
    parent: ObjectWithMeta,
    revision: DeepReadonly<ControllerRevision>,
    collision: CollisionCount,
  ): Promise<RRevision> {
    const namespace = parent.metadata?.namespace ?? '';
    const clone = structuredClone(revision) as ControllerRevision;
    for (;;) {
      const hash = hashControllerRevision(revision, collision.count);
      clone.metadata = { ...(clone.metadata ?? {}), name: controllerRevisionName(parent.metadata?.name ?? '', hash) };
      try {
        return await this.client.create(RESOURCES.controllerrevisions, namespace, clone);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const exists = await this.client.get(RESOURCES.controllerrevisions, namespace, clone.metadata.name ?? '');
        if (revisionDataText(exists.data) === revisionDataText(clone.data)) return exists;
        collision.count++;
      }
    }
  }

  /** UpdateControllerRevision: the revision renumbered, retried on conflict from the lister's copy. */
  async updateControllerRevision(revision: RRevision, newRevision: number): Promise<RRevision> {
    let clone = structuredClone(revision) as ControllerRevision;
    const namespace = clone.metadata?.namespace ?? '';
    await retryOnConflict(this.clock, async () => {
      if (clone.revision === newRevision) return;
      clone.revision = newRevision;
      try {
        clone = await this.client.update(RESOURCES.controllerrevisions, namespace, clone);
      } catch (err) {
        const cached = this.revisions.get(namespace, clone.metadata?.name ?? '');
        if (cached !== undefined) clone = structuredClone(cached) as ControllerRevision;
        throw err;
      }
    });
    return clone;
  }

  /** DeleteControllerRevision. */
  async deleteControllerRevision(revision: RRevision): Promise<void> {
    await this.client.delete(
      RESOURCES.controllerrevisions,
      revision.metadata?.namespace,
      revision.metadata?.name ?? '',
    );
  }

  /** AdoptControllerRevision: `parent` patched in as the controller; refused for a revision someone controls. */
  async adoptControllerRevision(
    parent: ObjectWithMeta,
    parentKind: GroupVersionKind,
    revision: RRevision,
  ): Promise<RRevision> {
    const owner = getControllerOf(revision);
    if (owner !== undefined) throw new Error(`attempt to adopt revision owned by ${JSON.stringify(owner)}`);
    const patch = ownerRefControllerPatch(parent, parentKind, revision.metadata?.uid ?? '');
    return this.client.patch(
      RESOURCES.controllerrevisions,
      parent.metadata?.namespace,
      revision.metadata?.name ?? '',
      'strategic',
      JSON.parse(patch) as unknown,
    );
  }

  /** ReleaseControllerRevision: `parent`'s reference patched out; a revision gone or not owned is undefined. */
  async releaseControllerRevision(parent: ObjectWithMeta, revision: RRevision): Promise<RRevision | undefined> {
    const patch = deleteOwnerRefStrategicMergePatch(revision.metadata?.uid ?? '', [parent.metadata?.uid ?? '']);
    try {
      return await this.client.patch(
        RESOURCES.controllerrevisions,
        revision.metadata?.namespace,
        revision.metadata?.name ?? '',
        'strategic',
        JSON.parse(patch) as unknown,
      );
    } catch (err) {
      if (isNotFound(err) || isInvalid(err)) return undefined;
      throw err;
    }
  }
}
