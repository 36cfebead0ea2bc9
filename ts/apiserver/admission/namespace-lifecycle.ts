/**
 * The NamespaceLifecycle admission plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/
 * namespace/lifecycle/admission.go, v1.32), a mutating plugin on CREATE, UPDATE and DELETE:
 * - `default`, `kube-system` and `kube-public` cannot be deleted (403 "this namespace may not be deleted");
 * - namespaced writes into a namespace that does not exist → 404 `namespaces "x" not found`;
 * - creates in a Terminating namespace → 403 with a NamespaceTerminating cause.
 * Namespaces themselves, cluster-scoped objects and deletes of other objects are always let through.
 */
import { newForbidden, newNotFound, StatusError } from '../../api/status.js';
import { RESOURCES } from '../../client/resources.js';
import { admissionForbidden } from './chain.js';
import type { AdmissionDeps } from './deps.js';
import { getObject } from './lister.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

// lifecycle.PluginName.
export const NAMESPACE_LIFECYCLE = 'NamespaceLifecycle';
// admission.go Register: NewLifecycle(sets.NewString(metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic)).
export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];
// v1.NamespaceTerminatingCause.
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

// isAccessReview: answering about a namespace that does not exist would leak nothing useful.
const isAccessReview = (a: AdmissionAttributes): boolean =>
  a.info.group === 'authorization.k8s.io' && a.info.resource === 'localsubjectaccessreviews';

/** The request is about a Namespace itself (the plugin's `a.GetKind().GroupKind()` check). */
const isNamespaceResource = (info: { group: string; resource: string }): boolean =>
  info.group === '' && info.resource === 'namespaces';

export function namespaceLifecyclePlugin(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: NAMESPACE_LIFECYCLE,
    handles: (a) => a.operation !== 'CONNECT',
    async admit(a) {
      const namespaceKind = isNamespaceResource(a.info);
      if (a.operation === 'DELETE' && namespaceKind && IMMORTAL_NAMESPACES.includes(a.name)) {
        throw newForbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
      }
      // Cluster-scoped objects, namespaces themselves and deletes of anything else go through.
      if (a.namespace === '' || !a.info.namespaced || namespaceKind) return;
      if (a.operation === 'DELETE' || isAccessReview(a)) return;
      const ns = await getObject(deps, RESOURCES.namespaces, '', a.namespace);
      if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
      if (a.operation !== 'CREATE' || ns.status?.phase !== 'Terminating') return;
      const err = admissionForbidden(
        a,
        `unable to create new content in namespace ${a.namespace} because it is being terminated`,
      );
      throw new StatusError({
        ...err.status,
        details: {
          ...err.status.details,
          causes: [
            {
              reason: NAMESPACE_TERMINATING_CAUSE,
              message: `namespace ${a.namespace} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
      });
    },
  };
}
