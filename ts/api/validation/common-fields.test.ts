import { describe, expect, it } from 'vitest';
import type { ObjectMeta } from '../meta.js';
import { carryOverSystemMeta, validateCommonCreate, validateCommonUpdate } from './common-fields.js';

const stored: ObjectMeta = {
  name: 'web',
  namespace: 'default',
  uid: 'u1',
  resourceVersion: '7',
  generation: 3,
  creationTimestamp: '2024-05-01T12:00:00Z',
};

describe('rest.BeforeUpdate metadata', () => {
  it('keeps the server-owned fields of the stored object', () => {
    const sent: ObjectMeta = { name: 'web', namespace: 'default', resourceVersion: '7', generation: 99 };
    carryOverSystemMeta(sent, stored);
    expect(sent).toEqual({ ...stored });
    expect(validateCommonUpdate(sent, stored, true)).toEqual([]);
  });

  it('never drops a deletion timestamp or grace period', () => {
    const deleting = { ...stored, deletionTimestamp: '2024-05-02T00:00:00Z', deletionGracePeriodSeconds: 30 };
    const sent: ObjectMeta = { ...stored };
    carryOverSystemMeta(sent, deleting);
    expect(sent.deletionTimestamp).toBe('2024-05-02T00:00:00Z');
    expect(sent.deletionGracePeriodSeconds).toBe(30);
  });

  it('still reports a changed uid', () => {
    const sent: ObjectMeta = { ...stored, uid: 'u2' };
    carryOverSystemMeta(sent, stored);
    expect(validateCommonUpdate(sent, stored, true).map(String)).toEqual([
      'metadata.uid: Invalid value: "u2": field is immutable',
    ]);
  });
});

describe('rest.BeforeCreate metadata', () => {
  it('only asks names to be safe in a URL path', () => {
    expect(validateCommonCreate({ name: 'Anything:Goes', namespace: 'default' }, true)).toEqual([]);
    expect(validateCommonCreate({ name: 'a/b' }, false).map(String)).toEqual([
      'metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
  });
});
