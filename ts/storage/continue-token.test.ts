import { describe, expect, it } from 'vitest';
import { decodeContinue, encodeContinue } from './continue-token.js';
import { StorageError } from './errors.js';

describe('continue tokens', () => {
  it('are Kubernetes tokens: base64url JSON {v, rv, start} without padding', () => {
    const token = encodeContinue('/registry/pods/default/web-1\u0000', '/registry/pods/', 42n);
    expect(token).not.toMatch(/[=+/]/);
    const json = JSON.parse(atob(token.replaceAll('-', '+').replaceAll('_', '/')));
    expect(json).toEqual({ v: 'meta.k8s.io/v1', rv: 42, start: 'default/web-1\u0000' });
    expect(decodeContinue(token, '/registry/pods/')).toEqual({
      fromKey: '/registry/pods/default/web-1\u0000',
      revision: 42n,
    });
  });

  it('decodes a token kube-apiserver wrote', () => {
    // {"v":"meta.k8s.io/v1","rv":1234,"start":"kube-system/coredns\u0000"}
    const fromKubernetes =
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNCwic3RhcnQiOiJrdWJlLXN5c3RlbS9jb3JlZG5zXHUwMDAwIn0';
    expect(decodeContinue(fromKubernetes, '/registry/pods/')).toEqual({
      fromKey: '/registry/pods/kube-system/coredns\u0000',
      revision: 1234n,
    });
  });

  it.each([
    ['not base64', '!!!'],
    ['not JSON', btoa('nope')],
    ['wrong version', btoa(JSON.stringify({ v: 'v2', rv: 1, start: 'a' }))],
    ['empty start', btoa(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '' }))],
    ['escaping the prefix', btoa(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '../secrets/x' }))],
    ['a non-integer revision', btoa(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 'x', start: 'a' }))],
  ])('rejects %s', (_, token) => {
    try {
      decodeContinue(token.replace(/=+$/, ''), '/registry/pods/');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).code).toBe('InvalidRequest');
      expect((err as StorageError).message).toMatch(/^continue key is not valid/);
    }
  });
});
