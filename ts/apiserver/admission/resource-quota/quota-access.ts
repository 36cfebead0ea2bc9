/**
 * The quota accessor (resource_access.go): the quotas of a namespace, and status.used written back
 * with a compare-and-swap on the revision the usage was computed from — a quota changed in the
 * meantime answers 409 Conflict, as UpdateStatus with a stale resourceVersion does. The quotas are
 * read through the admission lister (../lister.ts: the apiserver's informer while it is current,
 * else storage), as Kubernetes reads an informer's cache; the write is always the compare-and-swap
 * on storage.
 */
import { newConflict, newNotFound } from '../../../api/status.js';
import { RESOURCES } from '../../../client/resources.js';
import { isObj } from '../../../quota/pod-resources.js';
import { type Quota, quotaFrom } from '../../../quota/quota.js';
import { resourceListJson } from '../../../quota/resource-list.js';
import { StorageError } from '../../../storage/errors.js';
import { decodeForRewrite, encodeForStorage } from '../../decode/codec.js';
import { type ListerSource, listObjects, revisionOf } from '../lister.js';

const QUOTAS = { group: '', resource: 'resourcequotas' };

export const quotaKey = (namespace: string, name: string): string => `/registry/resourcequotas/${namespace}/${name}`;

export class QuotaAccessor {
  constructor(private readonly source: ListerSource) {}

  /** GetQuotas: every quota of the namespace, as stored now. */
  async getQuotas(namespace: string): Promise<Quota[]> {
    const items = await listObjects(this.source, RESOURCES.resourcequotas, namespace);
    // quotaFrom copies what it reads: the lister's objects stay as they are.
    return items.map((item) => quotaFrom(item as Record<string, unknown>, revisionOf(item)));
  }

  /** Whether the namespace has any quota. */
  async hasQuotas(namespace: string): Promise<boolean> {
    return (await listObjects(this.source, RESOURCES.resourcequotas, namespace)).length > 0;
  }

  /** UpdateQuotaStatus: writes `quota.used` if the quota is still at `quota.revision`. */
  async updateQuotaStatus(quota: Quota): Promise<void> {
    try {
      await this.source.storage.guaranteedUpdate(
        quotaKey(quota.namespace, quota.name),
        (current) => {
          if (current === undefined) throw StorageError.keyNotFound(quotaKey(quota.namespace, quota.name));
          const obj = decodeForRewrite(current.value) as Record<string, unknown>;
          const status = isObj(obj.status) ? obj.status : {};
          obj.status = { ...status, used: resourceListJson(quota.used) };
          return encodeForStorage(obj);
        },
        { preconditions: { revision: quota.revision } },
      );
    } catch (err) {
      if (err instanceof StorageError && err.code === 'ResourceVersionConflicts') throw newConflict(QUOTAS, quota.name);
      if (err instanceof StorageError && err.code === 'KeyNotFound') throw newNotFound(QUOTAS, quota.name);
      throw err;
    }
  }
}
