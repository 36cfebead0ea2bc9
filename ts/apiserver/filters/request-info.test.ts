import { describe, expect, it } from 'vitest';
import { classifyRequest } from './request-info.js';

describe('classifyRequest', () => {
  const c = (method: string, path: string) => classifyRequest(method, new URL(`https://x${path}`));
  it('gives RequestInfo verbs, mutating and long-running as kube-apiserver does', () => {
    expect(c('GET', '/api/v1/namespaces/a/pods')).toEqual({ verb: 'list', mutating: false, longRunning: false });
    expect(c('GET', '/api/v1/namespaces/a/pods/p')).toEqual({ verb: 'get', mutating: false, longRunning: false });
    expect(c('GET', '/api/v1/namespaces/a/pods?watch=true')).toEqual({
      verb: 'watch',
      mutating: false,
      longRunning: true,
    });
    expect(c('GET', '/api/v1/namespaces/a/pods/p/log')).toMatchObject({ longRunning: true });
    expect(c('POST', '/api/v1/namespaces/a/pods/p/exec')).toMatchObject({ mutating: true, longRunning: true });
    expect(c('POST', '/api/v1/namespaces/a/pods')).toEqual({ verb: 'create', mutating: true, longRunning: false });
    expect(c('DELETE', '/api/v1/namespaces/a/pods')).toMatchObject({ verb: 'deletecollection', mutating: true });
    expect(c('PATCH', '/apis/apps/v1/namespaces/a/deployments/d')).toMatchObject({ verb: 'patch', mutating: true });
    expect(c('GET', '/version')).toEqual({ verb: 'get', mutating: false, longRunning: false });
  });
});
