/**
 * The resource quota controller (pkg/controller/resourcequota/resource_quota_controller.go and
 * resource_quota_monitor.go, v1.32): keeps each ResourceQuota's status.hard equal to spec.hard and
 * status.used equal to what the namespace's objects use, computed by the quota evaluators that
 * admission charges with (ts/apiserver/admission/resource-quota). A quota is synced when it is
 * created or its spec.hard changes (first, on the priority queue, when its status lacks them),
 * when an object it tracks is deleted, a pod becomes terminal or a service changes its quota type
 * (replenishment), and every resync period (kube-controller-manager --resource-quota-sync-period;
 * 0 or less turns the periodic recalculation off, as Run does).
 *
 *   const rq = new ResourceQuotaController({ factory, client, resources, clock });
 *   factory.start();
 *   await rq.run();  …  await rq.stop();
 *
 * Differences: the resources come from the caller (the apiserver's table) rather than discovery;
 * usage is counted from the shared informer of each resource (namespace-indexed), as the
 * controller's monitors do.
 */
import type { KubeObject } from '../../api/meta.js';
import type { ResourceQuota } from '../../api/types/core/v1.js';
import { type DeepReadonly, deepCopy } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey, splitObjectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES, type ResourceType } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import type { Evaluator } from '../../quota/evaluator.js';
import { quotaV1Pod } from '../../quota/pods.js';
import { type Quota, quotaFrom } from '../../quota/quota.js';
import { isIgnoredResource, QuotaRegistry } from '../../quota/registry.js';
import {
  add,
  decimal,
  equals,
  intersection,
  mask,
  parseResourceList,
  type ResourceList,
  resourceListJson,
} from '../../quota/resource-list.js';
import { quotaServiceType } from '../../quota/services.js';
import { type Clock, realClock } from '../../sim/clock.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { Controller } from '../framework/controller.js';
import { RESOURCE_QUOTA_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';

// pkg/controller/resourcequota/config/v1alpha1/defaults.go: --resource-quota-sync-period 5m0s.
export const DEFAULT_RESYNC_PERIOD_MS = 5 * 60_000;
// pkg/controller/resourcequota/config/v1alpha1/defaults.go: --concurrent-resource-quota-syncs 5.
export const DEFAULT_WORKERS = 5;

type Obj = Record<string, unknown>;
/** The evaluators read objects as plain JSON, never changing them. */
const obj = (o: KubeObject | DeepReadonly<KubeObject>): Obj => o as unknown as Obj;

export interface ResourceQuotaControllerOptions {
  /** The shared informers: resourcequotas, and one per namespaced resource counted. */
  factory: SharedInformerFactory;
  /** The controller's own client: the status writes. */
  client: Client;
  /** The namespaced resources to count (one version per group and resource). */
  resources: readonly ResourceType[];
  clock?: Clock;
  workers?: number;
  /** --resource-quota-sync-period: the full recalculation's period (0 or less: none). */
  resyncPeriodMs?: number;
  onError?: (err: unknown, key: string) => void;
  logger?: Logger;
}

interface Monitor {
  evaluator: Evaluator;
  lister: Lister<KubeObject>;
}

export class ResourceQuotaController implements Controller {
  readonly name = RESOURCE_QUOTA_CONTROLLER;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly registry = new QuotaRegistry();
  private readonly quotas: Lister<ResourceQuota>;
  /** resourcequota_primary: recalculations. */
  private readonly queue: WorkQueue<string>;
  /** resourcequota_priority: quotas whose status lacks their spec. */
  private readonly missingUsageQueue: WorkQueue<string>;
  private readonly monitors = new Map<string, Monitor>();
  private readonly primary: Workers<string>;
  private readonly priority: Workers<string>;
  private readonly resyncPeriodMs: number;
  private readonly defaultWorkers: number;
  private readonly logger: Logger;
  private cancelResync: (() => void) | undefined;
  private stopped = false;

  constructor(options: ResourceQuotaControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.resyncPeriodMs = options.resyncPeriodMs ?? DEFAULT_RESYNC_PERIOD_MS;
    this.defaultWorkers = options.workers ?? DEFAULT_WORKERS;
    this.logger = options.logger ?? discardLogger;
    const onError = options.onError ?? (() => {});
    this.queue = new WorkQueue<string>({ clock: this.clock });
    this.missingUsageQueue = new WorkQueue<string>({ clock: this.clock });
    const handlers = new Registrations();
    const quotas = options.factory.informerFor(RESOURCES.resourcequotas);
    this.quotas = quotas.lister();
    handlers.add(quotas, {
      onAdd: (q) => this.addQuota(q),
      // Status changes are this controller's (and admission's) own: only a new spec.hard matters.
      onUpdate: (old, cur) => {
        if (!equals(hardOf(old, 'spec'), hardOf(cur, 'spec'))) this.addQuota(cur);
      },
      onDelete: (q) => this.queue.add(objectKey(q)),
    });
    for (const r of options.resources) {
      if (!r.namespaced || isIgnoredResource(r.group, r.resource)) continue;
      const informer = options.factory.informerFor(r);
      const evaluator = this.registry.get(r.group, r.resource);
      const replenish = (o: DeepReadonly<KubeObject>) => this.replenish(evaluator, o.metadata?.namespace ?? '');
      handlers.add(informer, {
        // resource_quota_monitor.go: only the updates that can release usage.
        onUpdate: (old, cur) => {
          if (r.group === '' && r.resource === 'pods') {
            const now = this.clock.now();
            if (quotaV1Pod(obj(old), now) && !quotaV1Pod(obj(cur), now)) replenish(cur);
          } else if (r.group === '' && r.resource === 'services') {
            if (quotaServiceType(obj(old)) !== quotaServiceType(obj(cur))) replenish(cur);
          }
        },
        onDelete: replenish,
      });
      this.monitors.set(`${r.group}/${r.resource}`, { evaluator, lister: informer.lister() });
    }
    const sync = (key: string) => this.sync(key);
    this.primary = new Workers({ queue: this.queue, handlers, sync, onError });
    this.priority = new Workers({ queue: this.missingUsageQueue, handlers, sync, onError });
  }

  /**
   * Waits for the informers, then runs `workers` workers on each queue
   * (--concurrent-resource-quota-syncs) and the periodic resync, when its period is positive.
   */
  async run(workers = this.defaultWorkers): Promise<void> {
    await Promise.all([this.primary.run(workers), this.priority.run(workers)]);
    if (this.resyncPeriodMs > 0) this.scheduleResync();
    else this.logger.info('periodic quota controller resync disabled');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelResync?.();
    await Promise.all([this.primary.stop(), this.priority.stop()]);
  }

  /** enqueueAll every resync period: a full recalculation of every quota. */
  private scheduleResync(): void {
    if (this.stopped) return;
    this.cancelResync = this.clock.setTimer(() => {
      for (const q of this.quotas.list()) this.queue.add(objectKey(q));
      this.scheduleResync();
    }, this.resyncPeriodMs);
  }

  /** addQuota: a quota whose status lacks its spec goes to the priority queue. */
  private addQuota(q: DeepReadonly<ResourceQuota>): void {
    const key = objectKey(q);
    const hard = hardOf(q, 'status');
    if (!equals(hardOf(q, 'spec'), hard)) {
      this.missingUsageQueue.add(key);
      return;
    }
    const used = parseResourceList(q.status?.used);
    for (const name of hard.keys()) {
      if (used.has(name)) continue;
      if (this.evaluators().some((e) => e.matchingResources([name]).length > 0)) {
        this.missingUsageQueue.add(key);
        return;
      }
    }
    this.queue.add(key);
  }

  /** replenishQuota: recalculate the namespace's quotas that track the resource. */
  private replenish(evaluator: Evaluator, namespace: string): void {
    for (const q of this.quotas.byNamespace(namespace).list()) {
      if (evaluator.matchingResources(hardOf(q, 'status').keys()).length > 0) this.queue.add(objectKey(q));
    }
  }

  private evaluators(): Evaluator[] {
    return [...this.monitors.values()].map((m) => m.evaluator);
  }

  /** syncResourceQuota: status.hard from spec.hard, status.used recalculated; written when changed. */
  async sync(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const cached = this.quotas.get(namespace, name);
    if (cached === undefined) return;
    const q = quotaFrom(obj(cached), 0n);
    const status = cached.status ?? {};
    let dirty = !equals(q.specHard, q.hard) || status.hard === undefined || status.used === undefined;
    let used = new Map(q.used);
    for (const [k, v] of this.calculateUsage(q)) used.set(k, v);
    used = mask(used, q.specHard.keys());
    dirty = dirty || !equals(used, q.used);
    if (!dirty) return;
    // A copy: the cached object is every reader's.
    const usage = deepCopy(cached);
    usage.status = { hard: resourceListJson(q.specHard), used: resourceListJson(used) };
    await this.client.updateStatus(RESOURCES.resourcequotas, q.namespace, usage);
  }

  /** quota.CalculateUsage: each evaluator's usage of the namespace's objects in the quota's scopes. */
  private calculateUsage(q: Quota): ResourceList {
    const hard = [...q.specHard.keys()];
    const monitors = [...this.monitors.values()];
    const matched = intersection(
      hard,
      monitors.flatMap((m) => m.evaluator.matchingResources(hard)),
    );
    let usage: ResourceList = new Map();
    const now = this.clock.now();
    for (const { evaluator, lister } of monitors) {
      const names = evaluator.matchingResources(matched);
      if (names.length === 0) continue;
      // generic.CalculateUsageStats: every tracked resource starts at zero.
      let used: ResourceList = new Map(names.map((n) => [n, decimal(0)]));
      for (const item of lister.byNamespace(q.namespace).list()) {
        const o = obj(item);
        const inScopes =
          q.scopes.every((scopeName) => evaluator.matchesScope({ scopeName, operator: '' }, o)) &&
          q.scopeSelector.every((s) => evaluator.matchesScope(s, o));
        if (inScopes) used = add(used, evaluator.usage(o, now));
      }
      usage = add(usage, used);
    }
    return mask(usage, matched);
  }
}

function hardOf(q: DeepReadonly<ResourceQuota>, part: 'spec' | 'status'): ResourceList {
  return parseResourceList(q[part]?.hard);
}
