/**
 * The root-ca-cert-publisher controller (pkg/controller/certificates/rootcacertpublisher/
 * publisher.go, v1.32): every namespace has a `kube-root-ca.crt` ConfigMap whose `ca.crt` is the
 * cluster's root CA, for pods to verify the apiserver with (the ServiceAccount admission plugin
 * projects it into every pod). Made when a namespace appears or becomes Active, and put back when
 * the ConfigMap is changed or deleted.
 *
 *   const publisher = new RootCAPublisher({ factory, client, rootCA: caPem });
 *   factory.start();
 *   await publisher.run();  …  await publisher.stop();
 *
 * It reads the shared ConfigMap informer (as publisher.go does), its handlers looking only at the
 * ConfigMaps of that name (updates and deletes; publisher.go has no add handler); run() resolves
 * once every namespace that exists has been synced once (framework/namespace-workers.ts). A create
 * that finds the ConfigMap there already (409: the cache had not seen it) fails the sync, so the
 * namespace comes back rate-limited and a wrong one is put right from the cache.
 */

import { hasStatusCause, isNotFound, NAMESPACE_TERMINATING_CAUSE } from '../../api/status.js';
import type { ConfigMap } from '../../api/types/core/v1.js';
import { type DeepReadonly, deepCopy } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER } from '../framework/names.js';
import { NamespaceWorkers } from '../framework/namespace-workers.js';

// publisher.go RootCACertConfigMapName, DescriptionAnnotation and Description.
export const ROOT_CA_CERT_CONFIGMAP_NAME = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
// kube-controller-manager startRootCACertPublisher: Run(ctx, 1).
export const DEFAULT_WORKERS = 1;

export interface RootCAPublisherOptions {
  /** The shared informers: namespaces and configmaps. */
  factory: SharedInformerFactory;
  /** The controller's own client: the creates and updates. */
  client: Client;
  /** The cluster's root CA certificate (PEM): kube-controller-manager's --root-ca-file. */
  rootCA: string;
  clock?: Clock;
  onError?: (err: unknown, namespace: string) => void;
}

export class RootCAPublisher implements Controller {
  readonly name = ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER;
  private readonly client: Client;
  private readonly rootCA: string;
  private readonly configMaps: Lister<ConfigMap>;
  private readonly loop: NamespaceWorkers;

  constructor(options: RootCAPublisherOptions) {
    this.client = options.client;
    this.rootCA = options.rootCA;
    this.loop = new NamespaceWorkers({
      factory: options.factory,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      sync: (namespace) => this.sync(namespace),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
      // namespaceUpdated: only an Active namespace is looked at again.
      syncUpdated: (ns) => (ns.status?.phase ?? 'Active') === 'Active',
    });
    const configMaps = options.factory.informerFor(RESOURCES.configmaps);
    this.configMaps = configMaps.lister();
    // configMapUpdated, configMapDeleted: only the root CA ConfigMap matters.
    const configMapChanged = (cm: DeepReadonly<ConfigMap>) => {
      if (cm.metadata?.name === ROOT_CA_CERT_CONFIGMAP_NAME) this.loop.enqueue(cm.metadata?.namespace ?? '');
    };
    this.loop.watch(configMaps, { onUpdate: (_, cm) => configMapChanged(cm), onDelete: configMapChanged });
  }

  /** Waits for the informers, syncs every namespace once, then runs the workers. */
  run(workers = DEFAULT_WORKERS): Promise<void> {
    return this.loop.run(workers);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** syncNamespace: the ConfigMap is created, or its ca.crt and description put back. */
  async sync(namespace: string): Promise<void> {
    const data = { 'ca.crt': this.rootCA };
    const cm = this.configMaps.get(namespace, ROOT_CA_CERT_CONFIGMAP_NAME);
    if (cm === undefined) {
      try {
        await this.client.create(RESOURCES.configmaps, namespace, {
          metadata: { name: ROOT_CA_CERT_CONFIGMAP_NAME, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data,
        });
      } catch (err) {
        // Not retried when the namespace is gone or going. A 409 (there after all) is retried:
        // by then the cache has the ConfigMap, and a wrong one is put right.
        if (isNotFound(err) || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
        throw err;
      }
      return;
    }
    const same =
      Object.keys(cm.data ?? {}).length === 1 &&
      cm.data?.['ca.crt'] === this.rootCA &&
      (cm.metadata?.annotations?.[DESCRIPTION_ANNOTATION] ?? '') !== '';
    if (same) return;
    // A copy: the cached object is every reader's.
    const next = deepCopy(cm);
    next.data = data;
    next.metadata = {
      ...(next.metadata ?? {}),
      annotations: { ...(next.metadata?.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION },
    };
    await this.client.update(RESOURCES.configmaps, namespace, next);
  }
}
