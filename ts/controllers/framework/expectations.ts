/**
 * Expectations (pkg/controller/controller_utils.go at v1.32): what a controller has asked the
 * apiserver to create or delete and not yet seen in its informers. It does not sync a key again
 * until they are observed — or until ExpectationsTimeout passes, in case a watch event was lost.
 *
 *   expectations.expectCreations(rsKey, 3);          // before the 3 creates
 *   onAdd: (pod) => expectations.creationObserved(rsKey);
 *   if (!expectations.satisfiedExpectations(rsKey)) return;   // in sync
 *
 * Once set, expectations can only be lowered; a controller that never set any is synced on every
 * event. UIDTrackingControllerExpectations also remembers which pods it deleted, so that a
 * graceful deletion (an update setting deletionTimestamp) and the final delete count once.
 */
import { type Clock, realClock } from '../../sim/clock.js';

// controller_utils.go ExpectationsTimeout: a dormant controller waiting for lost watch events is
// woken up after this long anyway.
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

/** ControlleeExpectations: the creates and deletes one controller still expects to observe. */
export class ControlleeExpectations {
  constructor(
    readonly key: string,
    private add: number,
    private del: number,
    /** When they were set (ms on the clock). */
    readonly timestamp: number,
  ) {}

  /** Add: raises (or, with negative counts, lowers) both counters. */
  addCounts(add: number, del: number): void {
    this.add += add;
    this.del += del;
  }

  /** Fulfilled: nothing more to observe. */
  fulfilled(): boolean {
    return this.add <= 0 && this.del <= 0;
  }

  /** GetExpectations: [add, del]. */
  getExpectations(): [number, number] {
    return [this.add, this.del];
  }
}

export interface ExpectationsOptions {
  clock?: Clock;
  /** After how long unfulfilled expectations no longer hold a sync back (default 5 min). */
  timeoutMs?: number;
}

/** ControllerExpectations: controller key → its ControlleeExpectations. */
export class ControllerExpectations {
  private readonly store = new Map<string, ControlleeExpectations>();
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(options: ExpectationsOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.timeoutMs = options.timeoutMs ?? EXPECTATIONS_TIMEOUT_MS;
  }

  getExpectations(controllerKey: string): ControlleeExpectations | undefined {
    return this.store.get(controllerKey);
  }

  deleteExpectations(controllerKey: string): void {
    this.store.delete(controllerKey);
  }

  /**
   * SatisfiedExpectations: true when the expected adds and deletes have been observed, when they
   * expired, or when the controller set none (a new controller, or one whose expectations went).
   */
  satisfiedExpectations(controllerKey: string): boolean {
    const exp = this.store.get(controllerKey);
    if (exp === undefined) return true;
    return exp.fulfilled() || this.isExpired(exp);
  }

  /** SetExpectations: replaces whatever the controller expected before. */
  setExpectations(controllerKey: string, add: number, del: number): void {
    this.store.set(controllerKey, new ControlleeExpectations(controllerKey, add, del, this.clock.now()));
  }

  expectCreations(controllerKey: string, adds: number): void {
    this.setExpectations(controllerKey, adds, 0);
  }

  expectDeletions(controllerKey: string, dels: number): void {
    this.setExpectations(controllerKey, 0, dels);
  }

  /** LowerExpectations: a no-op for a controller with none. */
  lowerExpectations(controllerKey: string, add: number, del: number): void {
    this.store.get(controllerKey)?.addCounts(-add, -del);
  }

  /** RaiseExpectations: a no-op for a controller with none. */
  raiseExpectations(controllerKey: string, add: number, del: number): void {
    this.store.get(controllerKey)?.addCounts(add, del);
  }

  /** CreationObserved: one expected create seen (or failed, so never to be seen). */
  creationObserved(controllerKey: string): void {
    this.lowerExpectations(controllerKey, 1, 0);
  }

  /** DeletionObserved: one expected delete seen. */
  deletionObserved(controllerKey: string): void {
    this.lowerExpectations(controllerKey, 0, 1);
  }

  private isExpired(exp: ControlleeExpectations): boolean {
    return this.clock.now() - exp.timestamp > this.timeoutMs;
  }
}

/**
 * UIDTrackingControllerExpectations: ControllerExpectations that remember the keys (pod keys, as
 * the ReplicaSet controller passes them) of the deletions expected, so each counts once.
 */
export class UIDTrackingControllerExpectations {
  private readonly uids = new Map<string, Set<string>>();

  constructor(readonly expectations: ControllerExpectations = new ControllerExpectations()) {}

  /** GetUIDs: the deletions still expected, or undefined when none were recorded. */
  getUIDs(controllerKey: string): ReadonlySet<string> | undefined {
    return this.uids.get(controllerKey);
  }

  /** ExpectDeletions: the given keys, replacing any still expected. */
  expectDeletions(controllerKey: string, deletedKeys: readonly string[]): void {
    const expected = new Set(deletedKeys);
    this.uids.set(controllerKey, expected);
    this.expectations.expectDeletions(controllerKey, expected.size);
  }

  /** DeletionObserved: counts only a key that was expected, and only once. */
  deletionObserved(controllerKey: string, deleteKey: string): void {
    const uids = this.uids.get(controllerKey);
    if (uids === undefined || !uids.has(deleteKey)) return;
    this.expectations.deletionObserved(controllerKey);
    uids.delete(deleteKey);
  }

  /** DeleteExpectations: the counts and the keys both go. */
  deleteExpectations(controllerKey: string): void {
    this.expectations.deleteExpectations(controllerKey);
    this.uids.delete(controllerKey);
  }

  satisfiedExpectations(controllerKey: string): boolean {
    return this.expectations.satisfiedExpectations(controllerKey);
  }

  getExpectations(controllerKey: string): ControlleeExpectations | undefined {
    return this.expectations.getExpectations(controllerKey);
  }

  setExpectations(controllerKey: string, add: number, del: number): void {
    this.expectations.setExpectations(controllerKey, add, del);
  }

  expectCreations(controllerKey: string, adds: number): void {
    this.expectations.expectCreations(controllerKey, adds);
  }

  creationObserved(controllerKey: string): void {
    this.expectations.creationObserved(controllerKey);
  }

  lowerExpectations(controllerKey: string, add: number, del: number): void {
    this.expectations.lowerExpectations(controllerKey, add, del);
  }

  raiseExpectations(controllerKey: string, add: number, del: number): void {
    this.expectations.raiseExpectations(controllerKey, add, del);
  }
}
