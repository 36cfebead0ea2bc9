/**
 * Test fixtures of the Deployment controller's tests (tests only): the objects
 * deployment_controller_test.go and deployment_util_test.go build (newDeployment, newReplicaSet,
 * rs, generateDeployment, generateRS), and a SyncContext whose writes are recorded as client-go's
 * fake clientset records actions.
 *
 *   const dc = fakeContext();
 *   await scale(dc, newDeployment('foo', 12), rs('foo-v1', 10), []);
 *   dc.actions;   // [{ verb: 'update', resource: 'replicasets', name: 'foo-v1', object: … }]
 */

import type { Deployment, ReplicaSet } from '../../../api/types/apps/v1.js';
import type { PodTemplateSpec } from '../../../api/types/core/v1.js';
import type { IntOrString } from '../../../api/types/intstr.js';
import { VirtualClock } from '../../../sim/clock.js';
import { discardLogger } from '../../../sim/logger.js';
import type { DeploymentApi, SyncContext } from '../sync.js';
import type { RO } from '../util/deployment-util.js';

let seq = 0;
const nextUID = () => `uid-${++seq}`;

/** deployment_controller_test.go newDeployment: RollingUpdate, surge and unavailable 0 unless given. */
export function newDeployment(
  name: string,
  replicas: number,
  options: {
    revisionHistoryLimit?: number;
    maxSurge?: IntOrString;
    maxUnavailable?: IntOrString;
    selector?: Record<string, string>;
  } = {},
): Deployment {
  const selector = options.selector ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { uid: nextUID(), name, namespace: 'default', annotations: {} },
    spec: {
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: options.maxUnavailable ?? 0, maxSurge: options.maxSurge ?? 0 },
      },
      replicas,
      selector: { matchLabels: { ...selector } },
      template: { metadata: { labels: { ...selector } }, spec: { containers: [{ name: '', image: 'foo/bar' }] } },
      ...(options.revisionHistoryLimit === undefined ? {} : { revisionHistoryLimit: options.revisionHistoryLimit }),
    },
  };
}

/** deployment_controller_test.go newReplicaSet: the Deployment's template, owned by it. */
export function newReplicaSet(d: Deployment, name: string, replicas: number): ReplicaSet {
  return {
    kind: 'ReplicaSet',
    metadata: {
      name,
      uid: nextUID(),
      namespace: 'default',
      labels: { ...(d.spec?.selector.matchLabels ?? {}) },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: d.metadata?.name ?? '',
          uid: d.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      selector: structuredClone(d.spec?.selector ?? {}),
      replicas,
      template: structuredClone(d.spec?.template ?? {}) as PodTemplateSpec,
    },
  };
}

/** deployment_controller_test.go rs: a bare set in default, created at `created` (none: the zero time). */
export function rs(name: string, replicas: number, selector?: Record<string, string>, created?: string): ReplicaSet {
  return {
    metadata: {
      name,
      uid: `uid-${name}`,
      namespace: 'default',
      ...(created === undefined ? {} : { creationTimestamp: created }),
    },
    spec: { replicas, selector: { ...(selector === undefined ? {} : { matchLabels: selector }) }, template: {} },
  };
}

/** newRSWithStatus / newRSWithAvailable. */
export function rsWithStatus(name: string, specReplicas: number, statusReplicas: number, available = 0): ReplicaSet {
  const r = rs(name, specReplicas);
  r.status = { replicas: statusReplicas, ...(available === 0 ? {} : { availableReplicas: available }) };
  return r;
}

/** generateDeployment: one container of `image`, labels name=<image>. */
export function generateDeployment(image: string): Deployment {
  const labels = { name: image };
  return {
    metadata: { name: image, annotations: {} },
    spec: {
      replicas: 1,
      selector: { matchLabels: { ...labels } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          containers: [
            { name: image, image, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' },
          ],
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          restartPolicy: 'Always',
          securityContext: {},
          enableServiceLinks: true,
        },
      },
    },
  };
}

