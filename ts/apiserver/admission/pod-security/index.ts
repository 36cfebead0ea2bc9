/**
 * The PodSecurity admission plugin (plugin/pkg/admission/security/podsecurity/admission.go): a
 * validating plugin on CREATE and UPDATE of pods, namespaces and the workload resources with a pod
 * template. It reads namespaces through the admission lister (../lister.ts: the apiserver's
 * informer while it is current, else storage) and pods from storage (kube-apiserver reads its informer caches, falling back to a
 * live read for a namespace it has not seen yet). Warnings become
 * `Warning` headers; audit annotations have no audit log to go to and are dropped.
 */
import { RESOURCES } from '../../../client/resources.js';
import { type Clock, realClock } from '../../../sim/clock.js';
import { decodeStored } from '../../decode/codec.js';
import { collectionPrefix, findResource, type ResourceInfo } from '../../registry/resources.js';
import { getObject, type ListerSource } from '../lister.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../types.js';
import { isPodSpecResource, PodSecurityAdmission, type PodSecurityRequest } from './admission.js';
import { newEvaluator } from './registry.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

// PluginName.
export const POD_SECURITY_PLUGIN_NAME = 'PodSecurity';

/** Whether Pod Security looks at the resource at all (applicableResources + HasPodSpec). */
function applicable(group: string, resource: string): boolean {
  return (group === '' && (resource === 'pods' || resource === 'namespaces')) || isPodSpecResource(group, resource);
}

/** `podSecurityPlugin({ storage, informers })`: the plugin kube-apiserver enables by default. */
export function podSecurityPlugin(deps: ListerSource & { clock?: Clock }): AdmissionPlugin {
  const { storage } = deps;
  const pods = findResource('', 'v1', 'pods') as ResourceInfo;
  const clock = deps.clock ?? realClock;
  const admission = new PodSecurityAdmission(newEvaluator(), {
    async getNamespaceLabels(name) {
      const ns = await getObject(deps, RESOURCES.namespaces, '', name);
      if (ns === undefined) return undefined;
      const labels = ns.metadata?.labels;
      return isObj(labels) ? (labels as Record<string, string>) : {};
    },
    async listPods(namespace) {
      const { items } = await storage.list(collectionPrefix(pods, namespace));
      return items.map((item) => decodeStored(item) as Obj);
    },
    now: () => clock.now(),
  });
  return {
    name: POD_SECURITY_PLUGIN_NAME,
    // admission.NewHandler(admission.Create, admission.Update).
    handles: (a) => (a.operation === 'CREATE' || a.operation === 'UPDATE') && applicable(a.info.group, a.info.resource),
    async validate(a: AdmissionAttributes) {
      if (a.object === undefined) return;
      const req: PodSecurityRequest = {
        operation: a.operation as 'CREATE' | 'UPDATE',
        group: a.info.group,
        resource: a.info.resource,
        subresource: a.subresource,
        namespace: a.namespace,
        // AdmissionToValidateObjectFunc: the generated name once there is one.
        name: a.name || String((isObj(a.object.metadata) ? a.object.metadata.name : '') ?? ''),
        object: a.object,
        oldObject: a.oldObject,
      };
      const response = await admission.validate(req);
      for (const w of response.warnings) a.warn(w);
      if (!response.allowed && response.error !== undefined) throw response.error;
    },
  };
}
