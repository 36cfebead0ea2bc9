/**
 * The PodSecurity plugin on admission attributes, over real (in-memory wasm) storage: what pods,
 * workloads and namespaces get — refusals with kube-apiserver's Status, warnings, and what is let
 * through untouched.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/meta.js';
import { StatusError } from '../../../api/status.js';
import { VirtualClock } from '../../../sim/clock.js';
import { WasmStorage } from '../../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../../wasm/node.js';
import { encodeStored } from '../../decode/codec.js';
import { findResource, objectKey, type ResourceInfo } from '../../registry/resources.js';
import { admissionAttributes } from '../chain.js';
import type { AdmissionPlugin, Operation } from '../types.js';
import { podSecurityPlugin } from './index.js';

type Obj = Record<string, unknown>;
const P = 'pod-security.kubernetes.io/';

let storage: WasmStorage;
let plugin: AdmissionPlugin;

beforeEach(async () => {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  plugin = podSecurityPlugin({ storage, clock });
});

const info = (group: string, resource: string): ResourceInfo => {
  const version = group === '' ? 'v1' : 'v1';
  const i = findResource(group, version, resource);
  if (i === undefined) throw new Error(resource);
  return i;
};

async function store(group: string, resource: string, namespace: string, obj: Obj): Promise<void> {
  const name = (obj.metadata as { name: string }).name;
  await storage.create(objectKey(info(group, resource), namespace, name), encodeStored(obj as KubeObject).bytes);
}

const namespace = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
});

const container = (name = 'c', image = 'nginx', securityContext?: Obj): Obj => ({
  name,
  image,
  ...(securityContext === undefined ? {} : { securityContext }),
});
const restrictedContainer = (name = 'c') =>
  container(name, 'nginx', {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
  });

const pod = (name: string, spec: Obj, meta: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...meta },
  spec,
});

/** Runs the plugin: the warnings it adds, and the Status it refuses with. */
async function run(
  operation: Operation,
  group: string,
  resource: string,
  ns: string,
  object: Obj,
  opts: { oldObject?: Obj; subresource?: string; name?: string } = {},
): Promise<{ warnings: string[]; error?: StatusError }> {
  const warnings: string[] = [];
  const a = admissionAttributes(
    {
      operation,
      info: info(group, resource),
      subresource: opts.subresource ?? '',
      namespace: ns,
      name: opts.name ?? String((object.metadata as Obj | undefined)?.name ?? ''),
      object,
      oldObject: opts.oldObject,
      dryRun: false,
      user: { name: 'admin', uid: '1', groups: ['system:masters'] },
    },
    warnings,
  );
  if (!plugin.handles(a)) return { warnings };
  try {
    await plugin.validate?.(a);
    return { warnings };
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return { warnings, error: err };
  }
}