/** generateRS: the Deployment's template, 0 replicas, owned by it. */
export function generateRS(d: Deployment): ReplicaSet {
  const template = structuredClone(d.spec?.template) as PodTemplateSpec;
  const uid = ++seq;
  return {
    metadata: {
      uid: `uid-${uid}`,
      name: `replicaset${uid}`,
      labels: { ...(template.metadata?.labels ?? {}) },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: d.metadata?.name ?? '',
          uid: d.metadata?.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: { replicas: 0, template, selector: { matchLabels: { ...(template.metadata?.labels ?? {}) } } },
  };
}

/** One write of the fake, as client-go's fake clientset records an action. */
export interface Action {
  verb: 'create' | 'update' | 'update-status' | 'delete' | 'patch' | 'get';
  resource: 'replicasets' | 'deployments';
  namespace: string;
  name: string;
  object?: ReplicaSet | Deployment;
  data?: string;
}

export interface FakeContext extends SyncContext {
  clock: VirtualClock;
  actions: Action[];
  /** FakeRecorder's lines: `Normal ScalingReplicaSet Scaled up …`. */
  events: string[];
  requeues: Array<{ key: string; ms: number | 'rate-limited' }>;
  /** The ReplicaSet cache the AlreadyExists path reads. */
  cache: Map<string, RO<ReplicaSet>>;
  /** Makes a write fail: the error to throw, or undefined to let it through. */
  fail?: (action: Action) => unknown;
  /** What a create answers (default: the object, with a uid). */
  onCreate?: (rs: ReplicaSet) => ReplicaSet;
}

/** A SyncContext on a virtual clock (default 2016-05-20T02:00:00Z) recording every write. */
export function fakeContext(now = Date.parse('2016-05-20T02:00:00Z')): FakeContext {
  const actions: Action[] = [];
  const events: string[] = [];
  const requeues: FakeContext['requeues'] = [];
  const cache = new Map<string, RO<ReplicaSet>>();
  const key = (d: RO<Deployment>) => `${d.metadata?.namespace ?? ''}/${d.metadata?.name ?? ''}`;
  const name = (o: ReplicaSet | Deployment) => o.metadata?.name ?? '';
  const ns = (o: ReplicaSet | Deployment) => o.metadata?.namespace ?? '';
  const act = async <T extends ReplicaSet | Deployment>(a: Action, answer: T): Promise<T> => {
    actions.push(a);
    const err = ctx.fail?.(a);
    if (err !== undefined) throw err;
    return structuredClone(answer);
  };
  const api: DeploymentApi = {
    createReplicaSet: (namespace, r) => {
      const created = ctx.onCreate?.(r) ?? { ...r, metadata: { ...r.metadata, uid: r.metadata?.uid ?? nextUID() } };
      return act(
        { verb: 'create', resource: 'replicasets', namespace, name: name(r), object: structuredClone(r) },
        created,
      );
    },
    updateReplicaSet: (r) =>
      act({ verb: 'update', resource: 'replicasets', namespace: ns(r), name: name(r), object: structuredClone(r) }, r),
    async deleteReplicaSet(namespace, n) {
      await act({ verb: 'delete', resource: 'replicasets', namespace, name: n }, {});
    },
    async patchReplicaSet(namespace, n, data) {
      await act({ verb: 'patch', resource: 'replicasets', namespace, name: n, data }, {});
    },
    getDeployment: (namespace, n) =>
      act<Deployment>(
        { verb: 'get', resource: 'deployments', namespace, name: n },
        { metadata: { namespace, name: n } },
      ),
    updateDeployment: (d) =>
      act({ verb: 'update', resource: 'deployments', namespace: ns(d), name: name(d), object: structuredClone(d) }, d),
    updateDeploymentStatus: (d) =>
      act(
        { verb: 'update-status', resource: 'deployments', namespace: ns(d), name: name(d), object: structuredClone(d) },
        d,
      ),
  };
  const ctx: FakeContext = {
    api,
    clock: new VirtualClock(now),
    actions,
    events,
    requeues,
    cache,
    logger: discardLogger,
    getReplicaSet: (namespace, n) => cache.get(`${namespace}/${n}`),
    recorder: {
      record(_obj, type, reason, message) {
        events.push(`${type} ${reason} ${message}`);
      },
    },
    enqueueAfter: (d, ms) => requeues.push({ key: key(d), ms }),
    enqueueRateLimited: (d) => requeues.push({ key: key(d), ms: 'rate-limited' }),
  };
  return ctx;
}

/** The ReplicaSets the fake was asked to update, in order. */
export function updatedReplicaSets(ctx: FakeContext): ReplicaSet[] {
  return ctx.actions
    .filter((a) => a.verb === 'update' && a.resource === 'replicasets')
    .map((a) => a.object as ReplicaSet);
}
