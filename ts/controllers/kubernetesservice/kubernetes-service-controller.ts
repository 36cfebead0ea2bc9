/**
 * The `kubernetes` Service in `default` and its endpoints, as kube-apiserver's kubernetesservice
 * controller keeps them (pkg/controlplane/controller/kubernetesservice/controller.go and
 * pkg/controlplane/reconcilers, v1.32): ClusterIP = the range's first address, port 443 (`https`)
 * → the apiserver's port; Endpoints and an EndpointSlice naming the apiserver's address. Reconciled
 * at start and then every EndpointInterval.
 *
 * The endpoints go through validation like any client's, so the address must not be a loopback one
 * (ValidateNonSpecialIP): `kubewasm up` advertises the host's address as kube-apiserver does for a
 * loopback --bind-address (ts/cli/advertise-address.ts). Without an address only the Service is
 * kept. A failed endpoints write is reported once through onError and does not stop the Service.
 *
 *   const c = new KubernetesServiceController({ client, clusterIP, publicIP, port, clock, onError });
 *   await c.run();  …  await c.stop();
 */
import { isAlreadyExists, isNotFound } from '../../api/status.js';
import type { Endpoints, Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import type { Client } from '../../client/client.js';
import { type GroupVersionResource, type ObjectOfResource, RESOURCES } from '../../client/resources.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';

// kubernetesservice/controller.go
export const KUBERNETES_SERVICE_NAME = 'kubernetes';
// kube-apiserver runs it (no --controllers name); the name its logs carry here.
export const KUBERNETES_SERVICE_CONTROLLER = 'kubernetes-service-controller';
export const KUBERNETES_SERVICE_PORT = 443;
// pkg/controlplane/apiserver/options DefaultEndpointReconcilerInterval.
export const ENDPOINT_INTERVAL_MS = 10_000;

export interface KubernetesServiceOptions {
  client: Client;
  /** The Service's ClusterIP: the first address of --service-cluster-ip-range. */
  clusterIP: string;
  /** The address the apiserver advertises (none: no Endpoints or EndpointSlice) and the port it serves on. */
  publicIP?: string;
  port: number;
  clock?: Clock;
  onError?: (err: unknown) => void;
}

/** The desired objects (exported for tests). */
export function kubernetesServiceObjects(
  o: Pick<KubernetesServiceOptions, 'clusterIP' | 'port'> & { publicIP: string },
): {
  service: Service;
  endpoints: Endpoints;
  slice: EndpointSlice;
} {
  const meta = (labels: Record<string, string>) => ({ name: KUBERNETES_SERVICE_NAME, namespace: 'default', labels });
  return {
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta({ component: 'apiserver', provider: 'kubernetes' }),
      spec: {
        type: 'ClusterIP',
        clusterIP: o.clusterIP,
        sessionAffinity: 'None',
        ports: [{ name: 'https', protocol: 'TCP', port: KUBERNETES_SERVICE_PORT, targetPort: o.port }],
      },
    },
    endpoints: {
      apiVersion: 'v1',
      kind: 'Endpoints',
      // endpointsadapter: the Endpoints are not mirrored into a second slice.
      metadata: meta({ 'endpointslice.kubernetes.io/skip-mirror': 'true' }),
      subsets: [{ addresses: [{ ip: o.publicIP }], ports: [{ name: 'https', port: o.port, protocol: 'TCP' }] }],
    },
    slice: {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: meta({ 'kubernetes.io/service-name': KUBERNETES_SERVICE_NAME }),
      addressType: 'IPv4',
      endpoints: [{ addresses: [o.publicIP], conditions: { ready: true } }],
      ports: [{ name: 'https', port: o.port, protocol: 'TCP' }],
    },
  };
}

export class KubernetesServiceController implements Controller {
  readonly name = KUBERNETES_SERVICE_CONTROLLER;
  private cancel: (() => void) | undefined;
  private stopped = false;
  private lastEndpointsError = '';
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly options: KubernetesServiceOptions) {}

  /** Reconciles once (errors thrown), then keeps reconciling in the background. */
  async run(): Promise<void> {
    await this.reconcile();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    await this.inFlight;
  }

  private schedule(): void {
    if (this.stopped) return;
    const clock = this.options.clock ?? realClock;
    this.cancel = clock.setTimer(() => {
      this.inFlight = this.reconcile()
        .catch((err: unknown) => this.options.onError?.(err))
        .finally(() => this.schedule());
    }, ENDPOINT_INTERVAL_MS);
  }

  /** CreateOrUpdateMasterServiceIfNeeded + the endpoint reconciler's ReconcileEndpoints. */
  async reconcile(): Promise<void> {
    const { client } = this.options;
    const { publicIP } = this.options;
    const want = kubernetesServiceObjects({ ...this.options, publicIP: publicIP ?? '' });
    const ports = want.service.spec?.ports;
    await ensure(client, RESOURCES.services, want.service, (cur) => {
      const spec = cur.spec ?? {};
      // The ClusterIP is immutable; only the ports and type are put back.
      return JSON.stringify(spec.ports) === JSON.stringify(ports) && spec.type === 'ClusterIP'
        ? undefined
        : { ...cur, spec: { ...spec, type: 'ClusterIP' as const, ...(ports === undefined ? {} : { ports }) } };
    });
    if (publicIP === undefined) return;
    try {
      await ensure(client, RESOURCES.endpoints, want.endpoints, (cur) =>
        JSON.stringify(cur.subsets) === JSON.stringify(want.endpoints.subsets)
          ? undefined
          : { ...cur, ...(want.endpoints.subsets === undefined ? {} : { subsets: want.endpoints.subsets }) },
      );
      const { endpoints, ports: slicePorts } = want.slice;
      await ensure(client, RESOURCES.endpointslices, want.slice, (cur) =>
        JSON.stringify([cur.endpoints, cur.ports]) === JSON.stringify([endpoints, slicePorts])
          ? undefined
          : {
              ...cur,
              addressType: 'IPv4' as const,
              endpoints,
              ...(slicePorts === undefined ? {} : { ports: slicePorts }),
            },
      );
      this.lastEndpointsError = '';
    } catch (err) {
      // Reported once per distinct failure, not every interval.
      const text = String(err);
      if (text !== this.lastEndpointsError) this.options.onError?.(err);
      this.lastEndpointsError = text;
    }
  }
}

/** Creates `want` when missing; otherwise PUTs `fix(current)` when it returns a change. */
async function ensure<R extends GroupVersionResource>(
  client: Client,
  gvr: R,
  want: ObjectOfResource<R>,
  fix: (current: ObjectOfResource<R>) => ObjectOfResource<R> | undefined,
): Promise<void> {
  const name = want.metadata?.name ?? '';
  let current: ObjectOfResource<R>;
  try {
    current = await client.get(gvr, 'default', name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await client.create(gvr, 'default', want);
    } catch (createErr) {
      if (!isAlreadyExists(createErr)) throw createErr;
    }
    return;
  }
  const next = fix(current);
  if (next !== undefined) await client.update(gvr, 'default', next);
}
