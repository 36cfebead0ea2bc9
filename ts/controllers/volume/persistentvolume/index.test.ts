import { describe, expect, it } from 'vitest';
import type {
  PersistentVolume,
  PersistentVolumeAccessMode,
  PersistentVolumeClaim,
} from '../../../api/types/core/v1.js';
import { findBestMatchForClaim } from './index.js';

const pv = (
  name: string,
  size: string,
  modes: PersistentVolumeAccessMode[],
  extra: Partial<PersistentVolume['spec']> = {},
  labels?: Record<string, string>,
): PersistentVolume => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { capacity: { storage: size }, accessModes: modes, hostPath: { path: `/tmp/${name}` }, ...extra },
  status: { phase: 'Available' },
});
const pvc = (
  size: string,
  modes: PersistentVolumeAccessMode[],
  extra: Partial<PersistentVolumeClaim['spec']> = {},
): PersistentVolumeClaim => ({
  metadata: { name: 'claim01', namespace: 'myns', uid: 'uid01' },
  spec: { accessModes: modes, resources: { requests: { storage: size } }, ...extra },
});

// index_test.go's createTestVolumes, in small: gce (RWO, ROX) 1G/5G/10G, nfs (RWO, ROX, RWX) 1G/5G/10G.
const volumes = [
  pv('gce-pd-1', '1G', ['ReadWriteOnce', 'ReadOnlyMany']),
  pv('gce-pd-5', '5G', ['ReadWriteOnce', 'ReadOnlyMany']),
  pv('gce-pd-10', '10G', ['ReadWriteOnce', 'ReadOnlyMany']),
  pv('nfs-1', '1G', ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']),
  pv('nfs-5', '5G', ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']),
  pv('nfs-10', '10G', ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']),
  pv('gold-10', '10G', ['ReadWriteOnce'], { storageClassName: 'gold' }),
  pv('labelled', '20G', ['ReadWriteOnce'], {}, { tier: 'fast' }),
  pv('block', '30G', ['ReadWriteOnce'], { volumeMode: 'Block' }),
];

describe('findBestMatchForClaim (index_test.go TestMatchVolume)', () => {
  it.each([
    ['the group of fewest modes first, even if larger: RWO-only', pvc('3G', ['ReadWriteOnce']), 'labelled'],
    ['an exact size', pvc('5G', ['ReadOnlyMany']), 'gce-pd-5'],
    ['a superset of modes when RWX is asked for', pvc('3G', ['ReadWriteMany']), 'nfs-5'],
    ['nothing when none is big enough', pvc('999G', ['ReadWriteOnce']), undefined],
    ['a class: only its volumes', pvc('1G', ['ReadWriteOnce'], { storageClassName: 'gold' }), 'gold-10'],
    ['a class none has', pvc('1G', ['ReadWriteOnce'], { storageClassName: 'silver' }), undefined],
    ['a selector', pvc('1G', ['ReadWriteOnce'], { selector: { matchLabels: { tier: 'fast' } } }), 'labelled'],
    ['a Block claim: a Block volume', pvc('1G', ['ReadWriteOnce'], { volumeMode: 'Block' }), 'block'],
  ])('%s', (_name, claim, want) => {
    expect(findBestMatchForClaim(claim, volumes, false)?.metadata?.name).toBe(want);
  });

  it('prefers a volume pre-bound to the claim over a smaller one', () => {
    const prebound = pv('prebound', '10G', ['ReadWriteOnce'], { claimRef: { namespace: 'myns', name: 'claim01' } });
    expect(findBestMatchForClaim(pvc('1G', ['ReadWriteOnce']), [...volumes, prebound], false)?.metadata?.name).toBe(
      'prebound',
    );
  });

  it('skips volumes bound to another claim, volumes not Available and volumes being deleted', () => {
    const others = [
      pv('other', '1G', ['ReadWriteOnce'], { claimRef: { namespace: 'myns', name: 'claim02' } }),
      { ...pv('released', '1G', ['ReadWriteOnce']), status: { phase: 'Released' as const } },
      {
        ...pv('deleting', '1G', ['ReadWriteOnce']),
        metadata: { name: 'deleting', deletionTimestamp: '2024-01-01T00:00:00Z' },
      },
    ];
    expect(findBestMatchForClaim(pvc('1G', ['ReadWriteOnce']), others, false)).toBeUndefined();
  });

  it('with delay binding and no node, matches only pre-bound volumes', () => {
    const prebound = pv('prebound', '10G', ['ReadWriteOnce'], { claimRef: { namespace: 'myns', name: 'claim01' } });
    expect(findBestMatchForClaim(pvc('1G', ['ReadWriteOnce']), volumes, true)).toBeUndefined();
    expect(findBestMatchForClaim(pvc('1G', ['ReadWriteOnce']), [...volumes, prebound], true)?.metadata?.name).toBe(
      'prebound',
    );
  });
});
