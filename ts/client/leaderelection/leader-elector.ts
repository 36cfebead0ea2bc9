/**
 * Leader election through a coordination.k8s.io/v1 Lease (client-go tools/leaderelection at
 * v0.32, with resourcelock/leaselock.go): candidates race to hold the Lease; the holder renews it
 * every retry period and leads while it can; the others take it over once it has gone unrenewed
 * for its duration — measured on their own clock, from when they last saw the record change, so
 * no two clocks need agree. A leader that cannot renew within the renew deadline stops leading.
 *
 *   const elector = new LeaderElector({ client, namespace: 'kube-system', name: 'kube-controller-manager',
 *     identity, clock, onStartedLeading: () => manager.start(), onStoppedLeading: () => manager.stop() });
 *   void elector.run();   …   await elector.stop();
 *
 * Writes are compare-and-swap updates of the Lease last read (its resourceVersion), so two
 * candidates never both win a round.
 */
import { isNotFound } from '../../api/status.js';
import { rfc3339Micro } from '../../api/time.js';
import type { Lease } from '../../api/types/coordination/v1.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Client } from '../client.js';
import type { EventRecorder } from '../event-recorder.js';
import { RESOURCES } from '../resources.js';

// component-base/config/v1alpha1/defaults.go RecommendedDefaultLeaderElectionConfiguration:
// the lease lasts 15 s, the leader must renew within 10 s, candidates retry every 2 s.
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;
// leaderelection.go JitterFactor: acquire retries wait retryPeriod × (1 + up to 1.2).
export const JITTER_FACTOR = 1.2;

/** resourcelock.LeaderElectionRecord: what the Lease spec holds. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

export interface LeaderElectionConfig {
  /** The client the Lease is read and written with (the candidate's own identity). */
  client: Client;
  namespace: string;
  name: string;
  /** This candidate's identity (kube-controller-manager: `<hostname>_<uuid>`). */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  clock?: Clock;
  /** [0, 1): the jitter of the acquire retries (default Math.random). */
  random?: () => number;
  /** Where "became leader" and "stopped leading" Events go (on the Lease), if anywhere. */
  recorder?: EventRecorder;
  /** Called once the Lease is held. */
  onStartedLeading(): void;
  /** Called when run() ends: leadership lost, or stop() (also when it never led, as client-go does). */
  onStoppedLeading(): void;
  /** A new holder observed (this candidate included). */
  onNewLeader?(identity: string): void;
  /** ReleaseOnCancel: stop() while leading gives the Lease up (a 1 s lease, no holder). */
  releaseOnCancel?: boolean;
  /** A failed Lease read or write (logged by client-go; the election goes on). */
  onError?(err: unknown): void;
}

export class LeaderElector {
  private readonly clock: Clock;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly random: () => number;
  /** The last record seen (or written), and when — on this candidate's clock. */
  private observed: LeaderElectionRecord | undefined;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  /** The Lease last read or written: the base of the next compare-and-swap. */
  private lease: Lease | undefined;
  private stopped = false;
  private wake: (() => void) | undefined;
  private cancelTimer: () => void = () => {};
  private running: Promise<void> | undefined;

