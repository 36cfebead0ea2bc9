import { describe, expect, it } from 'vitest';
import { objectCountEvaluator } from './evaluator.js';
import { podEvaluator, podUsage } from './pods.js';
import { QuotaRegistry } from './registry.js';
import { add, decimal, parseResourceList, prettyPrint, resourceListJson } from './resource-list.js';
import { serviceUsage } from './services.js';

type Obj = Record<string, unknown>;
const NOW = Date.parse('2025-01-01T00:00:00Z');
const usageOf = (pod: Obj) => resourceListJson(podUsage(pod, NOW));
const container = (name: string, requests?: Obj, limits?: Obj, extra: Obj = {}): Obj => ({
  name,
  image: 'x',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
  ...extra,
});
const pod = (spec: Obj, rest: Obj = {}): Obj => ({ metadata: { name: 'p', namespace: 'ns' }, spec, ...rest });
const quota = (hard: Obj, scopes: string[] = [], scopeSelector: Obj[] = []) => ({
  name: 'q',
  scopes,
  scopeSelector: scopeSelector.map((s) => ({
    scopeName: s.scopeName as string,
    operator: s.operator as string,
    values: (s.values as string[]) ?? [],
  })),
  hard: parseResourceList(hard),
});

describe('resource lists', () => {
  it('adds keeping the left format unless it is zero, and prints canonically', () => {
    expect(prettyPrint(add(parseResourceList({ cpu: '1' }), parseResourceList({ cpu: '500m' })))).toBe('cpu=1500m');
    expect(prettyPrint(add(parseResourceList({ memory: '0' }), parseResourceList({ memory: '1Gi' })))).toBe(
      'memory=1Gi',
    );
    expect(prettyPrint(add(parseResourceList({ memory: '1Gi' }), parseResourceList({ memory: '1G' })))).toBe(
      'memory=2073741824',
    );
    expect(
      prettyPrint(parseResourceList({ 'requests.cpu': '1000m', pods: '10', 'limits.memory': '512Mi', b: '1.5' })),
    ).toBe('b=1500m,limits.memory=512Mi,pods=10,requests.cpu=1');
  });
});

