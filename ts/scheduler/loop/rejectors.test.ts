import { describe, expect, it } from 'vitest';
import { rejectorsFromMessage } from './rejectors.js';

describe('rejectorsFromMessage', () => {
  it.each([
    ['0/3 nodes are available: 3 Insufficient cpu.', ['NodeResourcesFit']],
    [
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      ['NodeResourcesFit'],
    ],
    [
      '0/4 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {gpu: true}, 2 node(s) were unschedulable.',
      ['NodeResourcesFit', 'TaintToleration', 'NodeUnschedulable'],
    ],
    ['0/3 nodes are available: pod affinity terms conflict.', ['NodeAffinity']],
    ["0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity].", ['NodeAffinity']],
    ["0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints.", ['PodTopologySpread']],
  ])('%s', (message, plugins) => {
    expect([...(rejectorsFromMessage(message) ?? [])].sort()).toEqual([...plugins].sort());
  });

  it('gives up on reasons it does not know, so the caller can ask the engine', () => {
    expect(rejectorsFromMessage('0/1 nodes are available: 1 something new.')).toBeUndefined();
    expect(rejectorsFromMessage('nothing fits')).toBeUndefined();
  });

  it('names no plugin for an empty cluster (the pod just backs off)', () => {
    expect(rejectorsFromMessage('no nodes available to schedule pods')?.size).toBe(0);
  });
});
