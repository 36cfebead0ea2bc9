/**
 * The root-ca-cert-publisher controller (pkg/controller/certificates/rootcacertpublisher/
 * publisher.go, v1.32): every namespace has a `kube-root-ca.crt` ConfigMap whose `ca.crt` is the
 * cluster's root CA, for pods to verify the apiserver with (the ServiceAccount admission plugin
 * projects it into every pod). Made when a namespace appears or becomes Active, and put back when
 * the ConfigMap is changed or deleted.
 *
 *   const publisher = new RootCAPublisher({ client, rootCA: caPem });
 *   await publisher.start();  …  await publisher.stop();
 */
import type { KubeObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import { isApiError, isNamespaceTerminating } from '../client/errors.js';
import { objectKey } from '../client/informers/keys.js';
import { SharedIndexInformer as Informer } from '../client/informers/shared-informer.js';
import { RESOURCES } from '../client/resources.js';
import { WorkQueue } from '../client/workqueue.js';
import { type Clock, realClock } from '../sim/clock.js';
import { PerNamespaceRun } from './per-namespace.js';

// publisher.go RootCACertConfigMapName, DescriptionAnnotation and Description.
export const ROOT_CA_CERT_CONFIGMAP_NAME = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
// kube-controller-manager startRootCACertPublisher: Run(ctx, 1).
export const DEFAULT_WORKERS = 1;

interface Namespace extends KubeObject {
  status?: { phase?: string };
}

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export interface RootCAPublisherOptions {
  client: Client;
  /** The cluster's root CA certificate (PEM): kube-controller-manager's --root-ca-file. */
  rootCA: string;
  clock?: Clock;
  workers?: number;
  onError?: (err: unknown, namespace: string) => void;
}

export class RootCAPublisher {
  private readonly client: Client;
  private readonly rootCA: string;
  private readonly namespaces: Informer<Namespace>;
  private readonly configMaps: Informer<ConfigMap>;
  private readonly queue: WorkQueue<string>;
  private readonly onError: (err: unknown, namespace: string) => void;
  private readonly run: PerNamespaceRun;

  constructor(options: RootCAPublisherOptions) {
    const clock = options.clock ?? realClock;
    this.client = options.client;
    this.rootCA = options.rootCA;
    this.onError = options.onError ?? ((err, ns) => console.error(`root-ca-cert-publisher: ${ns}:`, err));
    this.queue = new WorkQueue<string>({ clock });
    this.namespaces = new Informer<Namespace>(this.client, RESOURCES.namespaces, { clock });
    this.configMaps = new Informer<ConfigMap>(this.client, RESOURCES.configmaps, {
      clock,
      fieldSelector: `metadata.name=${ROOT_CA_CERT_CONFIGMAP_NAME}`,
    });
    this.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(objectKey(ns)),
      // namespaceUpdated: only an Active namespace is looked at again.
      onUpdate: (_, ns) => {
        if ((ns.status?.phase ?? 'Active') === 'Active') this.queue.add(objectKey(ns));
      },
    });
    const configMapChanged = (cm: ConfigMap) => {
      if (cm.metadata?.name === ROOT_CA_CERT_CONFIGMAP_NAME) this.queue.add(cm.metadata?.namespace ?? '');
    };
    this.configMaps.addEventHandler({ onUpdate: (_, cm) => configMapChanged(cm), onDelete: configMapChanged });
    this.run = new PerNamespaceRun({
      namespaces: this.namespaces,
      informers: [this.namespaces, this.configMaps],
      queue: this.queue,
      sync: (namespace) => this.sync(namespace),
      onError: (err, namespace) => this.onError(err, namespace),
      workers: options.workers ?? DEFAULT_WORKERS,
    });
  }

  /** Starts the informers and the workers; resolves once the existing namespaces are done once. */
  start(): Promise<void> {
    return this.run.start();
  }

  stop(): Promise<void> {
    return this.run.stop();
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
    const next = structuredClone(cm);
    next.data = data;
    next.metadata = {
      ...(next.metadata ?? {}),
      annotations: { ...(next.metadata?.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION },
    };
    await this.client.update(RESOURCES.configmaps, namespace, next);
  }
}
