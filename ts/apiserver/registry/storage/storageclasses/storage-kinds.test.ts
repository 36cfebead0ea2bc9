import { describe, expect, it } from 'vitest';
import { testServer } from '../../../testing/test-server.js';

const PVCS = '/api/v1/namespaces/team-a/persistentvolumeclaims';
const PVS = '/api/v1/persistentvolumes';
const SCS = '/apis/storage.k8s.io/v1/storageclasses';

const claim = (spec: Record<string, unknown>, name = 'c') => ({ metadata: { name }, spec });
const goodClaimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } };
const hostPathPV = (spec: Record<string, unknown> = {}, name = 'v') => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' }, hostPath: { path: '/mnt/data' }, ...spec },
});

/** The causes of a 422, as `field: message`. */
function causes(body: Record<string, unknown>): string[] {
  const details = body.details as { causes?: { field?: string; message: string }[] } | undefined;
  return (details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message}`);
}

describe('PersistentVolumeClaims (pkg/registry/core/persistentvolumeclaim)', () => {
  it('default volumeMode Filesystem and start Pending', async () => {
    const { json } = await testServer();
    const res = await json('POST', PVCS, claim(goodClaimSpec));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.spec).toEqual({ ...goodClaimSpec, volumeMode: 'Filesystem' });
    expect(res.body.status).toEqual({ phase: 'Pending' });
  });

  // validation_test.go TestValidatePersistentVolumeClaim's facts.
  it.each([
    [
      'no access modes',
      { resources: { requests: { storage: '1Gi' } } },
      ['spec.accessModes: Required value: at least 1 access mode is required'],
    ],
    ['no storage request', { accessModes: ['ReadWriteOnce'] }, ['spec.resources[storage]: Required value']],
    [
      'a zero request',
      { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0' } } },
      ['spec.resources[storage]: Invalid value: "0": must be greater than zero'],
    ],
    [
      'an unknown access mode',
      { accessModes: ['fakemode'], resources: { requests: { storage: '1Gi' } } },
      [
        'spec.accessModes: Unsupported value: "fakemode": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ],
    ],
    [
      'ReadWriteOncePod with another mode',
      { accessModes: ['ReadWriteOncePod', 'ReadWriteMany'], resources: { requests: { storage: '1Gi' } } },
      ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes'],
    ],
    [
      'a bad class name',
      { ...goodClaimSpec, storageClassName: 'Bad_Class' },
      [
        "spec.storageClassName: Invalid value: \"Bad_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'an unknown volume mode',
      { ...goodClaimSpec, volumeMode: 'fakeVolumeMode' },
      ['spec.volumeMode: Unsupported value: "fakeVolumeMode": supported values: "Block", "Filesystem"'],
    ],
    [
      'a data source of another group without kind PVC',
      { ...goodClaimSpec, dataSource: { kind: 'Pod', name: 'x' } },
      [
        'spec.dataSource: Invalid value: "Pod": must be \'PersistentVolumeClaim\' when referencing the default apiGroup',
      ],
    ],
  ])('refuse %s with 422', async (_name, spec, want) => {
    const { json } = await testServer();
    const res = await json('POST', PVCS, claim(spec));
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(causes(res.body)).toEqual(want);
  });

  it('keep the spec immutable but for a larger request and a first volumeName', async () => {
    const { json } = await testServer();
    const created = (await json('POST', PVCS, claim(goodClaimSpec))).body;
    const changed = structuredClone(created) as { spec: Record<string, unknown> };
    changed.spec.accessModes = ['ReadWriteMany'];
    const res = await json('PUT', `${PVCS}/c`, changed);
    expect(res.status).toBe(422);
    expect(String(res.body.message)).toContain(
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
    const bound = structuredClone(created) as { spec: Record<string, unknown> };
    bound.spec.volumeName = 'v';
    expect((await json('PUT', `${PVCS}/c`, bound)).status).toBe(200);
  });

  it('refuse a smaller request', async () => {
    const { json } = await testServer();
    const created = (await json('POST', PVCS, claim(goodClaimSpec))).body;
    const smaller = structuredClone(created) as { spec: { resources: { requests: Record<string, string> } } };
    smaller.spec.resources.requests.storage = '512Mi';
    const res = await json('PUT', `${PVCS}/c`, smaller);
    expect(res.status).toBe(422);
    expect(causes(res.body)).toContain(
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    );
  });

  it('print NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE (VOLUMEMODE wide)', async () => {
    const { json } = await testServer();
    await json('POST', PVCS, claim({ ...goodClaimSpec, storageClassName: 'manual' }));
    const res = await json('GET', PVCS, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const table = res.body as { columnDefinitions: { name: string; priority: number }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'Status',
      'Volume',
      'Capacity',
      'Access Modes',
      'StorageClass',
      'VolumeAttributesClass',
      'Age',
      'VolumeMode',
    ]);
    expect(table.columnDefinitions.at(-1)?.priority).toBe(1);
    expect(table.rows[0]?.cells.slice(0, 7)).toEqual(['c', 'Pending', '', '', '', 'manual', '<unset>']);
  });
});

describe('PersistentVolumes (pkg/registry/core/persistentvolume)', () => {
  it('default Retain, Filesystem and hostPath type "", start Pending since creation', async () => {
    const { json } = await testServer();
    const res = await json('POST', PVS, hostPathPV());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const spec = res.body.spec as Record<string, unknown>;
    expect(spec.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(spec.volumeMode).toBe('Filesystem');
    expect(spec.hostPath).toEqual({ path: '/mnt/data', type: '' });
    const meta = res.body.metadata as { creationTimestamp: string };
    expect(res.body.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: meta.creationTimestamp });
  });

  // validation_test.go TestValidatePersistentVolumes' facts.
  it.each([
    ['no volume source', { hostPath: undefined }, ['spec: Required value: must specify a volume type']],
    [
      'two sources',
      { nfs: { server: 'host', path: '/x' } },
      ['spec.nfs: Forbidden: may not specify more than 1 volume type'],
    ],
    [
      'no capacity',
      { capacity: undefined },
      ['spec.capacity: Required value', 'spec.capacity: Unsupported value: map[]: supported values: "storage"'],
    ],
    ['no access modes', { accessModes: undefined }, ['spec.accessModes: Required value']],
    [
      'an unknown reclaim policy',
      { persistentVolumeReclaimPolicy: 'fakeReclaimPolicy' },
      [
        'spec.persistentVolumeReclaimPolicy: Unsupported value: "fakeReclaimPolicy": supported values: "Delete", "Recycle", "Retain"',
      ],
    ],
    [
      'a local volume without node affinity',
      { hostPath: undefined, local: { path: '/mnt/disks/ssd1' } },
      ['spec.nodeAffinity: Required value: Local volume requires node affinity'],
    ],
    [
      'a csi volume without handle',
      { hostPath: undefined, csi: { driver: 'test-driver' } },
      ['spec.csi.volumeHandle: Required value'],
    ],
    [
      "a Recycle hostPath of '/'",
      { hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' },
      ["spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"],
    ],
  ])('refuse %s with 422', async (_name, spec, want) => {
    const { json } = await testServer();
    const res = await json('POST', PVS, hostPathPV(spec));
    expect(res.status).toBe(422);
    expect(causes(res.body)).toEqual(want);
  });

  it('accept nfs, csi and local (with node affinity) sources', async () => {
    const { json } = await testServer();
    const affinity = {
      required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] },
    };
    for (const [name, spec] of [
      ['nfs', { hostPath: undefined, nfs: { server: 'host', path: '/x' } }],
      ['csi', { hostPath: undefined, csi: { driver: 'test-driver', volumeHandle: 'h' } }],
      ['local', { hostPath: undefined, local: { path: '/mnt/disks/ssd1' }, nodeAffinity: affinity }],
    ] as const) {
      const res = await json('POST', PVS, hostPathPV(spec, name));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });

  it('keep the volume source immutable', async () => {
    const { json } = await testServer();
    const created = (await json('POST', PVS, hostPathPV())).body;
    const changed = structuredClone(created) as { spec: { hostPath: { path: string } } };
    changed.spec.hostPath.path = '/mnt/other';
    const res = await json('PUT', `${PVS}/v`, changed);
    expect(res.status).toBe(422);
    expect(String(res.body.message)).toContain(
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    );
  });

  it('stamp a phase change on the status subresource', async () => {
    const { json, clock } = await testServer();
    const created = (await json('POST', PVS, hostPathPV())).body;
    clock.advance(5000);
    const next = structuredClone(created) as { status: Record<string, unknown> };
    next.status.phase = 'Available';
    const res = await json('PUT', `${PVS}/v/status`, next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = res.body.status as { phase: string; lastPhaseTransitionTime: string };
    expect(status.phase).toBe('Available');
    expect(status.lastPhaseTransitionTime).not.toBe(
      (created.status as Record<string, unknown>).lastPhaseTransitionTime,
    );
  });
});

describe('StorageClasses (pkg/registry/storage/storageclass)', () => {
  it('default reclaimPolicy Delete and volumeBindingMode Immediate', async () => {
    const { json } = await testServer();
    const res = await json('POST', SCS, { metadata: { name: 'fast' }, provisioner: 'example.com/fast' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  });

  it('need a provisioner and a known reclaim policy and binding mode', async () => {
    const { json } = await testServer();
    const res = await json('POST', SCS, {
      metadata: { name: 'bad' },
      provisioner: '',
      reclaimPolicy: 'Recycle',
      volumeBindingMode: 'Later',
    });
    expect(res.status).toBe(422);
    expect(causes(res.body)).toEqual([
      'provisioner: Required value',
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
  });

  it('keep parameters, provisioner, reclaimPolicy and volumeBindingMode immutable', async () => {
    const { json } = await testServer();
    const created = (
      await json('POST', SCS, { metadata: { name: 'fast' }, provisioner: 'example.com/fast', parameters: { a: 'b' } })
    ).body;
    const res = await json('PUT', `${SCS}/fast`, {
      ...created,
      provisioner: 'example.com/slow',
      parameters: { a: 'c' },
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    expect(res.status).toBe(422);
    expect(causes(res.body)).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
  });

  it('print the default class as "<name> (default)"', async () => {
    const { json } = await testServer();
    await json('POST', SCS, {
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'kubewasm.io/simulated-provisioner',
    });
    const res = await json('GET', SCS, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const table = res.body as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'Provisioner',
      'ReclaimPolicy',
      'VolumeBindingMode',
      'AllowVolumeExpansion',
      'Age',
    ]);
    expect(table.rows[0]?.cells.slice(0, 5)).toEqual([
      'standard (default)',
      'kubewasm.io/simulated-provisioner',
      'Delete',
      'Immediate',
      false,
    ]);
  });
});
