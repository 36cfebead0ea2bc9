// Taint and toleration matching (toleration_test.go, helpers_test.go, taints_test.go facts at v1.32).
import { describe, expect, it } from 'vitest';
import {
  addOrUpdateTaint,
  findMatchingUntoleratedTaint,
  getMatchingTolerations,
  removeTaint,
  taintExists,
  taintSetDiff,
  toleratesTaint,
} from './taints.js';
import type { Taint } from './types/core/v1.js';

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' } as const;
const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' } as const;

describe('taints and tolerations', () => {
  it('ToleratesTaint: empty effect and key with Exists match everything; Equal compares values', () => {
    expect(toleratesTaint({ operator: 'Exists' }, unreachable)).toBe(true);
    expect(toleratesTaint({ key: unreachable.key, operator: 'Exists', effect: 'NoSchedule' }, unreachable)).toBe(false);
    expect(
      toleratesTaint({ key: 'foo', value: 'bar', effect: 'NoExecute' }, { ...unreachable, key: 'foo', value: 'bar' }),
    ).toBe(true);
    expect(
      toleratesTaint({ key: 'foo', operator: 'Equal', value: 'baz' }, { ...unreachable, key: 'foo', value: 'bar' }),
    ).toBe(false);
    expect(toleratesTaint({ key: 'foo' }, { ...unreachable, key: 'foo' })).toBe(true);
  });

  it('GetMatchingTolerations: the first tolerating toleration per taint, or none at all', () => {
    const t1 = { key: unreachable.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 } as const;
    expect(getMatchingTolerations([], [])).toEqual([true, []]);
    expect(getMatchingTolerations([unreachable], [])).toEqual([false, []]);
    expect(getMatchingTolerations([unreachable], [t1])).toEqual([true, [t1]]);
    expect(getMatchingTolerations([unreachable, notReady], [t1])).toEqual([false, []]);
  });

  it('AddOrUpdateTaint, RemoveTaint, TaintExists, TaintSetDiff', () => {
    const [added, updated] = addOrUpdateTaint([notReady], unreachable);
    expect([added, updated]).toEqual([[notReady, unreachable], true]);
    expect(addOrUpdateTaint(added, unreachable)[1]).toBe(false);
    const stamped = { ...unreachable, timeAdded: '2025-01-01T00:00:00Z' };
    expect(addOrUpdateTaint(added, stamped)).toEqual([[notReady, stamped], true]);
    expect(removeTaint(added, { ...notReady, value: 'x' })).toEqual([[unreachable], true]);
    expect(removeTaint([unreachable], notReady)).toEqual([[unreachable], false]);
    expect(taintExists([unreachable], { ...unreachable, value: 'v' })).toBe(true);
    expect(taintSetDiff([unreachable], [notReady])).toEqual([[unreachable], [notReady]]);
  });
  it('FindMatchingUntoleratedTaint: the first kept taint no toleration tolerates; ToleratesTaint as toleration.go', () => {
    const taint: Taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
    expect(toleratesTaint({ operator: 'Exists' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Exists', effect: 'NoExecute' }, taint)).toBe(false);
    expect(toleratesTaint({ key: 'k', value: 'v' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'k', operator: 'Equal', value: 'w' }, taint)).toBe(false);
    // toleration.go: an empty key skips the key check, so Equal compares the values alone.
    expect(toleratesTaint({ value: 'v' }, taint)).toBe(true);
    expect(
      findMatchingUntoleratedTaint(
        [{ key: 'a', effect: 'PreferNoSchedule' }, taint],
        [],
        (t) => t.effect !== 'PreferNoSchedule',
      ),
    ).toEqual(taint);
  });
});
