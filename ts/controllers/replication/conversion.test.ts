import { describe, expect, it } from 'vitest';
import type { ReplicationController } from '../../api/types/core/v1.js';
import { replicaSetFromReplicationController } from './conversion.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };

describe('replicaSetFromReplicationController (Convert_v1_ReplicationController_To_apps_ReplicaSet)', () => {
  it.each<[string, ReplicationController, Record<string, unknown>]>([
    [
      'the selector map as matchLabels, replicas and minReadySeconds kept',
      { metadata: { name: 'a' }, spec: { replicas: 3, minReadySeconds: 5, selector: { app: 'web' }, template } },
      { replicas: 3, minReadySeconds: 5, selector: { matchLabels: { app: 'web' } }, template },
    ],
    [
      'a nil selector stays nil; a nil template is an empty one',
      { metadata: { name: 'b' }, spec: { replicas: 1 } },
      { replicas: 1, selector: undefined, template: {} },
    ],
  ])('%s', (_name, rc, spec) => {
    expect(replicaSetFromReplicationController(rc).spec).toEqual(spec);
  });

  it('shares the metadata and the status, conditions and all', () => {
    const rc: ReplicationController = {
      metadata: { name: 'a', namespace: 'ns', uid: 'u', generation: 2 },
      spec: { selector: { app: 'web' }, template },
      status: {
        replicas: 2,
        readyReplicas: 1,
        observedGeneration: 1,
        conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota' }],
      },
    };
    const rs = replicaSetFromReplicationController(rc);
    expect(rs.metadata).toBe(rc.metadata);
    expect(rs.status).toEqual(rc.status);
    expect([rs.apiVersion, rs.kind]).toEqual(['apps/v1', 'ReplicaSet']);
  });
});
