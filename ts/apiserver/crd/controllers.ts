/**
 * The apiextensions controllers that run inside kube-apiserver, here on the server's own storage
 * (loopback): the naming controller (status.acceptedNames, NamesAccepted; naming.ts), the
 * establishing controller (Established once the names are accepted) and the finalizer controller
 * (a deleted CRD's instances removed, then its finalizer; finalizer.ts). One worker, one CRD at a
 * time, as the naming controller requires; a key queued while it is worked on runs again after.
 */

import { rfc3339 } from '../../api/time.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Clock } from '../../sim/clock.js';
import type { Storage, StoredObject } from '../../storage/storage.js';
import { decodeForRewrite, encodeForStorage } from '../decode/codec.js';
import { isCondition, setCondition } from './conditions.js';
import { deleteInstances } from './finalizer.js';
import { calculateNames, namesEqual } from './naming.js';
import { CRD_PREFIX, type CrdRegistry } from './registry.js';
import { CRD_CLEANUP_FINALIZER, type Crd } from './types.js';

class NoChange {}

export class CrdControllers {
  private readonly queue = new Set<string>();
  private running = false;
  private stopped = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly storage: Storage,
    private readonly registry: CrdRegistry,
    private readonly clock: Clock,
  ) {
    registry.onChange = (name) => this.enqueue(name);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  enqueue(name: string): void {
    if (this.stopped) return;
    this.queue.add(name);
    if (!this.running) void this.drain();
  }

  /** Requeues `name` after `ms` (an unref'd timer: it must not keep the process alive). */
  private later(name: string, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.enqueue(name);
    }, ms);
    (t as { unref?: () => void }).unref?.();
    this.timers.add(t);
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.size > 0 && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        try {
          await this.sync(name);
        } catch {
          // The store is away or the CRD changed meanwhile: try again shortly.
          this.later(name, 1000);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private now(): string {
    return rfc3339(this.clock.now());
  }

  private async sync(name: string): Promise<void> {
    const crd = this.registry.get(name);
    if (crd === undefined) {
      // Deleted: its names are free, the other CRDs of its group may now take them.
      const group = name.split('.').slice(1).join('.');
      for (const other of this.registry.list())
        if (other.spec?.group === group) this.queue.add(other.metadata?.name ?? '');
      return;
    }
    await this.syncNames(name, crd);
    await this.syncEstablished(name);
    await this.syncFinalizer(name);
  }

  /** NamingConditionController.sync. */
  private async syncNames(name: string, crd: DeepReadonly<Crd>): Promise<void> {
    if (namesEqual(crd.spec?.names ?? {}, crd.status?.acceptedNames ?? {})) return;
    let changed = false;
    // The group's CRDs as stored now, not as the watch last saw them: a name accepted a moment ago
    // counts (the naming controller's mutation cache).
    const stored = (await this.storage.list(CRD_PREFIX)).items.map((i) => decodeForRewrite(i.value) as Crd);
    await this.updateStatus(name, (current) => {
      const result = calculateNames(current, stored.filter((c) => c.metadata?.name !== name).concat(current));
      const sameNames = JSON.stringify(current.status?.acceptedNames ?? {}) === JSON.stringify(result.names);
      current.status ??= {};
      current.status.acceptedNames = result.names;
      const named = setCondition(current, result.namesAccepted, this.now());
      if (sameNames && !named) return false;
      setCondition(current, result.established, this.now());
      changed = true;
      return true;
    });
    // A name may have been released: the group's other CRDs look again.
    if (changed) {
      const group = crd.spec?.group;
      for (const other of this.registry.list()) {
        if (other.spec?.group === group && other.metadata?.name !== name) this.queue.add(other.metadata?.name ?? '');
      }
    }
  }

  /** EstablishingController.sync: Established once NamesAccepted. */
  private async syncEstablished(name: string): Promise<void> {
    await this.updateStatus(name, (crd) => {
      if (!isCondition(crd, 'NamesAccepted', 'True') || isCondition(crd, 'Established', 'True')) return false;
      return setCondition(
        crd,
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
        this.now(),
      );
    });
  }

  /** CRDFinalizer.sync: Terminating, the instances deleted, then the finalizer removed (and the CRD gone). */
  private async syncFinalizer(name: string): Promise<void> {
    const crd = this.registry.get(name);
    const meta = crd?.metadata;
    if (crd === undefined || !meta?.deletionTimestamp || !(meta.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) {
      return;
    }
    await this.updateStatus(name, (c) =>
      setCondition(
        c,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress',
        },
        this.now(),
      ),
    );
    let condition: Parameters<typeof setCondition>[1];
    if (isCondition(crd, 'Established', 'True')) {
      const result = await deleteInstances(this.storage, crd, this.clock);
      condition = result.condition;
      if (result.retry) {
        await this.updateStatus(name, (c) => setCondition(c, condition, this.now()));
        this.later(name, 1000);
        return;
      }
    } else {
      condition = {
        type: 'Terminating',
        status: 'False',
        reason: 'NeverEstablished',
        message: 'resource was never established',
      };
    }
    const stored = await this.updateStatus(name, (c) => {
      setCondition(c, condition, this.now());
      const finalizers = (c.metadata?.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      if (c.metadata !== undefined) {
        if (finalizers.length > 0) c.metadata.finalizers = finalizers;
        else delete c.metadata.finalizers;
      }
      return true;
    });
    // store.go ShouldDeleteDuringUpdate: the last finalizer gone from an object being deleted removes it.
    if (stored !== undefined) {
      const after = decodeForRewrite(stored.value) as Crd;
      if ((after.metadata?.finalizers ?? []).length === 0 && after.metadata?.deletionTimestamp) {
        await this.storage
          .delete(`${CRD_PREFIX}${name}`, { preconditions: { revision: stored.revision } })
          .catch(() => undefined);
      }
    }
  }

  /** An UpdateStatus through storage: `mutate` edits the current CRD and says whether it changed anything. */
  private async updateStatus(name: string, mutate: (crd: Crd) => boolean): Promise<StoredObject | undefined> {
    try {
      return await this.storage.guaranteedUpdate(`${CRD_PREFIX}${name}`, (current) => {
        if (current === undefined) throw new NoChange();
        const crd = decodeForRewrite(current.value) as Crd;
        if (!mutate(crd)) throw new NoChange();
        return encodeForStorage(crd);
      });
    } catch (err) {
      if (err instanceof NoChange) return undefined;
      // Gone meanwhile: nothing left to do.
      if ((err as { code?: string }).code === 'KeyNotFound') return undefined;
      throw err;
    }
  }
}
