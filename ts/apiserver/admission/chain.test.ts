import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import type { Storage } from '../../storage/storage.js';
import { createObject } from '../endpoints/create.js';
import { updateObject } from '../endpoints/update.js';
import { findResource } from '../registry/resources.js';
import { AdmissionChain, admissionAttributes, aggregateMessage } from './chain.js';
import { admissionChain, admissionFlagOptions, DEFAULT_ENABLED_PLUGINS } from './plugins.js';
import { admissionServer, pod } from './testing/admission-server.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const deps = { storage: {} as Storage, clock: new VirtualClock(0) };
const PODS = findResource('', 'v1', 'pods');

describe('admission chain', () => {
  it("runs kube-apiserver's default-enabled plugins in its order", () => {
    expect(admissionChain(deps).names()).toEqual([
      'NamespaceLifecycle',
      'LimitRanger',
      'ServiceAccount',
      ...admissionChain(deps)
        .names()
        .filter((n) => n === 'PodSecurity'),
      'Priority',
      'DefaultTolerationSeconds',
      'DefaultStorageClass',
      'StorageObjectInUseProtection',
      ...admissionChain(deps)
        .names()
        .filter((n) => n === 'ResourceQuota'),
    ]);
    expect(DEFAULT_ENABLED_PLUGINS).toContain('ServiceAccount');
  });

  it('enables and disables plugins by name, and refuses unknown or overlapping names as kube-apiserver does', () => {
    expect(admissionChain(deps, { disable: ['ServiceAccount', 'LimitRanger'] }).names()).not.toContain(
      'ServiceAccount',
    );
    expect(admissionChain(deps, { plugins: ['Priority'] }).names()).toEqual(['Priority']);
    expect(admissionChain(deps, { plugins: [], enable: ['Priority'] }).names()).toEqual(['Priority']);
    expect(() => admissionFlagOptions({ 'enable-admission-plugins': 'Priority,Nope' })).toThrow(
      'enable-admission-plugins plugin "Nope" is unknown',
    );
    expect(() => admissionFlagOptions({ 'disable-admission-plugins': 'Bogus' })).toThrow(
      'disable-admission-plugins plugin "Bogus" is unknown',
    );
    expect(() =>
      admissionFlagOptions({
        'enable-admission-plugins': 'Priority,LimitRanger',
        'disable-admission-plugins': 'Priority, LimitRanger',
      }),
    ).toThrow('[LimitRanger Priority] in enable-admission-plugins and disable-admission-plugins overlapped');
    // A plugin kubewasm does not have is accepted (and does nothing).
    expect(admissionFlagOptions({ 'disable-admission-plugins': 'DefaultStorageClass' })).toEqual({
      enable: [],
      disable: ['DefaultStorageClass'],
    });
  });

  it('runs every mutating plugin, then every validating one, each only where it handles the request', async () => {
    const calls: string[] = [];
    const plugin = (name: string, handles: boolean): AdmissionPlugin => ({
      name,
      handles: () => handles,
      admit: async () => {
        calls.push(`admit ${name}`);
      },
      validate: async () => {
        calls.push(`validate ${name}`);
      },
    });
    const chain = new AdmissionChain([plugin('a', true), plugin('b', false), plugin('c', true)]);
    const warnings: string[] = [];
    const a: AdmissionAttributes = admissionAttributes(
      {
        operation: 'CREATE',
        info: PODS as NonNullable<typeof PODS>,
        namespace: 'default',
        name: 'p',
        object: {},
        oldObject: undefined,
        dryRun: false,
        user: undefined,
      },
      warnings,
    );
    await chain.admit(a);
    await chain.validate(a);
    expect(calls).toEqual(['admit a', 'admit c', 'validate a', 'validate c']);
    a.warn('careful');
    a.warn('careful');
    expect(warnings).toEqual(['careful']);
    expect(a.user.name).toBe('system:anonymous');
  });

  it('aggregates messages as utilerrors.NewAggregate does', () => {
    expect(aggregateMessage(['a'])).toBe('a');
    expect(aggregateMessage(['a', 'b', 'a'])).toBe('[a, b]');
    expect(aggregateMessage(['a', 'a'])).toBe('a');
  });

  it('admits subresource writes as the subresource: a binding into a terminating namespace is refused', async () => {
    const s = await admissionServer();
    await s.json('POST', '/api/v1/namespaces/team-a/pods', pod('p'));
    // A finalizer keeps the pod, and so the namespace, while it is Terminating.
    await s.json('DELETE', '/api/v1/namespaces/team-a');
    const { status, body } = await s.json('POST', '/api/v1/namespaces/team-a/pods/p/binding', {
      metadata: { name: 'p' },
      target: { kind: 'Node', name: 'n1' },
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "p" is forbidden: unable to create new content in namespace team-a because it is being terminated',
      details: {
        name: 'p',
        kind: 'pods',
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace team-a is being terminated',
            field: 'metadata.namespace',
          },
        ],
      },
    });
    const stored = await s.json('GET', '/api/v1/namespaces/team-a/pods/p');
    expect((stored.body.spec as Record<string, unknown>).nodeName).toBeUndefined();
  });

  it('refuses deleting an immortal namespace before looking it up', async () => {
    const s = await admissionServer();
    const { status, body } = await s.json('DELETE', '/api/v1/namespaces/kube-public');
    expect(status).toBe(403);
    expect(body.message).toBe('namespaces "kube-public" is forbidden: this namespace may not be deleted');
  });

  it('runs admission on dry runs too, storing nothing', async () => {
    const s = await admissionServer();
    const { status, body } = await s.json('POST', '/api/v1/namespaces/default/pods?dryRun=All', pod('p'));
    expect(status).toBe(201);
    expect((body.spec as Record<string, unknown>).serviceAccountName).toBe('default');
    expect((await s.json('GET', '/api/v1/namespaces/default/pods/p')).status).toBe(404);
    const refused = await s.json(
      'POST',
      '/api/v1/namespaces/default/pods?dryRun=All',
      pod('q', { serviceAccountName: 'x' }),
    );
    expect(refused.status).toBe(403);
  });

  it('sends what plugins warn as Warning headers, on creates and updates', async () => {
    const s = await admissionServer();
    const info = findResource('', 'v1', 'configmaps');
    if (info === undefined) throw new Error('configmaps not served');
    const seen: string[] = [];
    const warner: AdmissionPlugin = {
      name: 'Warner',
      handles: () => true,
      admit: async (a) => a.warn(`admit ${a.operation} ${a.name}`),
      validate: async (a) => {
        seen.push(`${a.operation} ${a.subresource} old=${a.oldObject !== undefined}`);
        a.warn('validated');
      },
    };
    const ctx = { storage: s.storage, clock: s.clock, admission: new AdmissionChain([warner]) };
    const req = { info, namespace: 'default', name: '', query: new URLSearchParams(), accept: null };
    const created = await createObject(ctx, req, JSON.stringify({ metadata: { name: 'cm' } }));
    expect(created.status).toBe(201);
    expect(created.headers.get('Warning')).toBe('299 - "admit CREATE cm", 299 - "validated"');
    const updated = await updateObject(
      ctx,
      { ...req, name: 'cm' },
      JSON.stringify({ metadata: { name: 'cm' }, data: { a: 'b' } }),
    );
    expect(updated.status).toBe(200);
    expect(updated.headers.get('Warning')).toBe('299 - "admit UPDATE cm", 299 - "validated"');
    expect(seen).toEqual(['CREATE  old=false', 'UPDATE  old=true']);
  });
});