const RESTRICTED_NGINX =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('pods', () => {
  it('refuses a pod the enforce level forbids with a 403 and no warnings', async () => {
    await store('', 'namespaces', '', namespace('r', { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'baseline' }));
    const privileged = pod('p', { containers: [container('c', 'nginx', { privileged: true })] });
    const { warnings, error } = await run('CREATE', '', 'pods', 'r', privileged);
    expect(warnings).toEqual([]);
    expect(error?.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods "p" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ${RESTRICTED_NGINX}`,
      reason: 'Forbidden',
      details: { name: 'p', kind: 'pods' },
      code: 403,
    });
  });

  it('names the enforce version as labelled', async () => {
    await store(
      '',
      'namespaces',
      '',
      namespace('b', { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.24' }),
    );
    const { error } = await run('CREATE', '', 'pods', 'b', pod('p', { hostPID: true, containers: [container()] }));
    expect(error?.status.message).toBe(
      'pods "p" is forbidden: violates PodSecurity "baseline:v1.24": host namespaces (hostPID=true)',
    );
  });

  it('warns about the warn level when enforce allows the pod', async () => {
    await store('', 'namespaces', '', namespace('w', { [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted' }));
    const { warnings, error } = await run('CREATE', '', 'pods', 'w', pod('p', { containers: [container()] }));
    expect(error).toBeUndefined();
    expect(warnings).toEqual([`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX}`]);
  });

  it('lets everything through in a namespace without labels, or a fully privileged one', async () => {
    await store('', 'namespaces', '', namespace('plain'));
    await store('', 'namespaces', '', namespace('priv', { [`${P}enforce`]: 'privileged', [`${P}warn`]: 'privileged' }));
    const bad = pod('p', { hostNetwork: true, containers: [container('c', 'nginx', { privileged: true })] });
    expect(await run('CREATE', '', 'pods', 'plain', bad)).toEqual({ warnings: [] });
    expect(await run('CREATE', '', 'pods', 'priv', bad)).toEqual({ warnings: [] });
  });

  it('allows a pod restricted allows', async () => {
    await store('', 'namespaces', '', namespace('r', { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'restricted' }));
    expect(await run('CREATE', '', 'pods', 'r', pod('p', { containers: [restrictedContainer()] }))).toEqual({
      warnings: [],
    });
  });

  it('evaluates an update only when containers or images change', async () => {
    await store('', 'namespaces', '', namespace('r', { [`${P}enforce`]: 'restricted' }));
    const old = pod('p', { containers: [container()] });
    const relabelled = pod('p', { containers: [container()] }, { labels: { a: 'b' } });
    expect(await run('UPDATE', '', 'pods', 'r', relabelled, { oldObject: old })).toEqual({ warnings: [] });
    const newImage = pod('p', { containers: [container('c', 'nginx:2')] });
    expect((await run('UPDATE', '', 'pods', 'r', newImage, { oldObject: old })).error?.status.code).toBe(403);
    const withEphemeral = pod('p', { containers: [container()], ephemeralContainers: [container('debug', 'busybox')] });
    expect((await run('UPDATE', '', 'pods', 'r', withEphemeral, { oldObject: old })).error?.status.message).toContain(
      'containers "c", "debug" must set securityContext.allowPrivilegeEscalation=false',
    );
  });

  it('ignores the pod subresources that cannot change the spec', async () => {
    await store('', 'namespaces', '', namespace('r', { [`${P}enforce`]: 'restricted' }));
    const old = pod('p', { containers: [container()] });
    const changed = pod('p', { containers: [container('c', 'other')] });
    expect(await run('UPDATE', '', 'pods', 'r', changed, { oldObject: old, subresource: 'status' })).toEqual({
      warnings: [],
    });
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n' } };
    expect(await run('CREATE', '', 'pods', 'r', binding, { subresource: 'binding' })).toEqual({ warnings: [] });
  });

  it('answers 500 when the namespace cannot be found', async () => {
    const { error } = await run('CREATE', '', 'pods', 'gone', pod('p', { containers: [container()] }));
    expect(error?.status).toMatchObject({
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed to lookup namespace "gone"',
    });
  });

  it('does not look at deletes or other resources', async () => {
    await store('', 'namespaces', '', namespace('r', { [`${P}enforce`]: 'restricted' }));
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    expect(await run('CREATE', '', 'configmaps', 'r', cm)).toEqual({ warnings: [] });
    const a = admissionAttributes(
      {
        operation: 'DELETE',
        info: info('', 'pods'),
        namespace: 'r',
        name: 'p',
        object: undefined,
        oldObject: pod('p', { containers: [container()] }),
        dryRun: false,
        user: undefined,
      },
      [],
    );
    expect(plugin.handles(a)).toBe(false);
  });
});

describe('workloads', () => {
  const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [container()] } };
  const workloads: Array<[string, string, Obj]> = [
    ['apps', 'deployments', { selector: { matchLabels: { app: 'a' } }, template }],
    ['apps', 'replicasets', { selector: { matchLabels: { app: 'a' } }, template }],
    ['apps', 'statefulsets', { selector: { matchLabels: { app: 'a' } }, template, serviceName: 's' }],
    ['apps', 'daemonsets', { selector: { matchLabels: { app: 'a' } }, template }],
    ['batch', 'jobs', { template }],
    ['batch', 'cronjobs', { schedule: '* * * * *', jobTemplate: { spec: { template } } }],
  ];

  it.each(workloads)('%s/%s: warns, never refuses', async (group, resource, spec) => {
    await store('', 'namespaces', '', namespace('r', { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'restricted' }));
    const obj = { metadata: { name: 'w' }, spec };
    const { warnings, error } = await run('CREATE', group, resource, 'r', obj);
    expect(error).toBeUndefined();
    expect(warnings).toEqual([`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX}`]);
  });

  it('says nothing when only enforce is set (no warn or audit level)', async () => {
    await store('', 'namespaces', '', namespace('e', { [`${P}enforce`]: 'restricted' }));
    const obj = { metadata: { name: 'w' }, spec: workloads[0]?.[2] };
    expect(await run('CREATE', 'apps', 'deployments', 'e', obj)).toEqual({ warnings: [] });
  });

  it('skips subresources (scale)', async () => {
    await store('', 'namespaces', '', namespace('r', { [`${P}warn`]: 'restricted' }));
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w' }, spec: { replicas: 2 } };
    expect(await run('UPDATE', 'apps', 'deployments', 'r', scale, { subresource: 'scale', oldObject: scale })).toEqual({
      warnings: [],
    });
  });
});

describe('namespaces', () => {
  it('refuses invalid labels on create with 422', async () => {
    const { error } = await run('CREATE', '', 'namespaces', '', namespace('x', { [`${P}enforce`]: 'strict' }));
    expect(error?.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Namespace "x" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      reason: 'Invalid',
      details: {
        name: 'x',
        kind: 'Namespace',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "strict": must be one of privileged, baseline, restricted',
            field: 'metadata.labels[pod-security.kubernetes.io/enforce]',
          },
        ],
      },
      code: 422,
    });
  });

  it('lists every invalid label', async () => {
    const ns = namespace('x', { [`${P}warn-version`]: 'v1', [`${P}audit`]: 'none' });
    const { error } = await run('CREATE', '', 'namespaces', '', ns);
    expect(error?.status.message).toBe(
      'Namespace "x" is invalid: [metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "none": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1": must be "latest" or "v1.x"]',
    );
  });

  it('refuses an update that changes the labels to invalid ones, not one that keeps them', async () => {
    const oldNs = namespace('x', { [`${P}enforce`]: 'strict' });
    const same = namespace('x', { [`${P}enforce`]: 'strict', other: 'label' });
    expect((await run('UPDATE', '', 'namespaces', '', same, { oldObject: oldNs })).error).toBeUndefined();
    const worse = namespace('x', { [`${P}enforce`]: 'stricter' });
    expect((await run('UPDATE', '', 'namespaces', '', worse, { oldObject: oldNs })).error?.status.code).toBe(422);
  });

  it('warns about existing pods when enforce is tightened', async () => {
    await store('', 'namespaces', '', namespace('x'));
    const nginx = (name: string, owner?: string) =>
      pod(
        name,
        { containers: [container()] },
        owner === undefined
          ? {}
          : {
              ownerReferences: [
                { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner, uid: owner, controller: true },
              ],
            },
      );
    for (const p of [nginx('web-b', 'rs1'), nginx('web-a', 'rs1'), nginx('web-c', 'rs1')])
      await store('', 'pods', 'x', p);
    await store('', 'pods', 'x', pod('priv', { hostNetwork: true, containers: [restrictedContainer()] }));
    await store('', 'pods', 'x', pod('ok', { containers: [restrictedContainer()] }));
    await store('', 'pods', 'x', pod('solo', { containers: [container('c', 'nginx', { privileged: true })] }));
    const oldNs = namespace('x');
    const newNs = namespace('x', { [`${P}enforce`]: 'restricted' });
    const { warnings, error } = await run('UPDATE', '', 'namespaces', '', newNs, { oldObject: oldNs, name: 'x' });
    expect(error).toBeUndefined();
    expect(warnings).toEqual([
      'existing pods in namespace "x" violate the new PodSecurity enforce level "restricted:latest"',
      'priv: host namespaces',
      'solo: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'web-a (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
    // Baseline at the same version only flags what baseline forbids.
    const baseline = namespace('x', { [`${P}enforce`]: 'baseline' });
    expect((await run('UPDATE', '', 'namespaces', '', baseline, { oldObject: oldNs })).warnings).toEqual([
      'existing pods in namespace "x" violate the new PodSecurity enforce level "baseline:latest"',
      'priv: host namespaces',
      'solo: privileged',
    ]);
  });

  it('does not dry-run pods when enforce is unchanged, privileged, or relaxed', async () => {
    await store('', 'namespaces', '', namespace('x'));
    await store('', 'pods', 'x', pod('bad', { hostNetwork: true, containers: [container()] }));
    const restricted = namespace('x', { [`${P}enforce`]: 'restricted' });
    const baseline = namespace('x', { [`${P}enforce`]: 'baseline' });
    const warnOnly = namespace('x', { [`${P}enforce`]: 'restricted', [`${P}warn`]: 'restricted' });
    expect(await run('UPDATE', '', 'namespaces', '', warnOnly, { oldObject: restricted })).toEqual({ warnings: [] });
    expect(await run('UPDATE', '', 'namespaces', '', baseline, { oldObject: restricted })).toEqual({ warnings: [] });
    expect(await run('UPDATE', '', 'namespaces', '', namespace('x'), { oldObject: restricted })).toEqual({
      warnings: [],
    });
    // A version change with a lower level still dry-runs.
    const pinned = namespace('x', { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.30' });
    expect((await run('UPDATE', '', 'namespaces', '', pinned, { oldObject: restricted })).warnings).toEqual([
      'existing pods in namespace "x" violate the new PodSecurity enforce level "baseline:v1.30"',
      'bad: host namespaces',
    ]);
    // Create never looks at pods.
    expect(await run('CREATE', '', 'namespaces', '', namespace('y', { [`${P}enforce`]: 'restricted' }))).toEqual({
      warnings: [],
    });
  });

  it('checks at most 3000 existing pods', async () => {
    await store('', 'namespaces', '', namespace('big'));
    for (let i = 0; i < 3001; i++) {
      await store(
        '',
        'pods',
        'big',
        pod(`p${String(i).padStart(4, '0')}`, { hostIPC: true, containers: [container()] }),
      );
    }
    const { warnings } = await run('UPDATE', '', 'namespaces', '', namespace('big', { [`${P}enforce`]: 'baseline' }), {
      oldObject: namespace('big'),
    });
    expect(warnings).toEqual([
      'new PodSecurity enforce level only checked against the first 3000 of 3001 existing pods',
      'existing pods in namespace "big" violate the new PodSecurity enforce level "baseline:latest"',
      'p0000 (and 2999 other pods): host namespaces',
    ]);
  }, 60_000);

  it('stops checking existing pods after a second', async () => {
    // A clock that moves 400 ms every time it is read.
    let t = 0;
    const stepping = { now: () => (t += 400), setTimer: () => () => {} };
    plugin = podSecurityPlugin({ storage, clock: stepping });
    await store('', 'namespaces', '', namespace('slow'));
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      await store('', 'pods', 'slow', pod(name, { hostPID: true, containers: [container()] }));
    }
    const { warnings } = await run('UPDATE', '', 'namespaces', '', namespace('slow', { [`${P}enforce`]: 'baseline' }), {
      oldObject: namespace('slow'),
    });
    expect(warnings).toEqual([
      'new PodSecurity enforce level only checked against the first 3 of 5 existing pods',
      'existing pods in namespace "slow" violate the new PodSecurity enforce level "baseline:latest"',
      'a (and 2 other pods): host namespaces',
    ]);
  });
});