describe('pod usage', () => {
  it('charges requests and limits of the containers, cpu/memory as their requests', () => {
    const p = pod({
      containers: [
        container('a', { cpu: '100m', memory: '1Gi' }, { cpu: '200m', memory: '2Gi' }),
        container('b', { cpu: '400m', 'ephemeral-storage': '1G' }, { cpu: '1' }),
      ],
    });
    expect(usageOf(p)).toEqual({
      'count/pods': '1',
      pods: '1',
      cpu: '500m',
      'requests.cpu': '500m',
      'limits.cpu': '1200m',
      memory: '1Gi',
      'requests.memory': '1Gi',
      'limits.memory': '2Gi',
      'ephemeral-storage': '1G',
      'requests.ephemeral-storage': '1G',
    });
  });

  it('takes the largest init phase (with sidecars) and adds the overhead', () => {
    const p = pod({
      containers: [container('app', { cpu: '100m' }, { cpu: '100m' })],
      initContainers: [
        container('side', { cpu: '200m' }, undefined, { restartPolicy: 'Always' }),
        container('init', { cpu: '1' }, { cpu: '2' }),
      ],
      overhead: { cpu: '50m', memory: '10Mi' },
    });
    const u = usageOf(p);
    // app + sidecar = 300m; init phase = 1 + 200m = 1200m; + 50m overhead.
    expect(u['requests.cpu']).toBe('1250m');
    expect(u['requests.memory']).toBe('10Mi');
    // limits: app 100m vs init 2 → 2, + overhead (cpu has a limit); memory has no limit → none.
    expect(u['limits.cpu']).toBe('2050m');
    expect(u['limits.memory']).toBeUndefined();
  });

  it('hugepages and extended resources', () => {
    const p = pod({
      containers: [container('a', { 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2' }, { 'example.com/gpu': '2' })],
    });
    const u = usageOf(p);
    expect(u['hugepages-2Mi']).toBe('4Mi');
    expect(u['requests.hugepages-2Mi']).toBe('4Mi');
    expect(u['requests.example.com/gpu']).toBe('2');
    expect(u['example.com/gpu']).toBeUndefined();
  });

  it('a terminal pod or one past its deletion grace charges only count/pods', () => {
    const spec = { containers: [container('a', { cpu: '1' })] };
    expect(usageOf(pod(spec, { status: { phase: 'Succeeded' } }))).toEqual({ 'count/pods': '1' });
    expect(usageOf(pod(spec, { status: { phase: 'Failed' } }))).toEqual({ 'count/pods': '1' });
    const deleting = (ts: string) =>
      pod(spec, { metadata: { name: 'p', deletionTimestamp: ts, deletionGracePeriodSeconds: 30 } });
    expect(usageOf(deleting('2024-12-31T23:59:00Z'))).toEqual({ 'count/pods': '1' });
    expect(usageOf(deleting('2024-12-31T23:59:45Z')).pods).toBe('1');
  });
});

describe('pod scopes and matching', () => {
  const e = podEvaluator();
  const bestEffort = pod({ containers: [container('a')] });
  const burstable = pod({ containers: [container('a', { cpu: '1' })], activeDeadlineSeconds: 10 });
  const scoped = (scope: string, p: Obj) => e.matches(quota({ pods: '1' }, [scope]), p);

  it('Terminating, NotTerminating, BestEffort, NotBestEffort', () => {
    expect(scoped('BestEffort', bestEffort)).toBe(true);
    expect(scoped('BestEffort', burstable)).toBe(false);
    expect(scoped('NotBestEffort', burstable)).toBe(true);
    expect(scoped('Terminating', burstable)).toBe(true);
    expect(scoped('NotTerminating', burstable)).toBe(false);
    expect(scoped('NotTerminating', bestEffort)).toBe(true);
    // status.qosClass wins over the containers.
    expect(scoped('BestEffort', { ...burstable, status: { qosClass: 'BestEffort' } })).toBe(true);
  });

  it('PriorityClass selectors: In, NotIn, Exists, DoesNotExist', () => {
    const high = pod({ containers: [container('a')], priorityClassName: 'high' });
    const sel = (operator: string, values?: string[]) =>
      quota({ pods: '1' }, [], [{ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }]);
    expect(e.matches(sel('In', ['high', 'x']), high)).toBe(true);
    expect(e.matches(sel('In', ['low']), high)).toBe(false);
    expect(e.matches(sel('In', ['high']), bestEffort)).toBe(false);
    expect(e.matches(sel('NotIn', ['low']), high)).toBe(true);
    expect(e.matches(sel('NotIn', ['high']), high)).toBe(false);
    expect(e.matches(sel('NotIn', ['high']), bestEffort)).toBe(true);
    expect(e.matches(sel('Exists'), high)).toBe(true);
    expect(e.matches(sel('Exists'), bestEffort)).toBe(false);
    expect(e.matches(sel('DoesNotExist'), bestEffort)).toBe(true);
  });

  it('CrossNamespacePodAffinity', () => {
    const affinity = (term: Obj) =>
      pod({
        containers: [container('a')],
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
      });
    expect(scoped('CrossNamespacePodAffinity', affinity({ topologyKey: 'k', namespaces: ['b'] }))).toBe(true);
    expect(scoped('CrossNamespacePodAffinity', affinity({ topologyKey: 'k', namespaceSelector: {} }))).toBe(true);
    expect(scoped('CrossNamespacePodAffinity', affinity({ topologyKey: 'k' }))).toBe(false);
  });

  it('a quota matches only when it tracks one of the evaluator resources', () => {
    expect(e.matches(quota({ 'count/configmaps': '1' }), bestEffort)).toBe(false);
    expect(e.matches(quota({ 'requests.hugepages-1Gi': '1' }), bestEffort)).toBe(true);
    expect(e.matches(quota({ 'requests.example.com/gpu': '1' }), bestEffort)).toBe(true);
    expect(e.matchingResources(['pods', 'services', 'limits.cpu', 'count/pods'])).toEqual([
      'count/pods',
      'limits.cpu',
      'pods',
    ]);
  });

  it('constraints name the containers missing what cpu/memory quotas need', () => {
    const p = pod({
      containers: [container('c', { memory: '1Gi' }), container('a', { cpu: '1', memory: '1Gi' }, { cpu: '1' })],
      initContainers: [container('i')],
    });
    expect(e.constraints(['limits.cpu', 'requests.cpu', 'requests.memory', 'pods'], p)).toBe(
      'must specify limits.cpu for: c,i; requests.cpu for: c,i; requests.memory for: i',
    );
    expect(e.constraints(['pods', 'requests.ephemeral-storage'], p)).toBeUndefined();
  });

  it('handles only creates of the pod itself', () => {
    const base = { subresource: '', object: bestEffort, oldObject: bestEffort };
    expect(e.handles({ ...base, operation: 'CREATE' })).toBe(true);
    expect(e.handles({ ...base, operation: 'UPDATE' })).toBe(false);
    expect(e.handles({ ...base, operation: 'CREATE', subresource: 'binding' })).toBe(false);
  });
});

describe('services and object counts', () => {
  it('counts node ports and load balancers', () => {
    const svc = (spec: Obj) => resourceListJson(serviceUsage({ spec }));
    const ports = [{ port: 80 }, { port: 81, nodePort: 30001 }];
    expect(svc({ type: 'ClusterIP', ports })).toEqual({
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '0',
      'services.nodeports': '0',
    });
    expect(svc({ type: 'NodePort', ports })['services.nodeports']).toBe('2');
    expect(svc({ type: 'LoadBalancer', ports })).toMatchObject({
      'services.nodeports': '2',
      'services.loadbalancers': '1',
    });
    expect(svc({ type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false })['services.nodeports']).toBe('1');
  });

  it('legacy names and count/<resource>.<group>', () => {
    const r = new QuotaRegistry();
    expect(r.get('', 'configmaps').matchingResources(['configmaps', 'count/configmaps', 'secrets'])).toEqual([
      'configmaps',
      'count/configmaps',
    ]);
    const deploy = r.get('apps', 'deployments');
    expect(deploy.matchingResources(['count/deployments.apps', 'count/deployments'])).toEqual([
      'count/deployments.apps',
    ]);
    expect(resourceListJson(deploy.usage({}, NOW))).toEqual({ 'count/deployments.apps': '1' });
    const e = objectCountEvaluator('batch', 'jobs');
    expect(e.handles({ operation: 'UPDATE', subresource: '', object: {}, oldObject: {} })).toBe(false);
    expect(prettyPrint(new Map([['x', decimal(3)]]))).toBe('x=3');
  });
});
