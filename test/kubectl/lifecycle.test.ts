/**
 * The real kubectl (v1.32) against `kubewasm up`: Service ClusterIP and NodePort allocation (the
 * `kubernetes` Service, taken and out-of-range addresses, allocations kept across a restart),
 * namespace deletion (Terminating, then gone with its contents), cascading deletion finalizers and
 * the garbage collector, graceful pod deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, UpCluster } from '../testing/up.js';

// The address the `kubernetes` Endpoints name (kube-apiserver's --advertise-address).
const cluster = new UpCluster(['--advertise-address', '192.0.2.10']);
const kubectl = (...args: string[]) => cluster.kubectl(...args);

/** Polls `check` (real time) until it holds. */
async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const clusterIPOf = (name: string, ns = 'default'): string =>
  kubectl('get', 'svc', name, '-n', ns, '-o', 'jsonpath={.spec.clusterIP}').stdout;

/** The offset of an address in 10.96.0.0/12. */
const offsetIn12 = (ip: string): number => {
  const n = ip.split('.').map(Number) as [number, number, number, number];
  return (n[1] - 96) * 65536 + n[2] * 256 + n[3];
};

describe.skipIf(!hasKubectl)('kubectl: services, namespaces and deletion against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('serves the kubernetes Service at the first address, port 443 to the apiserver', () => {
    expect(kubectl('get', 'svc', 'kubernetes').stdout).toMatch(
      /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\d+s\n$/,
    );
    expect(
      kubectl('get', 'svc', 'kubernetes', '-o', 'jsonpath={.spec.ports[0].name} {.spec.ports[0].targetPort}').stdout,
    ).toBe(`https ${cluster.port}`);
    expect(kubectl('get', 'svc', 'kubernetes', '-o', 'jsonpath={.metadata.labels}').stdout).toBe(
      '{"component":"apiserver","provider":"kubernetes"}',
    );
    // Its endpoints name the advertised address and the apiserver's port.
    expect(kubectl('get', 'endpoints', 'kubernetes').stdout).toMatch(
      new RegExp(`^NAME\\s+ENDPOINTS\\s+AGE\\nkubernetes\\s+192\\.0\\.2\\.10:${cluster.port}\\s+\\d+s\\n$`),
    );
    expect(kubectl('get', 'endpointslice', 'kubernetes', '-o', 'jsonpath={.endpoints[0].addresses[0]}').stdout).toBe(
      '192.0.2.10',
    );
  });

  it('allocates ClusterIPs and NodePorts for kubectl create service', () => {
    expect(kubectl('create', 'service', 'clusterip', 'web', '--tcp=80:8080').stdout).toBe('service/web created\n');
    const ip = clusterIPOf('web');
    expect(ip).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(offsetIn12(ip)).toBeGreaterThan(256);
    expect(kubectl('get', 'svc', 'web').stdout).toMatch(
      new RegExp(`^web\\s+ClusterIP\\s+${ip.replaceAll('.', '\\.')}\\s+<none>\\s+80/TCP\\s+\\d+s$`, 'm'),
    );

    expect(kubectl('create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080').stdout).toBe(
      'service/np created\n',
    );
    expect(kubectl('get', 'svc', 'np').stdout).toMatch(
      /^np\s+NodePort\s+10\.\d+\.\d+\.\d+\s+<none>\s+80:30080\/TCP\s+\d+s$/m,
    );
    expect(kubectl('create', 'service', 'nodeport', 'np2', '--tcp=443').stdout).toBe('service/np2 created\n');
    const np2 = Number(kubectl('get', 'svc', 'np2', '-o', 'jsonpath={.spec.ports[0].nodePort}').stdout);
    expect(np2).toBeGreaterThanOrEqual(30000);
    expect(np2).toBeLessThanOrEqual(32767);

    expect(kubectl('create', 'service', 'clusterip', 'dns', '--clusterip=10.96.0.10', '--tcp=53').stdout).toBe(
      'service/dns created\n',
    );
    expect(kubectl('create', 'service', 'clusterip', 'headless', '--clusterip=None').stdout).toBe(
      'service/headless created\n',
    );
    expect(clusterIPOf('headless')).toBe('None');
  });

  it('refuses a taken address, one outside the range and a taken node port with Kubernetes errors', () => {
    const taken = kubectl('create', 'service', 'clusterip', 'dns2', '--clusterip=10.96.0.10', '--tcp=53');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(
      'error: failed to create ClusterIP service: Service "dns2" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated\n',
    );
    const outside = kubectl('create', 'service', 'clusterip', 'far', '--clusterip=1.1.1.1', '--tcp=80');
    expect(outside.stderr).toBe(
      'error: failed to create ClusterIP service: Service "far" is invalid: spec.clusterIPs: Invalid value: []string{"1.1.1.1"}: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12\n',
    );
    const port = kubectl('create', 'service', 'nodeport', 'np3', '--tcp=80', '--node-port=30080');
    expect(port.stderr).toBe(
      'error: failed to create NodePort service: Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated\n',
    );
  });

  it('keeps allocations across a restart: no address is handed out twice', async () => {
    const before = ['kubernetes', 'web', 'np', 'np2', 'dns'].map((n) => clusterIPOf(n));
    expect(await cluster.stop()).toBe(0);
    await cluster.start();
    expect(['kubernetes', 'web', 'np', 'np2', 'dns'].map((n) => clusterIPOf(n))).toEqual(before);
    const again = kubectl('create', 'service', 'clusterip', 'web2', `--clusterip=${before[1]}`, '--tcp=80');
    expect(again.stderr).toContain('provided IP is already allocated');
    expect(kubectl('create', 'service', 'nodeport', 'np4', '--tcp=80', '--node-port=30080').stderr).toContain(
      'provided port is already allocated',
    );
    for (let i = 0; i < 5; i++) kubectl('create', 'service', 'clusterip', `more-${i}`, '--tcp=80');
    const all = kubectl('get', 'svc', '-o', 'jsonpath={range .items[*]}{.spec.clusterIP}{"\\n"}{end}')
      .stdout.trim()
      .split('\n');
    const ips = all.filter((x) => x !== 'None');
    expect(new Set(ips).size).toBe(ips.length);
    // Deleting releases: the address can be asked for again.
    expect(kubectl('delete', 'svc', 'dns').stdout).toBe('service "dns" deleted\n');
    expect(kubectl('create', 'service', 'clusterip', 'dns', '--clusterip=10.96.0.10', '--tcp=53').status).toBe(0);
  }, 60_000);

  it('refuses to delete default, kube-system and kube-public', () => {
    for (const ns of ['default', 'kube-system', 'kube-public']) {
      expect(kubectl('delete', 'namespace', ns).stderr).toBe(
        `Error from server (Forbidden): namespaces "${ns}" is forbidden: this namespace may not be deleted\n`,
      );
    }
  });

  it('deletes a namespace: Terminating, no new content, then gone with everything in it', async () => {
    expect(kubectl('create', 'namespace', 'doomed').status).toBe(0);
    expect(kubectl('create', 'configmap', 'cm', '--from-literal=a=b', '-n', 'doomed').status).toBe(0);
    expect(kubectl('create', 'service', 'clusterip', 'svc', '--tcp=80', '-n', 'doomed').status).toBe(0);
    expect(kubectl('create', 'deployment', 'd', '--image=nginx:1.27', '--replicas=0', '-n', 'doomed').status).toBe(0);
    // A finalizer nobody removes keeps the namespace Terminating until the test takes it away.
    const held = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers:\n  - example.com/hold\n';
    expect(cluster.kubectlWithInput(held, 'apply', '-n', 'doomed', '-f', '-').status).toBe(0);
    const ip = clusterIPOf('svc', 'doomed');
    expect(kubectl('get', 'namespace', 'doomed', '-o', 'jsonpath={.spec.finalizers}').stdout).toBe('["kubernetes"]');

    expect(kubectl('delete', 'namespace', 'doomed', '--wait=false').stdout).toBe('namespace "doomed" deleted\n');
    expect(kubectl('get', 'namespace', 'doomed').stdout).toMatch(/^doomed\s+Terminating\s+\d+s$/m);
    const refused = kubectl('create', 'configmap', 'late', '-n', 'doomed');
    expect(refused.stderr).toBe(
      'error: failed to create configmap: configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated\n',
    );
    // The namespace controller empties it and says what is left in the namespace's conditions.
    await until(() =>
      kubectl('get', 'namespace', 'doomed', '-o', 'jsonpath={.status.conditions[*].message}').stdout.includes(
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      ),
    );
    expect(kubectl('get', 'configmaps,services,deployments', '-n', 'doomed', '-o', 'name').stdout).toBe(
      'configmap/held\n',
    );
    expect(
      kubectl('patch', 'configmap', 'held', '-n', 'doomed', '--type=merge', '-p', '{"metadata":{"finalizers":null}}')
        .status,
    ).toBe(0);
    await until(() => kubectl('get', 'namespace', 'doomed').status !== 0);
    expect(kubectl('get', 'namespace', 'doomed').stderr).toBe(
      'Error from server (NotFound): namespaces "doomed" not found\n',
    );
    expect(kubectl('get', 'configmaps,services,deployments', '-n', 'doomed').stderr).toBe(
      'No resources found in doomed namespace.\n',
    );
    // The service's address went back with it.
    expect(kubectl('create', 'service', 'clusterip', 'reuse', `--clusterip=${ip}`, '--tcp=80').status).toBe(0);
  }, 60_000);

  it('records the orphan and foregroundDeletion finalizers for --cascade, which the garbage collector acts on', async () => {
    for (const name of ['o', 'f']) {
      expect(kubectl('create', 'deployment', name, '--image=nginx:1.27', '--replicas=0').status).toBe(0);
      const uid = kubectl('get', 'deployment', name, '-o', 'jsonpath={.metadata.uid}').stdout;
      const dependent = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}-dep
  ownerReferences:
  - apiVersion: apps/v1
    kind: Deployment
    name: ${name}
    uid: ${uid}
    blockOwnerDeletion: true
`;
      expect(cluster.kubectlWithInput(dependent, 'apply', '-f', '-').status).toBe(0);
    }
    interface Seen {
      type: string;
      object: { metadata: { deletionTimestamp?: string; finalizers?: string[] } };
    }
    /** Every state of the deployment during `kubectl delete …`, seen through a watch. */
    const watched = async (name: string, ...flags: string[]): Promise<Seen[]> => {
      const rv = kubectl('get', 'deployment', name, '-o', 'jsonpath={.metadata.resourceVersion}').stdout;
      const watch = cluster.https(
        'GET',
        `/apis/apps/v1/namespaces/default/deployments?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3D${name}&timeoutSeconds=4`,
        undefined,
        cluster.auth(),
      );
      expect(kubectl('delete', 'deployment', name, ...flags).stdout).toBe(`deployment.apps "${name}" deleted\n`);
      const res = await watch;
      expect(res.status).toBe(200);
      return res.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Seen);
    };
    const orphan = await watched('o', '--cascade=orphan');
    const marked = (events: Seen[], finalizer: string) =>
      events.some(
        (e) =>
          e.type === 'MODIFIED' &&
          e.object.metadata.deletionTimestamp !== undefined &&
          JSON.stringify(e.object.metadata.finalizers) === JSON.stringify([finalizer]),
      );
    expect(marked(orphan, 'orphan')).toBe(true);
    expect(orphan.at(-1)?.type).toBe('DELETED');
    // Orphaned: the dependent stays, without its owner reference.
    expect(kubectl('get', 'configmap', 'o-dep', '-o', 'jsonpath={.metadata.ownerReferences}').stdout).toBe('');

    const foreground = await watched('f', '--cascade=foreground');
    expect(marked(foreground, 'foregroundDeletion')).toBe(true);
    expect(foreground.at(-1)?.type).toBe('DELETED');
    expect(kubectl('get', 'configmap', 'f-dep').stderr).toBe(
      'Error from server (NotFound): configmaps "f-dep" not found\n',
    );
  }, 30_000);

  it('deletes a bound pod gracefully and removes it with --grace-period=0 --force', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata:
  name: bound
spec:
  nodeName: node-1
  containers:
  - name: c
    image: nginx:1.27
`;
    expect(cluster.kubectlWithInput(pod, 'apply', '-f', '-').stdout).toBe('pod/bound created\n');
    expect(kubectl('delete', 'pod', 'bound', '--wait=false').stdout).toBe('pod "bound" deleted\n');
    const yaml = kubectl('get', 'pod', 'bound', '-o', 'yaml').stdout;
    expect(yaml).toMatch(/^ {2}deletionGracePeriodSeconds: 30$/m);
    const at = /^ {2}deletionTimestamp: "([^"]+)"$/m.exec(yaml)?.[1] ?? '';
    const created = /^ {2}creationTimestamp: "([^"]+)"$/m.exec(yaml)?.[1] ?? '';
    expect(Date.parse(at) - Date.parse(created)).toBeGreaterThanOrEqual(29_000);
    const force = kubectl('delete', 'pod', 'bound', '--grace-period=0', '--force');
    expect(force.stdout).toBe('pod "bound" force deleted\n');
    expect(kubectl('get', 'pod', 'bound').stderr).toBe('Error from server (NotFound): pods "bound" not found\n');
  });
});
