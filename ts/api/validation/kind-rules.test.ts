import { describe, expect, it } from 'vitest';
import { FieldPath } from '../field-errors.js';
import { StatusError } from '../status.js';
import {
  kindRule,
  validateBuiltinObjectMeta,
  validateBuiltinObjectMetaUpdate,
  validateKubeFinalizerName,
} from './kind-rules.js';
import { ensureObjectNamespaceMatchesRequestNamespace, expectedNamespaceForScope } from './request-namespace.js';

describe('built-in kind rules', () => {
  it.each([
    ['', 'Pod', 'web.v1', true, []],
    [
      '',
      'Service',
      'web.v1',
      true,
      [
        "metadata.name: Invalid value: \"web.v1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ['apps', 'StatefulSet', 'db.0', true, ['metadata.name: Invalid value: "db.0": must not contain dots']],
    ['rbac.authorization.k8s.io', 'ClusterRole', 'system:Admin', false, []],
    [
      'rbac.authorization.k8s.io',
      'ClusterRole',
      'a/b',
      false,
      ['metadata.name: Invalid value: "a/b": may not contain \'/\''],
    ],
    ['certificates.k8s.io', 'CertificateSigningRequest', 'Any Name!', false, []],
  ] as const)('%s/%s %s', (group, kind, name, namespaced, want) => {
    const rule = kindRule(group, kind);
    expect(rule?.namespaced).toBe(namespaced);
    if (rule === undefined) return;
    const meta = namespaced ? { name, namespace: 'default' } : { name };
    expect(validateBuiltinObjectMeta(meta, rule).map(String)).toEqual(want);
  });

  it('knows nothing of custom resources', () => {
    expect(kindRule('example.com', 'Widget')).toBeUndefined();
  });

  it('requires unprefixed finalizers to be standard ones', () => {
    const path = FieldPath.root('metadata', 'finalizers').index(1);
    expect(validateKubeFinalizerName('kubernetes', path)).toEqual([]);
    expect(validateKubeFinalizerName('example.com/cleanup', path)).toEqual([]);
    expect(validateKubeFinalizerName('cleanup', path).map(String)).toEqual([
      'metadata.finalizers[1]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    const rule = kindRule('', 'ConfigMap');
    if (rule === undefined) throw new Error('ConfigMap');
    const old = { name: 'c', namespace: 'd', resourceVersion: '1' };
    expect(validateBuiltinObjectMetaUpdate({ ...old, finalizers: ['x'] }, old, rule).map(String)).toEqual([
      'metadata.finalizers[0]: Invalid value: "x": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });
});

describe('request namespace', () => {
  it('fills, clears or rejects the object namespace', () => {
    const a: { namespace?: string } = {};
    ensureObjectNamespaceMatchesRequestNamespace('default', a);
    expect(a.namespace).toBe('default');
    const b = { namespace: 'x' };
    ensureObjectNamespaceMatchesRequestNamespace(expectedNamespaceForScope('default', false), b);
    expect(b).toEqual({});
    try {
      ensureObjectNamespaceMatchesRequestNamespace('default', { namespace: 'other' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).status).toMatchObject({
        code: 400,
        reason: 'BadRequest',
        message: 'the namespace of the provided object does not match the namespace sent on the request',
      });
    }
  });
});
