/**
 * The custom resources a cluster serves, for the controllers that act on every resource type
 * (the namespace controller empties a deleted namespace of them too, as Kubernetes' discovery-driven
 * namespaced_resources_deleter.go does; the garbage collector's monitors follow them, as
 * garbagecollector.go's resyncMonitors does): the shared CustomResourceDefinition informer keeps
 * `resources`, a live array the controller reads on each sync, as the built-in types plus each
 * Established CRD's preferred served version; `onChange` is told the custom types after each change.
 *
 *   const types = new CustomResourceTypes(factory, builtins, handlers, { namespaced: true });
 *   … types.resources …
 */
import type { CustomResourceDefinition } from '../../api/types/apiextensions/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { compareVersionPriority } from '../../api/version-priority.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES, type ResourceType } from '../../client/resources.js';
import type { Registrations } from '../framework/workers.js';

/** The resource type a CRD serves, once Established: its preferred served version. */
export function servedTypeOf(crd: DeepReadonly<CustomResourceDefinition>): ResourceType | undefined {
  const established = (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  const plural = crd.status?.acceptedNames?.plural ?? '';
  const kind = crd.status?.acceptedNames?.kind ?? '';
  const versions = (crd.spec?.versions ?? [])
    .filter((v) => v.served === true && typeof v.name === 'string')
    .map((v) => v.name as string)
    .sort(compareVersionPriority);
  const version = versions[0];
  if (!established || plural === '' || kind === '' || version === undefined) return undefined;
  return {
    group: crd.spec?.group ?? '',
    version,
    resource: plural,
    kind,
    namespaced: crd.spec?.scope === 'Namespaced',
  };
}

export class CustomResourceTypes {
  /** The built-in types, then the custom ones; updated in place as CRDs change. */
  readonly resources: ResourceType[];
  private readonly crds: SharedIndexInformer<CustomResourceDefinition>;

  /** Follows the factory's CRD informer; its handler joins `handlers` (synced and removed with them). */
  constructor(
    factory: SharedInformerFactory,
    private readonly builtins: readonly ResourceType[],
    handlers: Registrations,
    private readonly options: {
      namespaced?: boolean;
      /** The custom types now served, after every CRD change (in group/resource order). */
      onChange?: (custom: readonly ResourceType[]) => void;
    } = {},
  ) {
    this.resources = [...builtins];
    this.crds = factory.informerFor(RESOURCES.customresourcedefinitions);
    const refresh = () => this.refresh();
    handlers.add(this.crds, { onAdd: refresh, onUpdate: refresh, onDelete: refresh });
  }

  private refresh(): void {
    const custom = this.crds
      .lister()
      .list()
      .map(servedTypeOf)
      .filter((t): t is ResourceType => t !== undefined)
      .filter((t) => this.options.namespaced !== true || t.namespaced)
      .sort((a, b) => (`${a.group}/${a.resource}` < `${b.group}/${b.resource}` ? -1 : 1));
    this.resources.splice(0, this.resources.length, ...this.builtins, ...custom);
    this.options.onChange?.(custom);
  }
}
