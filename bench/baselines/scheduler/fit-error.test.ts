// FitError.Error() (pkg/scheduler/framework/types.go); cases after types_test.go TestFitError_Error.

import { describe, expect, it } from 'vitest';
import { compareGoStrings, fitErrorMessage } from './fit-error.js';

describe('fitErrorMessage', () => {
  it('"nodes failed Prefilter plugin"', () => {
    expect(
      fitErrorMessage({
        numAllNodes: 3,
        preFilterMsg: 'Node(s) failed PreFilter plugin FalsePreFilter',
        nodeReasons: [],
      }),
    ).toBe('0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.');
  });
  it('"nodes failed one Filter plugin"', () => {
    const r = ['Node(s) failed Filter plugin FalseFilter-1'];
    expect(fitErrorMessage({ numAllNodes: 3, nodeReasons: [r, r, r] })).toBe(
      '0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.',
    );
  });
  it('"nodes failed two Filter plugins" — sorted as strings', () => {
    const a = ['Node(s) failed Filter plugin FalseFilter-1'];
    const b = ['Node(s) failed Filter plugin FalseFilter-2'];
    expect(fitErrorMessage({ numAllNodes: 3, nodeReasons: [a, b, a] })).toBe(
      '0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter plugin FalseFilter-1.',
    );
  });
  it('"failed to Permit on node" with a PostFilter message', () => {
    expect(
      fitErrorMessage({
        numAllNodes: 1,
        nodeReasons: [['Node failed Permit plugin Permit-1']],
        postFilterMsg: 'Error running PostFilter plugin FailedPostFilter',
      }),
    ).toBe(
      '0/1 nodes are available: 1 Node failed Permit plugin Permit-1. Error running PostFilter plugin FailedPostFilter',
    );
  });
  it('the brief example: counts then reasons, "10 …" before "2 …"', () => {
    const cpu = ['Insufficient cpu'];
    const taint = ['node(s) had untolerated taint {foo: bar}'];
    expect(fitErrorMessage({ numAllNodes: 5, nodeReasons: [cpu, taint, cpu, taint, cpu] })).toBe(
      '0/5 nodes are available: 2 node(s) had untolerated taint {foo: bar}, 3 Insufficient cpu.',
    );
    const many = Array.from({ length: 10 }, () => cpu);
    expect(fitErrorMessage({ numAllNodes: 12, nodeReasons: [...many, taint, taint] })).toBe(
      '0/12 nodes are available: 10 Insufficient cpu, 2 node(s) had untolerated taint {foo: bar}.',
    );
  });
  it('absent nodes carry the absent-nodes reasons', () => {
    expect(
      fitErrorMessage({
        numAllNodes: 4,
        nodeReasons: [['x']],
        absentNodesReasons: ["node(s) didn't satisfy plugin(s) [NodeAffinity]"],
      }),
    ).toBe("0/4 nodes are available: 1 x, 3 node(s) didn't satisfy plugin(s) [NodeAffinity].");
  });
  it('compares by code point like Go', () => {
    expect(compareGoStrings('a', 'b')).toBe(-1);
    expect(compareGoStrings('ab', 'a')).toBe(1);
    expect(compareGoStrings('\u{ff61}', '\u{1f600}')).toBe(-1); // UTF-16 order would say the opposite
    expect(compareGoStrings('x', 'x')).toBe(0);
  });
});
