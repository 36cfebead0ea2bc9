/**
 * The service strategy and storage (pkg/registry/core/service/strategy.go and storage/storage.go,
 * v1.32): SetDefaults_Service (type ClusterIP, sessionAffinity None, TCP ports targeting their own
 * port), ClusterIPs and node ports allocated after validation and released after the Service is
 * gone (allocators/service-allocation.ts, through the server's ServiceAllocators), a failed write
 * giving back what it took.
 */
import { prepareServiceCreate, prepareServiceUpdate } from '../../../allocators/service-allocation.js';
import { keepStoredStatus, startStatus } from '../../generic/default-strategy.js';
import { child, isObj } from '../../objects.js';
import type { FinishFunc, ResourceStrategy } from '../../strategy.js';

const finishing =
  (txn: { commit(): void; revert(): void }): FinishFunc =>
  (success) =>
    success ? txn.commit() : txn.revert();

export const serviceStrategy: ResourceStrategy = {
  defaults(o) {
    const spec = child(o, 'spec');
    spec.type ??= 'ClusterIP';
    spec.sessionAffinity ??= 'None';
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports) {
        if (!isObj(p)) continue;
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
    }
  },
  prepareForCreate(obj, info) {
    startStatus(info, obj);
    prepareServiceCreate(obj);
  },
  update: {
    prepareForUpdate(obj, old, info) {
      keepStoredStatus(info, obj, old);
      prepareServiceUpdate(obj, old);
    },
  },
  /** REST.beginCreate: the allocations, once the allocators are rebuilt from the stored Services. */
  async beginCreate(ctx, obj, dryRun) {
    if (ctx.services === undefined) return undefined;
    await ctx.services.ready();
    return finishing(ctx.services.allocateCreate(obj, dryRun));
  },
  beforeUpdates: async (ctx) => ctx.services?.ready(),
  /** REST.beginUpdate: type changes allocate or release, the allocated values a client left out patched back. */
  beginUpdate: (ctx, obj, old, dryRun) =>
    ctx.services === undefined ? undefined : finishing(ctx.services.allocateUpdate(obj, old, dryRun)),
  /** REST.afterDelete: everything the Service held is released. */
  async afterDelete(ctx, obj) {
    if (ctx.services === undefined) return;
    await ctx.services.ready();
    ctx.services.release(obj);
  },
};
