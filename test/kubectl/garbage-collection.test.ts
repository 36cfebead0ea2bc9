/**
 * The garbage collector of `kubewasm up` with the real kubectl (v1.32), across scopes and kinds:
 * a ConfigMap owned by a cluster-scoped Node goes with the Node; custom resources own and are
 * owned (a ConfigMap of a CronTab deleted with `--cascade=foreground`, a CronTab of a Deployment
 * orphaned with `--cascade=orphan`); and `kubectl delete crd` takes the instances and, through
 * them, their dependents (test/integration/garbagecollector's TestClusterScopedOwners,
 * TestMixedRelationships and TestCRDDeletionCascading, as a user would run them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster, until } from '../testing/up.js';
import { registerNode } from '../testing/workloads.js';

const cluster = new UpCluster();
const ok = (...args: string[]): string => cluster.kubectlOk(...args);
const apply = (yaml: string): string => {
  const res = cluster.kubectlWithInput(yaml, 'apply', '-f', '-');
  if (res.status !== 0) throw new Error(res.stderr);
  return res.stdout;
};
const uid = (...target: string[]): string => ok('get', ...target, '-o', 'jsonpath={.metadata.uid}');
const absent = (...target: string[]): boolean => cluster.kubectl('get', ...target).status !== 0;

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`;

/** A ConfigMap (or anything) naming `owner` (`apiVersion kind name uid`). */
const ownedConfigMap = (name: string, owner: [string, string, string, string]): string => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  ownerReferences:
  - {apiVersion: ${owner[0]}, kind: ${owner[1]}, name: ${owner[2]}, uid: ${owner[3]}, blockOwnerDeletion: true}
`;

describe.skipIf(!hasKubectl)('the garbage collector with kubectl', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);
  afterAll(async () => {
    await cluster.dispose();
  });

  it('deletes a ConfigMap owned by a Node when the Node goes', async () => {
    await registerNode(cluster, 'node-gc');
    apply(ownedConfigMap('of-node', ['v1', 'Node', 'node-gc', uid('node', 'node-gc')]));
    expect(ok('delete', 'node', 'node-gc')).toBe('node "node-gc" deleted\n');
    await until(() => absent('configmap', 'of-node'));
  });

  it('custom resources own and are owned: foreground and orphan', async () => {
    apply(CRD);
    ok('wait', '--for', 'condition=established', 'crd/crontabs.stable.example.com', '--timeout=10s');
    apply('apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: owner\n');
    apply(ownedConfigMap('of-crontab', ['stable.example.com/v1', 'CronTab', 'owner', uid('crontab', 'owner')]));
    expect(ok('delete', 'crontab', 'owner', '--cascade=foreground')).toBe(
      'crontab.stable.example.com "owner" deleted\n',
    );
    await until(() => absent('configmap', 'of-crontab') && absent('crontab', 'owner'));

    ok('create', 'deployment', 'web', '--image=nginx', '--replicas=0');
    apply(`apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: of-web
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, uid: ${uid('deployment', 'web')}}
`);
    expect(ok('delete', 'deployment', 'web', '--cascade=orphan')).toBe('deployment.apps "web" deleted\n');
    await until(() => absent('deployment', 'web'));
    await until(() => ok('get', 'crontab', 'of-web', '-o', 'jsonpath={.metadata.ownerReferences}') === '');
  }, 30_000);

  it('kubectl delete crd: its instances go, and their dependents with them', async () => {
    apply('apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: keeper\n');
    apply(ownedConfigMap('of-keeper', ['stable.example.com/v1', 'CronTab', 'keeper', uid('crontab', 'keeper')]));
    expect(ok('delete', 'crd', 'crontabs.stable.example.com')).toBe(
      'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n',
    );
    await until(() => absent('configmap', 'of-keeper'), 20_000);
  }, 30_000);
});
