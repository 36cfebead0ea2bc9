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
import { isApiError } from '../client/errors.js';
import { Informer, objectKey } from '../client/informer.js';
import { RESOURCES } from '../client/resources.js';
import { WorkQueue } from '../client/workqueue.js';
import { type Clock, realClock } from '../sim/clock.js';

// publisher.go RootCACertConfigMapName, DescriptionAnnotation and Description.
export const ROOT_CA_CERT_CONFIGMAP_NAME = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
// kube-controller-manager startRootCACertPublisher: Run(ctx, 1).
export const DEFAULT_WORKERS = 1;
// v1.NamespaceTerminatingCause.
const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

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
  private readonly workers: number;
  private readonly onError: (err: unknown, namespace: string) => void;
  private running: Promise<void>[] = [];

  constructor(options: RootCAPublisherOptions) {
    const clock = options.clock ?? realClock;
    this.client = options.client;
    this.rootCA = options.rootCA;
    this.workers = options.workers ?? DEFAULT_WORKERS;
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
  }

  /** Starts the informers and the workers; resolves once the existing namespaces are done once. */
  async start(): Promise<void> {
    this.namespaces.start();
    this.configMaps.start();
    await Promise.all([this.namespaces.synced(), this.configMaps.synced()]);
    for (const key of this.namespaces.keys()) {
      try {
        await this.sync(key);
      } catch (err) {
        this.onError(err, key);
      }
    }
    for (let i = 0; i < this.workers; i++) this.running.push(this.worker());
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([this.namespaces.stop(), this.configMaps.stop()]);
    await Promise.all(this.running);
    this.running = [];
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        await this.sync(key);
        this.queue.forget(key);
      } catch (err) {
        this.onError(err, key);
        this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
      }
    }
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
        const causes = isApiError(err) ? (err.status.details?.causes ?? []) : [];
        if (causes.some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE)) return;
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
