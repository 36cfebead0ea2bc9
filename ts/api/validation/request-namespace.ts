/**
 * The namespace rule every create and update applies before validation
 * (k8s.io/apiserver pkg/registry/rest/meta.go EnsureObjectNamespaceMatchesRequestNamespace, v0.32).
 */
import type { ObjectMeta } from '../meta.js';
import { newBadRequest } from '../status.js';

/** ExpectedNamespaceForScope: the request's namespace for namespaced kinds, '' otherwise. */
export function expectedNamespaceForScope(requestNamespace: string, namespaced: boolean): string {
  return namespaced ? requestNamespace : '';
}

/**
 * Sets or clears `meta.namespace` to match the request, or throws the 400 kube-apiserver answers
 * when the body names another namespace than the URL.
 */
export function ensureObjectNamespaceMatchesRequestNamespace(requestNamespace: string, meta: ObjectMeta): void {
  const objNamespace = meta.namespace ?? '';
  if (objNamespace === requestNamespace) return;
  if (objNamespace === '') {
    meta.namespace = requestNamespace;
    return;
  }
  if (requestNamespace === '') {
    delete meta.namespace;
    return;
  }
  throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}
