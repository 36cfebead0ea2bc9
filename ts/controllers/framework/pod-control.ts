/**
 * Pod control (pkg/controller/controller_utils.go at v1.32, RealPodControl and
 * GetPodFromTemplate): how workload controllers create, delete and patch pods, each create and
 * delete told as an Event on the controller object (SuccessfulCreate, FailedCreate,
 * SuccessfulDelete, FailedDelete) through the event recorder.
 *
 *   const podControl = new RealPodControl(client, recorder);
 *   await podControl.createPods('default', rs.spec.template, rs, controllerRefOf(rs, RS_KIND));
 */
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { hasStatusCause, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { Pod, PodTemplateSpec } from '../../api/types/core/v1.js';
import { type DeepReadonly, deepCopy } from '../../api/types/readonly.js';
import { nameIsDNSSubdomain } from '../../api/validation/names.js';
import type { Client } from '../../client/client.js';
import type { EventRecorder } from '../../client/event-recorder.js';
import { RESOURCES } from '../../client/resources.js';
import type { PodPatcher } from './controller-ref-manager.js';

// controller_utils.go: the reasons of the pod Events (and of a ReplicaSet's failure condition).
export const FAILED_CREATE_POD_REASON = 'FailedCreate';
export const SUCCESSFUL_CREATE_POD_REASON = 'SuccessfulCreate';
export const FAILED_DELETE_POD_REASON = 'FailedDelete';
export const SUCCESSFUL_DELETE_POD_REASON = 'SuccessfulDelete';

/** PodControlInterface: what a controller does to pods (a recording one in tests, RealPodControl otherwise). */
export interface PodControlInterface extends PodPatcher {
  /** CreatePods: a pod from `template`, controlled by `controllerObject` through `controllerRef`. */
  createPods(
    namespace: string,
    template: DeepReadonly<PodTemplateSpec>,
    controllerObject: DeepReadonly<KubeObject>,
    controllerRef: OwnerReference,
  ): Promise<void>;
  /** CreatePodsWithGenerateName: as createPods, with its own generateName. */
  createPodsWithGenerateName(
    namespace: string,
    template: DeepReadonly<PodTemplateSpec>,
    controllerObject: DeepReadonly<KubeObject>,
    controllerRef: OwnerReference,
    generateName: string,
  ): Promise<void>;
  /** DeletePod: the pod `podID` of `namespace`, on behalf of `object`. */
  deletePod(namespace: string, podID: string, object: DeepReadonly<KubeObject>): Promise<void>;
}

/** validateControllerRef: a controller reference must name its kind and be the controlling, blocking one. */
function validateControllerRef(ref: OwnerReference | undefined): void {
  if (ref === undefined) throw new Error('controllerRef is nil');
  if (ref.apiVersion === '') throw new Error('controllerRef has empty APIVersion');
  if (ref.kind === '') throw new Error('controllerRef has empty Kind');
  if (ref.controller !== true) throw new Error('controllerRef.Controller is not set to true');
  if (ref.blockOwnerDeletion !== true) throw new Error('controllerRef.BlockOwnerDeletion is not set');
}

/** getPodsPrefix: `<controller>-` for the generateName, or the bare name when the dash would make it invalid. */
export function getPodsPrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return nameIsDNSSubdomain(prefix, true).length === 0 ? prefix : controllerName;
}

/**
 * GetPodFromTemplate: the template's labels, annotations and finalizers (copies), a generateName
 * from the controller's name, the controller reference, and a copy of the template's spec.
 */
export function getPodFromTemplate(
  template: DeepReadonly<PodTemplateSpec>,
  parentObject: DeepReadonly<KubeObject>,
  controllerRef?: OwnerReference,
): Pod {
  const meta = template.metadata ?? {};
  const labels = { ...(meta.labels ?? {}) };
  const annotations = { ...(meta.annotations ?? {}) };
  const finalizers = [...(meta.finalizers ?? [])];
  // Empty maps and slices are omitted, as Go's omitempty writes them.
  const pod: Pod = {
    metadata: {
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      generateName: getPodsPrefix(parentObject.metadata?.name ?? ''),
      ...(finalizers.length > 0 ? { finalizers } : {}),
      ...(controllerRef === undefined ? {} : { ownerReferences: [{ ...controllerRef }] }),
    },
  };
  if (template.spec !== undefined) pod.spec = deepCopy(template.spec);
  return pod;
}

/** An error's text as Go's %v prints it. */
const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** RealPodControl: pod writes through the client, their outcome recorded as Events on the controller. */
export class RealPodControl implements PodControlInterface {
  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
  ) {}

  createPods(
    namespace: string,
    template: DeepReadonly<PodTemplateSpec>,
    controllerObject: DeepReadonly<KubeObject>,
    controllerRef: OwnerReference,
  ): Promise<void> {
    return this.createPodsWithGenerateName(namespace, template, controllerObject, controllerRef, '');
  }

  async createPodsWithGenerateName(
    namespace: string,
    template: DeepReadonly<PodTemplateSpec>,
    controllerObject: DeepReadonly<KubeObject>,
    controllerRef: OwnerReference,
    generateName: string,
  ): Promise<void> {
    validateControllerRef(controllerRef);
    const pod = getPodFromTemplate(template, controllerObject, controllerRef);
    if (generateName !== '' && pod.metadata !== undefined) pod.metadata.generateName = generateName;
    await this.createPod(namespace, pod, controllerObject);
  }

  /** createPods: refused without labels (nothing could select it); FailedCreate unless the namespace is terminating. */
  private async createPod(namespace: string, pod: Pod, object: DeepReadonly<KubeObject>): Promise<void> {
    if (Object.keys(pod.metadata?.labels ?? {}).length === 0) throw new Error('unable to create pods, no labels');
    let created: Pod;
    try {
      created = await this.client.create(RESOURCES.pods, namespace, pod);
    } catch (err) {
      // Only an Event when the namespace is not going away.
      if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
        this.recorder.record(object, 'Warning', FAILED_CREATE_POD_REASON, `Error creating: ${errorText(err)}`);
      }
      throw err;
    }
    this.recorder.record(
      object,
      'Normal',
      SUCCESSFUL_CREATE_POD_REASON,
      `Created pod: ${created.metadata?.name ?? ''}`,
    );
  }

  /** DeletePod: a pod already gone is its NotFound error, without an Event; other failures are FailedDelete. */
  async deletePod(namespace: string, podID: string, object: DeepReadonly<KubeObject>): Promise<void> {
    try {
      await this.client.delete(RESOURCES.pods, namespace, podID);
    } catch (err) {
      if (isNotFound(err)) throw err;
      this.recorder.record(object, 'Warning', FAILED_DELETE_POD_REASON, `Error deleting: ${errorText(err)}`);
      throw new Error(`unable to delete pods: ${errorText(err)}`, { cause: err });
    }
    this.recorder.record(object, 'Normal', SUCCESSFUL_DELETE_POD_REASON, `Deleted pod: ${podID}`);
  }

  /** PatchPod: a strategic-merge patch (the ControllerRef manager's adopt and release). */
  async patchPod(namespace: string, name: string, data: string): Promise<void> {
    await this.client.patch(RESOURCES.pods, namespace, name, 'strategic', JSON.parse(data) as unknown);
  }
}