  constructor(private readonly config: LeaderElectionConfig) {
    this.clock = config.clock ?? realClock;
    this.leaseDurationMs = config.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = config.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryPeriodMs = config.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    this.random = config.random ?? Math.random;
    // NewLeaderElector's checks.
    if (this.leaseDurationMs <= this.renewDeadlineMs)
      throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadlineMs <= JITTER_FACTOR * this.retryPeriodMs) {
      throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    }
    if (this.leaseDurationMs < 1) throw new Error('leaseDuration must be greater than zero');
    if (this.retryPeriodMs < 1) throw new Error('retryPeriod must be greater than zero');
    if (config.identity === '') throw new Error('Lock identity is empty');
  }

  /** GetLeader: the holder last observed. */
  getLeader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /** IsLeader: this candidate holds the record last observed. */
  isLeader(): boolean {
    return this.getLeader() === this.config.identity;
  }

  /** Run: acquires, leads while it renews; resolves once leadership ended or stop() was called. */
  run(): Promise<void> {
    this.running ??= (async () => {
      try {
        if (!(await this.acquire())) return;
        this.config.onStartedLeading();
        await this.renew();
      } finally {
        this.config.onStoppedLeading();
      }
    })();
    return this.running;
  }

  /** Cancels the election (releasing the Lease with releaseOnCancel) and waits for run() to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer();
    this.wake?.();
    await this.running;
  }

  /** acquire: tries at once, then every retryPeriod (jittered) until it holds the Lease. */
  private async acquire(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const ok = await this.tryAcquireOrRenew();
      this.maybeReportTransition();
      if (ok) {
        this.recordEvent('became leader');
        return true;
      }
      await this.sleep(this.retryPeriodMs * (1 + this.random() * JITTER_FACTOR));
    }
  }

  /**
   * renew: every retryPeriod a renewal, retried every retryPeriod until renewDeadline; one that
   * never succeeded in time ends the leadership.
   */
  private async renew(): Promise<void> {
    while (!this.stopped) {
      const deadline = this.clock.now() + this.renewDeadlineMs;
      let renewed = false;
      for (;;) {
        if (this.stopped) break;
        renewed = await this.tryAcquireOrRenew();
        if (renewed || this.clock.now() + this.retryPeriodMs > deadline) break;
        await this.sleep(this.retryPeriodMs);
      }
      this.maybeReportTransition();
      if (!renewed) break;
      await this.sleep(this.retryPeriodMs);
    }
    this.recordEvent('stopped leading');
    if (this.config.releaseOnCancel === true) await this.release();
  }

  /** tryAcquireOrRenew: one round — the fast path when leading, else a read, then create or CAS update. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: Math.floor(this.leaseDurationMs / 1000),
      renewTime: now,
      acquireTime: now,
      leaderTransitions: 0,
    };
    // Leading with a valid lease: renew without reading first.
    if (this.isLeader() && this.isLeaseValid(now) && this.observed !== undefined && this.lease !== undefined) {
      const renewal = {
        ...record,
        acquireTime: this.observed.acquireTime,
        leaderTransitions: this.observed.leaderTransitions,
      };
      try {
        await this.update(renewal);
        this.setObserved(renewal);
        return true;
      } catch (err) {
        // Fall back to the slow path.
        this.config.onError?.(err);
      }
    }
    let current: LeaderElectionRecord;
    try {
      this.lease = await this.config.client.get(RESOURCES.leases, this.config.namespace, this.config.name);
      current = recordOf(this.lease);
    } catch (err) {
      if (!isNotFound(err)) {
        this.config.onError?.(err);
        return false;
      }
      try {
        this.lease = await this.config.client.create(RESOURCES.leases, this.config.namespace, {
          metadata: { name: this.config.name, namespace: this.config.namespace },
          spec: leaseSpec(record),
        });
      } catch (createErr) {
        this.config.onError?.(createErr);
        return false;
      }
      this.setObserved(record);
      return true;
    }
    // The record changed since last seen: its time starts now.
    const raw = JSON.stringify(current);
    if (raw !== this.observedRaw) {
      this.setObserved(current);
      this.observedRaw = raw;
    }
    if (current.holderIdentity !== '' && this.isLeaseValid(now) && !this.isLeader()) return false;
    const next = this.isLeader()
      ? { ...record, acquireTime: current.acquireTime, leaderTransitions: current.leaderTransitions }
      : { ...record, leaderTransitions: current.leaderTransitions + 1 };
    try {
      await this.update(next);
    } catch (err) {
      this.config.onError?.(err);
      return false;
    }
    this.setObserved(next);
    return true;
  }

  /** release: a 1 s lease with no holder, so a stand-by takes over at once. */
  private async release(): Promise<void> {
    if (!this.isLeader() || this.lease === undefined) return;
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: now,
      acquireTime: now,
      leaderTransitions: this.observed?.leaderTransitions ?? 0,
    };
    try {
      await this.update(record);
      this.setObserved(record);
    } catch (err) {
      this.config.onError?.(err);
    }
  }

  /** LeaseLock.Update: the spec replaced on the Lease last read (its resourceVersion the precondition). */
  private async update(record: LeaderElectionRecord): Promise<void> {
    if (this.lease === undefined) throw new Error('lease not initialized, call get or create first');
    this.lease = await this.config.client.update(RESOURCES.leases, this.config.namespace, {
      ...this.lease,
      spec: leaseSpec(record),
    });
  }

  private isLeaseValid(now: number): boolean {
    return this.observedTime + (this.observed?.leaseDurationSeconds ?? 0) * 1000 > now;
  }

  private setObserved(record: LeaderElectionRecord): void {
    this.observed = record;
    this.observedTime = this.clock.now();
  }

  private maybeReportTransition(): void {
    const leader = this.getLeader();
    if (leader === this.reportedLeader) return;
    this.reportedLeader = leader;
    if (leader !== '') this.config.onNewLeader?.(leader);
  }

  /** LeaseLock.RecordEvent: `<identity> <what>`, reason LeaderElection, on the Lease. */
  private recordEvent(what: string): void {
    if (this.lease === undefined) return;
    const subject = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: this.lease.metadata ?? {} };
    this.config.recorder?.record(subject, 'Normal', 'LeaderElection', `${this.config.identity} ${what}`);
  }

  /** Waits `ms` on the clock, or until stop() (at once, once stopped). */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.wake = undefined;
        resolve();
      };
      this.wake = () => {
        this.cancelTimer();
        done();
      };
      this.cancelTimer = this.clock.setTimer(done, ms);
    });
  }
}

/** LeaseSpecToLeaderElectionRecord. */
function recordOf(lease: Lease): LeaderElectionRecord {
  const spec = lease.spec ?? {};
  const ms = (t: string | null | undefined) => (t === undefined || t === null ? 0 : Date.parse(t));
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: ms(spec.acquireTime),
    renewTime: ms(spec.renewTime),
    leaderTransitions: spec.leaseTransitions ?? 0,
  };
}

/** LeaderElectionRecordToLeaseSpec: the times as MicroTime. */
function leaseSpec(record: LeaderElectionRecord): NonNullable<Lease['spec']> {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: rfc3339Micro(record.acquireTime),
    renewTime: rfc3339Micro(record.renewTime),
    leaseTransitions: record.leaderTransitions,
  };
}
