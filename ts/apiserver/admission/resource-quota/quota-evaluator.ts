/**
 * The quota evaluator of admission (controller.go quotaEvaluator, v1.32): writes are gathered per
 * namespace and one namespace is worked on by one loop at a time; a batch is checked against the
 * quotas as stored, each admitted write adding to a running usage, then every changed quota is
 * written once with a compare-and-swap on the revision it was read at. A conflict re-reads the
 * quotas that failed and checks the writes still waiting again (3 retries), so concurrent creates
 * can never be admitted past a quota: the usage a write is checked against is the usage that is
 * stored with it, or the write is checked again.
 *
 * Usage is charged before the object is stored; a write refused later leaves it charged until the
 * quota controller recalculates, as in Kubernetes.
 */
import { newInternalError } from '../../../api/status.js';
import type { Quota } from '../../../quota/quota.js';
import type { QuotaRegistry } from '../../../quota/registry.js';
import { equals } from '../../../quota/resource-list.js';
import { type Clock, realClock } from '../../../sim/clock.js';
import type { AdmissionAttributes } from '../types.js';
import { checkRequest, usageChanged } from './check-request.js';
import type { QuotaAccessor } from './quota-access.js';

// controller.go Evaluate: a waiter gives up after 10 seconds.
export const EVALUATION_TIMEOUT_MS = 10_000;
// controller.go checkAttributes: checkQuotas(quotas, admissionAttributes, 3).
export const UPDATE_RETRIES = 3;

/** defaultDeny: a waiter's result until a decision is made. */
const DEFAULT_DENY = Symbol('DEFAULT DENY');

interface Waiter {
  attributes: AdmissionAttributes;
  result: typeof DEFAULT_DENY | null | unknown;
}

export class QuotaEvaluator {
  private readonly work = new Map<string, Waiter[]>();
  private readonly inProgress = new Set<string>();
  private readonly finished = new WeakMap<Waiter, () => void>();
  private readonly clock: Clock;

  constructor(
    private readonly accessor: QuotaAccessor,
    private readonly registry: QuotaRegistry,
    clock?: Clock,
  ) {
    this.clock = clock ?? realClock;
  }

  /** Evaluate: resolves when `a` fits every quota (and its usage is stored), rejects with the refusal. */
  async evaluate(a: AdmissionAttributes): Promise<void> {
    const evaluator = this.registry.get(a.info.group, a.info.resource);
    if (!evaluator.handles(a)) return;
    // A namespace without quotas needs no turn in its queue (checkAttributes would pass it).
    if (!(await this.accessor.hasQuotas(a.namespace))) return;
    const waiter: Waiter = { attributes: a, result: DEFAULT_DENY };
    return new Promise<void>((resolve, reject) => {
      const cancel = this.clock.setTimer(() => {
        this.finished.delete(waiter);
        reject(newInternalError('resource quota evaluation timed out'));
      }, EVALUATION_TIMEOUT_MS);
      this.finished.set(waiter, () => {
        cancel();
        if (waiter.result === null) resolve();
        else reject(waiter.result === DEFAULT_DENY ? newInternalError('DEFAULT DENY') : waiter.result);
      });
      this.addWork(waiter);
    });
  }

  private addWork(waiter: Waiter): void {
    const ns = waiter.attributes.namespace;
    const list = this.work.get(ns);
    if (list === undefined) this.work.set(ns, [waiter]);
    else list.push(waiter);
    if (!this.inProgress.has(ns)) {
      this.inProgress.add(ns);
      void this.drain(ns);
    }
  }

  /** One loop per namespace: takes everything waiting, checks it, and again until nothing waits. */
  private async drain(ns: string): Promise<void> {
    try {
      for (;;) {
        const batch = this.work.get(ns);
        if (batch === undefined || batch.length === 0) break;
        this.work.delete(ns);
        await this.checkAttributes(ns, batch);
      }
    } finally {
      this.work.delete(ns);
      this.inProgress.delete(ns);
    }
  }

  /** checkAttributes: decides every waiter of the batch, then notifies them all. */
  private async checkAttributes(ns: string, waiters: Waiter[]): Promise<void> {
    try {
      let quotas: Quota[];
      try {
        quotas = await this.accessor.getQuotas(ns);
      } catch (err) {
        for (const w of waiters) w.result = err;
        return;
      }
      if (quotas.length === 0) {
        for (const w of waiters) w.result = null;
        return;
      }
      await this.checkQuotas(ns, quotas, waiters, UPDATE_RETRIES);
    } catch (err) {
      for (const w of waiters) if (w.result === DEFAULT_DENY) w.result = err;
    } finally {
      for (const w of waiters) {
        this.finished.get(w)?.();
        this.finished.delete(w);
      }
    }
  }

  /**
   * checkQuotas: every waiter against the running quotas, then one write per changed quota. On a
   * conflict the failed quotas are read again and the waiters not yet decided are checked again.
   * (Kubernetes checks every waiter again, and one refused before could then pass against the
   * re-read subset; only undecided waiters are checked here.)
   */
  private async checkQuotas(ns: string, quotas: Quota[], waiters: Waiter[], retries: number): Promise<void> {
    const original = quotas;
    let running = quotas;
    let atLeastOneChanged = false;
    const now = this.clock.now();
    for (const w of waiters) {
      if (w.result !== DEFAULT_DENY) continue;
      const a = w.attributes;
      let next: Quota[];
      try {
        next = checkRequest(running, a, this.registry.get(a.info.group, a.info.resource), now);
      } catch (err) {
        w.result = err;
        continue;
      }
      // dry run: checked, never charged.
      if (a.dryRun) {
        w.result = null;
        continue;
      }
      if (usageChanged(running, next)) atLeastOneChanged = true;
      else w.result = null;
      running = next;
    }
    if (!atLeastOneChanged) return;

    const failed: Quota[] = [];
    let lastErr: unknown;
    for (let i = 0; i < running.length; i++) {
      const q = running[i] as Quota;
      if (equals((original[i] as Quota).used, q.used)) continue;
      try {
        await this.accessor.updateQuotaStatus(q);
      } catch (err) {
        failed.push(q);
        lastErr = err;
      }
    }
    if (failed.length === 0) {
      for (const w of waiters) if (w.result === DEFAULT_DENY) w.result = null;
      return;
    }
    if (retries <= 0) {
      for (const w of waiters) if (w.result === DEFAULT_DENY) w.result = lastErr;
      return;
    }
    let fresh: Quota[];
    try {
      fresh = await this.accessor.getQuotas(ns);
    } catch {
      for (const w of waiters) if (w.result === DEFAULT_DENY) w.result = lastErr;
      return;
    }
    const names = new Set(failed.map((q) => q.name));
    await this.checkQuotas(
      ns,
      fresh.filter((q) => names.has(q.name)),
      waiters,
      retries - 1,
    );
  }
}
