// pkg/api/v1/endpoints/util_test.go (v1.32) TestPackSubsets: the expected lists go through
// SortSubsets as the Go test's do, so each case checks the repacking; the hash order itself is
// checked against Go in ../endpointslice/deep-hash.test.ts.
import { describe, expect, it } from 'vitest';
import type { EndpointSubset } from '../../api/types/core/v1.js';
import { repackSubsets, sortSubsets } from './repack-subsets.js';

const ref = (uid: string) => ({ uid });

const cases: Array<{ name: string; given: EndpointSubset[]; expect: EndpointSubset[] }> = [
  { name: 'empty everything', given: [{}], expect: [] },
  { name: 'empty addresses', given: [{ ports: [{ port: 111 }] }], expect: [] },
  { name: 'empty ports', given: [{ addresses: [{ ip: '1.2.3.4' }] }], expect: [{ addresses: [{ ip: '1.2.3.4' }] }] },
  {
    name: 'one set, one notReady ip, one port',
    given: [{ notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
    expect: [{ notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
  },
  {
    name: 'one set, two duplicate ips, one port, notReady is covered by ready',
    given: [{ addresses: [{ ip: '1.2.3.4' }], notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
    expect: [{ notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
  },
  {
    name: 'one set, dup ips, one port',
    given: [{ addresses: [{ ip: '1.2.3.4' }, { ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
    expect: [{ addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
  },
  {
    name: 'one set, dup ips with target-refs, one port',
    given: [
      {
        addresses: [
          { ip: '1.2.3.4', targetRef: { name: 'foo' } },
          { ip: '1.2.3.4', targetRef: { name: 'bar' } },
        ],
        ports: [{ port: 111 }],
      },
    ],
    // Deduplicated by IP and UID: the first one wins.
    expect: [{ addresses: [{ ip: '1.2.3.4', targetRef: { name: 'foo' } }], ports: [{ port: 111 }] }],
  },
  {
    name: 'one set, one ip, dup ports',
    given: [{ addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }, { port: 111 }] }],
    expect: [{ addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
  },
  {
    name: 'two sets, dup mixed ip, dup port',
    given: [
      { addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] },
    ],
    expect: [{ notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] }],
  },
  {
    name: 'two set, dup ip, with and without uid, dup ports',
    given: [
      { addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] },
      { addresses: [{ ip: '1.2.3.4', targetRef: ref('uid-1') }], ports: [{ port: 111 }] },
    ],
    expect: [{ addresses: [{ ip: '1.2.3.4' }, { ip: '1.2.3.4', targetRef: ref('uid-1') }], ports: [{ port: 111 }] }],
  },
  {
    name: 'two sets, two mixed ips, two dup ip with uid, dup port, wrong order, ends up with split addresses',
    given: [
      { addresses: [{ ip: '5.6.7.8' }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '5.6.7.8', targetRef: ref('uid-1') }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '1.2.3.4', targetRef: ref('uid-1') }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] },
    ],
    expect: [
      {
        addresses: [{ ip: '5.6.7.8' }],
        notReadyAddresses: [
          { ip: '1.2.3.4' },
          { ip: '1.2.3.4', targetRef: ref('uid-1') },
          { ip: '5.6.7.8', targetRef: ref('uid-1') },
        ],
        ports: [{ port: 111 }],
      },
    ],
  },
  {
    name: 'four sets, three ips, three ports, jumbled',
    given: [
      { addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] },
      { addresses: [{ ip: '1.2.3.5' }], ports: [{ port: 222 }] },
      { addresses: [{ ip: '1.2.3.6' }], ports: [{ port: 111 }] },
      { addresses: [{ ip: '1.2.3.5' }], ports: [{ port: 333 }] },
    ],
    expect: [
      { addresses: [{ ip: '1.2.3.4' }, { ip: '1.2.3.6' }], ports: [{ port: 111 }] },
      { addresses: [{ ip: '1.2.3.5' }], ports: [{ port: 222 }, { port: 333 }] },
    ],
  },
  {
    name: 'four sets, three mixed ips, three ports, jumbled',
    given: [
      { addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '1.2.3.5' }], ports: [{ port: 222 }] },
      { addresses: [{ ip: '1.2.3.6' }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '1.2.3.5' }], ports: [{ port: 333 }] },
    ],
    expect: [
      { addresses: [{ ip: '1.2.3.4' }, { ip: '1.2.3.6' }], ports: [{ port: 111 }] },
      { notReadyAddresses: [{ ip: '1.2.3.5' }], ports: [{ port: 222 }, { port: 333 }] },
    ],
  },
];

describe('repackSubsets (TestPackSubsets)', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      expect(repackSubsets(tc.given)).toEqual(sortSubsets(structuredClone(tc.expect)));
    });
  }

  it('orders the result the same whatever the input order', () => {
    const given = cases.at(-2)?.given ?? [];
    expect(repackSubsets([...given].reverse())).toEqual(repackSubsets(given));
  });
});
