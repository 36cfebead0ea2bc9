/**
 * The storage class strategy (pkg/registry/storage/storageclass/strategy.go, v1.32):
 * SetDefaults_StorageClass (pkg/apis/storage/v1/defaults.go: reclaimPolicy Delete,
 * volumeBindingMode Immediate); no status, no generation.
 */
import type { Obj } from '../../objects.js';
import type { ResourceStrategy } from '../../strategy.js';

/** storage.k8s.io/v1 StorageClass's defaults. */
export function defaultStorageClass(o: Obj): void {
  o.reclaimPolicy ??= 'Delete';
  o.volumeBindingMode ??= 'Immediate';
}

export const storageClassStrategy: ResourceStrategy = { defaults: defaultStorageClass };
