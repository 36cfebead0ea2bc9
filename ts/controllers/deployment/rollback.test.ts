// The deprecated rollback annotation (rollback.go; deployment_controller_test.go TestReentrantRollback).
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/types/apps/v1.js';
import { getRollbackTo, rollback } from './rollback.js';
import { fakeContext, newDeployment, newReplicaSet } from './testing/fixtures.js';
import { DEPRECATED_ROLLBACK_TO, REVISION_ANNOTATION } from './util/deployment-util.js';

function setup(to: string) {
  const d = newDeployment('foo', 1, { selector: { foo: 'bar' } });
  if (d.metadata) d.metadata.annotations = { [REVISION_ANNOTATION]: '2', [DEPRECATED_ROLLBACK_TO]: to };
  const rs1 = newReplicaSet(d, 'deploymentrs-old', 0);
  if (rs1.metadata) rs1.metadata.annotations = { [REVISION_ANNOTATION]: '1', team: 'old' };
  const spec = rs1.spec?.template?.spec;
  if (spec) spec.terminationGracePeriodSeconds = 1;
  const rs2 = newReplicaSet(d, 'deploymentrs-new', 1);
  if (rs2.metadata) rs2.metadata.annotations = { [REVISION_ANNOTATION]: '2' };
  return { d, rs1, rs2 };
}

describe('rollback', () => {
  it('revision 0: back to the previous revision’s template; only the Deployment is updated', async () => {
    const { d, rs1, rs2 } = setup('0');
    const dc = fakeContext();
    await rollback(dc, d, [rs1, rs2]);
    expect(dc.actions.map((a) => `${a.verb} ${a.resource}`)).toEqual(['update deployments']);
    const written = dc.actions[0]?.object as Deployment;
    expect(written.spec?.template.spec?.terminationGracePeriodSeconds).toBe(1);
    // The set's annotations, but the skipped ones kept; the rollback annotation gone.
    expect(written.metadata?.annotations).toEqual({ [REVISION_ANNOTATION]: '2', team: 'old' });
    expect(dc.events).toEqual(['Normal DeploymentRollback Rolled back deployment "foo" to revision 1']);
  });

  it('a revision with the same template: a warning, the annotation cleared', async () => {
    const { d, rs1, rs2 } = setup('2');
    const dc = fakeContext();
    await rollback(dc, d, [rs1, rs2]);
    expect(dc.events).toEqual([
      'Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "foo"',
    ]);
    const written = dc.actions[0]?.object as Deployment | undefined;
    expect(written?.metadata?.annotations?.[DEPRECATED_ROLLBACK_TO]).toBeUndefined();
  });

  it('an unknown revision, or no previous one: a warning', async () => {
    const { d, rs1, rs2 } = setup('7');
    const dc = fakeContext();
    await rollback(dc, d, [rs1, rs2]);
    expect(dc.events).toEqual([
      'Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.',
    ]);
    const only = setup('0');
    const dc2 = fakeContext();
    await rollback(dc2, only.d, [only.rs2]);
    expect(dc2.events).toEqual(['Warning DeploymentRollbackRevisionNotFound Unable to find last revision.']);
  });

  it('getRollbackTo reads the annotation as an integer', () => {
    expect(getRollbackTo(setup('3').d)).toBe(3);
    expect(getRollbackTo(setup('x').d)).toBeUndefined();
    expect(getRollbackTo(newDeployment('foo', 1))).toBeUndefined();
  });
});
