/**
 * The DefaultStorageClass admission plugin (plugin/pkg/admission/storage/storageclass/setdefault/
 * admission.go, v1.32): a PersistentVolumeClaim created without a class — neither
 * spec.storageClassName nor the beta annotation, not even "" — gets the default StorageClass
 * (pkg/volume/util/storageclass.go GetDefaultClass: of the classes annotated
 * `storageclass.kubernetes.io/is-default-class: "true"`, the newest, then the first by name); with
 * no default class the claim is left as it is.
 */
import { isDefaultStorageClass, persistentVolumeClaimHasClass } from '../../api/persistent-volume.js';
import { RESOURCES } from '../../api/resources.js';
import type { PersistentVolumeClaim } from '../../api/types/core/v1.js';
import type { AdmissionDeps } from './deps.js';
import { type Listed, listObjects } from './lister.js';
import type { AdmissionPlugin } from './types.js';

// setdefault.PluginName.
export const DEFAULT_STORAGE_CLASS = 'DefaultStorageClass';

type StoredClass = Listed<typeof RESOURCES.storageclasses>;

const created = (c: StoredClass): number => Date.parse(c.metadata?.creationTimestamp ?? '') || 0;

/** GetDefaultClass: newest first, then by name. */
export async function defaultStorageClass(deps: AdmissionDeps): Promise<StoredClass | undefined> {
  const defaults = (await listObjects(deps, RESOURCES.storageclasses, '')).filter((c) =>
    isDefaultStorageClass(c.metadata),
  );
  defaults.sort((a, b) => {
    const byTime = created(b) - created(a);
    if (byTime !== 0) return byTime;
    const an = a.metadata?.name ?? '';
    const bn = b.metadata?.name ?? '';
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
  return defaults[0];
}

export function defaultStorageClassPlugin(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: DEFAULT_STORAGE_CLASS,
    handles: (a) =>
      a.operation === 'CREATE' &&
      a.info.group === '' &&
      a.info.resource === 'persistentvolumeclaims' &&
      a.subresource === '',
    async admit(a) {
      const pvc = a.object as PersistentVolumeClaim | undefined;
      if (pvc === undefined || persistentVolumeClaimHasClass(pvc)) return;
      const def = await defaultStorageClass(deps);
      const name = def?.metadata?.name;
      if (name === undefined) return;
      pvc.spec ??= {};
      pvc.spec.storageClassName = name;
    },
  };
}
