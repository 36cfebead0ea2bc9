/**
 * The custom resources a cluster serves, for the controllers that act on every resource type
 * (the namespace controller empties a deleted namespace of them too, as Kubernetes' discovery-driven
 * namespaced_resources_deleter.go does): a CustomResourceDefinition informer keeps `resources`, a
 * live array the controller reads on each sync, as the built-in types plus each Established CRD's
 * preferred served version.
 *
 *   const types = new CustomResourceTypes(client, builtins, { namespaced: true });
 *   new NamespaceController({ client, resources: types.resources, clock }); types.start();
 */
import type { KubeObject } from '../api/meta.js';
import { compareVersionPriority } from '../api/version-priority.js';
import type { Client } from '../client/client.js';
import { Informer } from '../client/informer.js';
import type { ResourceType } from '../client/resources.js';
import type { Clock } from '../sim/clock.js';

/** apiextensions.k8s.io/v1 customresourcedefinitions. */
const CRDS: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};

interface CrdLike extends KubeObject {
  spec?: { group?: string; scope?: string; versions?: { name?: string; served?: boolean }[] };
  status?: { acceptedNames?: { plural?: string; kind?: string }; conditions?: { type?: string; status?: string }[] };
}

/** The resource type a CRD serves, once Established: its preferred served version. */
export function servedTypeOf(crd: CrdLike): ResourceType | undefined {
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
  private readonly informer: Informer<CrdLike>;

  constructor(
    client: Client,
    private readonly builtins: readonly ResourceType[],
    private readonly options: { namespaced?: boolean; clock?: Clock } = {},
  ) {
    this.resources = [...builtins];
    this.informer = new Informer<CrdLike>(client, CRDS, options.clock === undefined ? {} : { clock: options.clock });
    const refresh = () => this.refresh();
    this.informer.addEventHandler({ onAdd: refresh, onUpdate: refresh, onDelete: refresh });
  }

  start(): void {
    this.informer.start();
  }

  synced(): Promise<void> {
    return this.informer.synced();
  }

  stop(): Promise<void> {
    return this.informer.stop();
  }

  private refresh(): void {
    const custom = this.informer
      .list()
      .map(servedTypeOf)
      .filter((t): t is ResourceType => t !== undefined)
      .filter((t) => this.options.namespaced !== true || t.namespaced)
      .sort((a, b) => (`${a.group}/${a.resource}` < `${b.group}/${b.resource}` ? -1 : 1));
    this.resources.splice(0, this.resources.length, ...this.builtins, ...custom);
  }
}
