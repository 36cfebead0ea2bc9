/**
 * controller.FakePodControl (pkg/controller/controller_utils.go at v1.32, the tests' pod control):
 * records what a controller asks — the templates of its creates, the names of its deletes, its
 * patches — without doing it, and refuses with `err` (every call) or after `createLimit` creates,
 * as Kubernetes' controller tests inject failures. With `delegate`, the calls that succeed are
 * passed on (the pods really made, through the apiserver).
 *
 *   const podControl = new FakePodControl();
 *   podControl.createLimit = 3;           // the 4th create fails
 *   … expect(podControl.templates).toHaveLength(3);
 */
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import type { PodTemplateSpec } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { PodControlInterface } from '../framework/pod-control.js';

export class FakePodControl implements PodControlInterface {
  readonly templates: DeepReadonly<PodTemplateSpec>[] = [];
  readonly controllerRefs: OwnerReference[] = [];
  readonly deletePodNames: string[] = [];
  readonly patches: string[] = [];
  /** Every call fails with it, when set. */
  err: Error | undefined;
  /** Creates past this many fail (0: no limit). */
  createLimit = 0;
  /** Creates asked, failed ones included. */
  createCallCount = 0;

  constructor(private readonly delegate?: PodControlInterface) {}

  async createPods(
    namespace: string,
    template: DeepReadonly<PodTemplateSpec>,
    controllerObject: DeepReadonly<KubeObject>,
    controllerRef: OwnerReference,
  ): Promise<void> {
    this.recordCreate(template, controllerRef);
    await this.delegate?.createPods(namespace, template, controllerObject, controllerRef);
  }

  async createPodsWithGenerateName(
    namespace: string,
    template: DeepReadonly<PodTemplateSpec>,
    controllerObject: DeepReadonly<KubeObject>,
    controllerRef: OwnerReference,
    generateName: string,
  ): Promise<void> {
    this.recordCreate(template, controllerRef);
    await this.delegate?.createPodsWithGenerateName(namespace, template, controllerObject, controllerRef, generateName);
  }

  /** A create counted, refused past the limit (FakePodControl's message), recorded, refused with `err`. */
  private recordCreate(template: DeepReadonly<PodTemplateSpec>, controllerRef: OwnerReference): void {
    this.createCallCount++;
    if (this.createLimit !== 0 && this.createCallCount > this.createLimit) {
      throw new Error(
        `not creating pod, limit ${this.createLimit} already reached (create call ${this.createCallCount})`,
      );
    }
    this.templates.push(template);
    this.controllerRefs.push(controllerRef);
    if (this.err !== undefined) throw this.err;
  }

  async deletePod(namespace: string, podID: string, object: DeepReadonly<KubeObject>): Promise<void> {
    this.deletePodNames.push(podID);
    if (this.err !== undefined) throw this.err;
    await this.delegate?.deletePod(namespace, podID, object);
  }

  async patchPod(namespace: string, name: string, data: string): Promise<void> {
    this.patches.push(data);
    if (this.err !== undefined) throw this.err;
    await this.delegate?.patchPod(namespace, name, data);
  }

  /** Clear: forgets what was recorded (the error and limit stay). */
  clear(): void {
    this.templates.length = 0;
    this.controllerRefs.length = 0;
    this.deletePodNames.length = 0;
    this.patches.length = 0;
    this.createCallCount = 0;
  }
}
