import { describe, expect, it } from 'vitest';
import { aggregatedDiscovery, apiGroupList, apiResourceList } from './discovery.js';

interface Resource {
  resource: string;
  singularResource: string;
  scope: string;
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string }[];
}
interface Group {
  metadata: { name: string };
  versions: { version: string; resources: Resource[] }[];
}

const groups = () => (aggregatedDiscovery(false) as { items: Group[] }).items;
const find = (group: string, version: string, resource: string) =>
  groups()
    .find((g) => g.metadata.name === group)
    ?.versions.find((v) => v.version === version)
    ?.resources.find((r) => r.resource === resource);

describe('discovery of the served kinds (kube-apiserver 1.32)', () => {
  it('autoscaling lists v2 (preferred) then v1, in one group', () => {
    const autoscaling = groups().filter((g) => g.metadata.name === 'autoscaling');
    expect(autoscaling.map((g) => g.versions.map((v) => v.version))).toEqual([['v2', 'v1']]);
    const legacy = (apiGroupList() as { groups: { name: string; versions: unknown[]; preferredVersion: unknown }[] })
      .groups;
    expect(legacy.find((g) => g.name === 'autoscaling')).toEqual({
      name: 'autoscaling',
      versions: [
        { groupVersion: 'autoscaling/v2', version: 'v2' },
        { groupVersion: 'autoscaling/v1', version: 'v1' },
      ],
      preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
    });
  });

  it.each([
    ['apps', 'v1', 'replicasets', 'replicaset', ['rs'], ['all'], ['scale', 'status']],
    ['apps', 'v1', 'daemonsets', 'daemonset', ['ds'], ['all'], ['status']],
    ['apps', 'v1', 'statefulsets', 'statefulset', ['sts'], ['all'], ['scale', 'status']],
    ['batch', 'v1', 'jobs', 'job', undefined, ['all'], ['status']],
    ['batch', 'v1', 'cronjobs', 'cronjob', ['cj'], ['all'], ['status']],
    ['autoscaling', 'v2', 'horizontalpodautoscalers', 'horizontalpodautoscaler', ['hpa'], ['all'], ['status']],
    ['autoscaling', 'v1', 'horizontalpodautoscalers', 'horizontalpodautoscaler', ['hpa'], ['all'], ['status']],
    ['policy', 'v1', 'poddisruptionbudgets', 'poddisruptionbudget', ['pdb'], undefined, ['status']],
    ['scheduling.k8s.io', 'v1', 'priorityclasses', 'priorityclass', ['pc'], undefined, undefined],
    ['coordination.k8s.io', 'v1', 'leases', 'lease', undefined, undefined, undefined],
    ['discovery.k8s.io', 'v1', 'endpointslices', 'endpointslice', undefined, undefined, undefined],
    ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'clusterrolebinding', undefined, undefined, undefined],
  ])('%s/%s %s', (group, version, resource, singular, shortNames, categories, subresources) => {
    const r = find(group, version, resource);
    expect(r?.singularResource).toBe(singular);
    expect(r?.shortNames).toEqual(shortNames);
    expect(r?.categories).toEqual(categories);
    expect(r?.subresources?.map((s) => s.subresource)).toEqual(subresources);
  });

  it('core endpoints (singular "endpoints"), limitranges, resourcequotas/status; cluster-scoped priorityclasses', () => {
    const core = (
      apiResourceList('', 'v1') as { resources: { name: string; singularName: string; shortNames?: string[] }[] }
    ).resources;
    expect(core.find((r) => r.name === 'endpoints')).toMatchObject({ singularName: 'endpoints', shortNames: ['ep'] });
    expect(core.find((r) => r.name === 'limitranges')).toMatchObject({
      singularName: 'limitrange',
      shortNames: ['limits'],
    });
    expect(core.find((r) => r.name === 'resourcequotas')).toMatchObject({ shortNames: ['quota'] });
    expect(core.some((r) => r.name === 'resourcequotas/status')).toBe(true);
    expect(find('scheduling.k8s.io', 'v1', 'priorityclasses')?.scope).toBe('Cluster');
    expect(find('rbac.authorization.k8s.io', 'v1', 'roles')?.scope).toBe('Namespaced');
    expect(find('rbac.authorization.k8s.io', 'v1', 'clusterroles')?.scope).toBe('Cluster');
  });
});
