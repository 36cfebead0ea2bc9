/**
 * The resource quota controller (pkg/controller/resourcequota/resource_quota_controller.go and
 * resource_quota_monitor.go, v1.32): keeps each ResourceQuota's status.hard equal to spec.hard and
 * status.used equal to what the namespace's objects use, computed by the quota evaluators that
 * admission charges with (ts/apiserver/admission/resource-quota). A quota is synced when it is
 * created or its spec.hard changes (first, on the priority queue, when its status lacks them),
 * when an object it tracks is deleted, a pod becomes terminal or a service changes its quota type
 * (replenishment), and every resync period (kube-controller-manager --resource-quota-sync-period).
 *
 *   const rq = new ResourceQuotaController({ client, resources, clock });
 *   await rq.start();  …  await rq.stop();
 *
 * Differences: the resources come from the caller (the apiserver's table) rather than discovery;
 * usage is counted from one informer per resource, as the controller's monitors do.
 */
import type { KubeObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import { Informer, objectKey } from '../client/informer.js';
import { RESOURCES, type ResourceType } from '../client/resources.js';
import { runWorker, WorkQueue } from '../client/workqueue.js';
import type { Evaluator } from '../quota/evaluator.js';
import { quotaV1Pod } from '../quota/pods.js';
import { type Quota, quotaFrom } from '../quota/quota.js';
import { isIgnoredResource, QuotaRegistry } from '../quota/registry.js';
import {
  add,
  decimal,
  equals,
  intersection,
  mask,
  parseResourceList,
  type ResourceList,
  resourceListJson,
} from '../quota/resource-list.js';
import { quotaServiceType } from '../quota/services.js';
import { type Clock, realClock } from '../sim/clock.js';

// kube-controller-manager --resource-quota-sync-period default (5m0s).
export const DEFAULT_RESYNC_PERIOD_MS = 5 * 60_000;
// kube-controller-manager --concurrent-resource-quota-syncs default.
export const DEFAULT_WORKERS = 5;

type Obj = Record<string, unknown>;
const obj = (o: KubeObject): Obj => o as unknown as Obj;

export interface ResourceQuotaControllerOptions {
  client: Client;
  /** The namespaced resources to count (one version per group and resource). */
  resources: readonly ResourceType[];
  clock?: Clock;
  workers?: number;
  resyncPeriodMs?: number;
  onError?: (err: unknown, key: string) => void;
}

interface Monitor {
  evaluator: Evaluator;
  informer: Informer<KubeObject>;
}

export class ResourceQuotaController {
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly registry = new QuotaRegistry();
  private readonly quotas: Informer<KubeObject>;
  /** resourcequota_primary: recalculations. */
  private readonly queue: WorkQueue<string>;
  /** resourcequota_priority: quotas whose status lacks their spec. */
  private readonly missingUsageQueue: WorkQueue<string>;
  private readonly monitors = new Map<string, Monitor>();
  private readonly workers: number;
  private readonly resyncPeriodMs: number;
  private readonly onError: (err: unknown, key: string) => void;
  private running: Promise<void>[] = [];
  private cancelResync: (() => void) | undefined;
  private stopped = false;

  constructor(options: ResourceQuotaControllerOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.workers = options.workers ?? DEFAULT_WORKERS;
    this.resyncPeriodMs = options.resyncPeriodMs ?? DEFAULT_RESYNC_PERIOD_MS;
    this.onError = options.onError ?? ((err, key) => console.error(`resource quota controller: ${key}:`, err));
    this.queue = new WorkQueue<string>({ clock: this.clock });
    this.missingUsageQueue = new WorkQueue<string>({ clock: this.clock });
    this.quotas = new Informer<KubeObject>(this.client, RESOURCES.resourcequotas, { clock: this.clock });
    this.quotas.addEventHandler({
      onAdd: (q) => this.addQuota(q),
      // Status changes are this controller's (and admission's) own: only a new spec.hard matters.
      onUpdate: (old, cur) => {
        if (!equals(hardOf(old, 'spec'), hardOf(cur, 'spec'))) this.addQuota(cur);
      },
      onDelete: (q) => this.queue.add(objectKey(q)),
    });
    for (const r of options.resources) {
      if (!r.namespaced || isIgnoredResource(r.group, r.resource)) continue;
      const informer = new Informer<KubeObject>(this.client, r, { clock: this.clock });
      const evaluator = this.registry.get(r.group, r.resource);
      const replenish = (o: KubeObject) => this.replenish(evaluator, o.metadata?.namespace ?? '');
      informer.addEventHandler({
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
      this.monitors.set(`${r.group}/${r.resource}`, { evaluator, informer });
    }
  }

  /** Starts the informers and, once they have synced, the workers and the periodic resync. */
  async start(): Promise<void> {
    this.quotas.start();
    for (const m of this.monitors.values()) m.informer.start();
    await Promise.all([this.quotas.synced(), ...[...this.monitors.values()].map((m) => m.informer.synced())]);
    for (let i = 0; i < this.workers; i++) {
      this.running.push(
        runWorker(
          this.queue,
          (key) => this.sync(key),
          (err, key) => this.onError(err, key),
        ),
        runWorker(
          this.missingUsageQueue,
          (key) => this.sync(key),
          (err, key) => this.onError(err, key),
        ),
      );
    }
    this.scheduleResync();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelResync?.();
    this.queue.shutDown();
    this.missingUsageQueue.shutDown();
    await Promise.all([this.quotas.stop(), ...[...this.monitors.values()].map((m) => m.informer.stop())]);
    await Promise.all(this.running);
    this.running = [];
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
  private addQuota(q: KubeObject): void {
    const key = objectKey(q);
    const hard = hardOf(q, 'status');
    if (!equals(hardOf(q, 'spec'), hard)) {
      this.missingUsageQueue.add(key);
      return;
    }
    const used = parseResourceList((obj(q).status as Obj | undefined)?.used);
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
    for (const q of this.quotas.list()) {
      if (q.metadata?.namespace !== namespace) continue;
      if (evaluator.matchingResources(hardOf(q, 'status').keys()).length > 0) this.queue.add(objectKey(q));
    }
  }

  private evaluators(): Evaluator[] {
    return [...this.monitors.values()].map((m) => m.evaluator);
  }

  /** syncResourceQuota: status.hard from spec.hard, status.used recalculated; written when changed. */
  async sync(key: string): Promise<void> {
    const cached = this.quotas.getByKey(key);
    if (cached === undefined) return;
    const q = quotaFrom(obj(cached), 0n);
    const status = (obj(cached).status ?? {}) as Obj;
    let dirty = !equals(q.specHard, q.hard) || status.hard === undefined || status.used === undefined;
    let used = new Map(q.used);
    for (const [k, v] of this.calculateUsage(q)) used.set(k, v);
    used = mask(used, q.specHard.keys());
    dirty = dirty || !equals(used, q.used);
    if (!dirty) return;
    await this.client.updateStatus(RESOURCES.resourcequotas, q.namespace, {
      ...cached,
      status: { hard: resourceListJson(q.specHard), used: resourceListJson(used) },
    } as KubeObject);
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
    for (const { evaluator, informer } of monitors) {
      const names = evaluator.matchingResources(matched);
      if (names.length === 0) continue;
      // generic.CalculateUsageStats: every tracked resource starts at zero.
      let used: ResourceList = new Map(names.map((n) => [n, decimal(0)]));
      for (const item of informer.list()) {
        if (item.metadata?.namespace !== q.namespace) continue;
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

function hardOf(q: KubeObject, part: 'spec' | 'status'): ResourceList {
  const p = obj(q)[part];
  return parseResourceList(p !== null && typeof p === 'object' ? (p as Obj).hard : undefined);
}
