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
 * ConfigMaps of that name; run() resolves once every namespace that exists has been synced once.
 */
import type { ConfigMap, Namespace } from '../../api/types/core/v1.js';
import type { Client } from '../../client/client.js';
import { isApiError, isNamespaceTerminating } from '../../client/errors.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import { objectKey } from '../../client/informers/keys.js';
import type { Lister } from '../../client/informers/listers.js';
import { RESOURCES } from '../../client/resources.js';
import { WorkQueue } from '../../client/workqueue.js';
import { type Clock, realClock } from '../../sim/clock.js';
import type { Controller } from '../framework/controller.js';
import { ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER } from '../framework/names.js';
import { Registrations, Workers } from '../framework/workers.js';

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
  private readonly workers: Workers<string>;

  constructor(options: RootCAPublisherOptions) {
    this.client = options.client;
    this.rootCA = options.rootCA;
    const queue = new WorkQueue<string>({ clock: options.clock ?? realClock });
    const handlers = new Registrations();
    const namespaces = options.factory.informerFor<Namespace>(RESOURCES.namespaces);
    const configMaps = options.factory.informerFor<ConfigMap>(RESOURCES.configmaps);
    this.configMaps = configMaps.lister();
    handlers.add(namespaces, {
      onAdd: (ns) => queue.add(objectKey(ns)),
      // namespaceUpdated: only an Active namespace is looked at again.
      onUpdate: (_, ns) => {
        if ((ns.status?.phase ?? 'Active') === 'Active') queue.add(objectKey(ns));
      },
    });
    // configMapUpdated, configMapDeleted: only the root CA ConfigMap matters.
    const configMapChanged = (cm: ConfigMap) => {
      if (cm.metadata?.name === ROOT_CA_CERT_CONFIGMAP_NAME) queue.add(cm.metadata?.namespace ?? '');
    };
    handlers.add(configMaps, { onUpdate: (_, cm) => configMapChanged(cm), onDelete: configMapChanged });
    this.workers = new Workers({
      queue,
      handlers,
      sync: (namespace) => this.sync(namespace),
      onError: options.onError ?? (() => {}),
      firstPass: () => namespaces.getIndexer().listKeys(),
    });
  }

  /** Waits for the informers, syncs every namespace once, then runs the workers. */
  run(workers = DEFAULT_WORKERS): Promise<void> {
    return this.workers.run(workers);
  }

  stop(): Promise<void> {
    return this.workers.stop();
  }

  /** syncNamespace: the ConfigMap is created, or its ca.crt and description put back. */
  async sync(namespace: string): Promise<void> {
    const data = { 'ca.crt': this.rootCA };
    const cm = this.configMaps.get(namespace, ROOT_CA_CERT_CONFIGMAP_NAME);
    if (cm === undefined) {
      try {
        await this.client.create<ConfigMap>(RESOURCES.configmaps, namespace, {
          metadata: { name: ROOT_CA_CERT_CONFIGMAP_NAME, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data,
        });
      } catch (err) {
        // Not retried when the namespace is gone or going (or the ConfigMap is there after all).
        if (isApiError(err) && (err.code === 404 || err.code === 409)) return;
        if (isNamespaceTerminating(err)) return;
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
    const next = structuredClone(cm) as ConfigMap;
    next.data = data;
    next.metadata = {
      ...(next.metadata ?? {}),
      annotations: { ...(next.metadata?.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION },
    };
    await this.client.update(RESOURCES.configmaps, namespace, next);
  }
}
