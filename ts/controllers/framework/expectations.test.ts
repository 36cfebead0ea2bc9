import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { ControllerExpectations, EXPECTATIONS_TIMEOUT_MS, UIDTrackingControllerExpectations } from './expectations.js';

// controller_utils_test.go (v1.32)
describe('ControllerExpectations', () => {
  it('holds a sync back until adds and deletes are observed, then until they expire (TestControllerExpectations)', () => {
    const clock = new VirtualClock(1_000_000);
    const ttl = 30_000;
    const e = new ControllerExpectations({ clock, timeoutMs: ttl });
    const adds = 10;
    const dels = 30;
    const rcKey = 'default/rc';
    e.setExpectations(rcKey, adds, dels);
    // In prod this happens after a failed create, or having observed one through the informer.
    for (let i = 0; i < adds + 1; i++) e.creationObserved(rcKey);
    // There are still delete expectations.
    expect(e.satisfiedExpectations(rcKey)).toBe(false);
    for (let i = 0; i < dels + 1; i++) e.deletionObserved(rcKey);

    // Expectations have been surpassed.
    expect(e.getExpectations(rcKey)?.getExpectations()).toEqual([-1, -1]);
    expect(e.satisfiedExpectations(rcKey)).toBe(true);

    // Next round of rc sync: old expectations are cleared.
    e.setExpectations(rcKey, 1, 2);
    expect(e.getExpectations(rcKey)?.getExpectations()).toEqual([1, 2]);
    expect(e.satisfiedExpectations(rcKey)).toBe(false);

    // Expectations have expired because of the ttl.
    clock.advance(ttl + 1);
    expect(e.satisfiedExpectations(rcKey)).toBe(true);
  });

  it('expires after ExpectationsTimeout (5 minutes), not at it', () => {
    const clock = new VirtualClock();
    const e = new ControllerExpectations({ clock });
    e.expectCreations('ns/rs', 1);
    clock.advance(EXPECTATIONS_TIMEOUT_MS);
    expect(e.satisfiedExpectations('ns/rs')).toBe(false);
    clock.advance(1);
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);
  });

  it('syncs a controller that set none, and raises and lowers only ones that exist', () => {
    const e = new ControllerExpectations({ clock: new VirtualClock() });
    expect(e.satisfiedExpectations('ns/new')).toBe(true);
    e.raiseExpectations('ns/new', 5, 5);
    expect(e.getExpectations('ns/new')).toBeUndefined();
    e.expectDeletions('ns/rs', 1);
    e.raiseExpectations('ns/rs', 1, 1);
    expect(e.getExpectations('ns/rs')?.getExpectations()).toEqual([1, 2]);
    e.lowerExpectations('ns/rs', 1, 2);
    expect(e.satisfiedExpectations('ns/rs')).toBe(true);
    e.deleteExpectations('ns/rs');
    expect(e.getExpectations('ns/rs')).toBeUndefined();
  });
});

describe('UIDTrackingControllerExpectations', () => {
  it('counts each expected deletion once, and forgets the keys with the counts (TestUIDExpectations)', () => {
    const uidExp = new UIDTrackingControllerExpectations(new ControllerExpectations({ clock: new VirtualClock() }));
    const rcToPods = new Map<string, string[]>();
    for (let i = 0; i < 4; i++) {
      const rcKey = `default/rc-${i}`;
      const pods = Array.from({ length: 5 }, (_, j) => `default/pod${j}-rc-${i}`);
      rcToPods.set(rcKey, pods);
      uidExp.expectDeletions(rcKey, pods);
    }
    // In a shuffled order, as the Go test does.
    for (const rcKey of ['default/rc-2', 'default/rc-0', 'default/rc-3', 'default/rc-1']) {
      expect(uidExp.satisfiedExpectations(rcKey)).toBe(false);
      for (const p of rcToPods.get(rcKey) ?? []) uidExp.deletionObserved(rcKey, p);
      expect(uidExp.satisfiedExpectations(rcKey)).toBe(true);
      uidExp.deleteExpectations(rcKey);
      expect(uidExp.getUIDs(rcKey)).toBeUndefined();
    }
  });

  it('ignores a deletion it did not expect, or one seen twice (graceful delete, then the final one)', () => {
    const uidExp = new UIDTrackingControllerExpectations(new ControllerExpectations({ clock: new VirtualClock() }));
    uidExp.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
    uidExp.deletionObserved('ns/rs', 'ns/a'); // deletionTimestamp set
    uidExp.deletionObserved('ns/rs', 'ns/a'); // the DELETED event
    uidExp.deletionObserved('ns/rs', 'ns/other');
    expect(uidExp.getExpectations('ns/rs')?.getExpectations()).toEqual([0, 1]);
    expect([...(uidExp.getUIDs('ns/rs') ?? [])]).toEqual(['ns/b']);
    uidExp.deletionObserved('ns/rs', 'ns/b');
    expect(uidExp.satisfiedExpectations('ns/rs')).toBe(true);
  });
});
