import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { DESCRIPTION, RootCAPublisher, type RootCAPublisherOptions } from './publisher.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

const runs = controllerRuns();

/** The controller on a shared informer factory of `h`'s client, running. */
function start(h: Harness, options: Omit<RootCAPublisherOptions, 'factory' | 'client'>): Promise<RootCAPublisher> {
  return runs.start(h, (factory) => new RootCAPublisher({ factory, client: h.client, ...options }));
}

describe('RootCAPublisher', () => {
  it('puts kube-root-ca.crt with the CA and its description in every namespace', async () => {
    const h = await harness('in-process');
    await start(h, { rootCA: CA, clock: h.server.clock });
    const cm = await h.client.get<ConfigMap>(RESOURCES.configmaps, 'team-a', 'kube-root-ca.crt');
    expect(cm.data).toEqual({ 'ca.crt': CA });
    expect(cm.metadata?.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
    await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'fresh' } });
    await waitFor(
      async () =>
        !(await notFound(() => h.client.get(RESOURCES.configmaps, 'fresh', 'kube-root-ca.crt'))) &&
        (await h.client.get<ConfigMap>(RESOURCES.configmaps, 'fresh', 'kube-root-ca.crt')).data?.['ca.crt'] === CA,
    );
  });

  it('puts the CA back when the ConfigMap is changed or deleted', async () => {
    const h = await harness('in-process');
    await start(h, { rootCA: CA, clock: h.server.clock });
    const cm = await h.client.get<ConfigMap>(RESOURCES.configmaps, 'default', 'kube-root-ca.crt');
    await h.client.update(RESOURCES.configmaps, 'default', { ...cm, data: { 'ca.crt': 'bogus', extra: 'x' } });
    const read = () => h.client.get<ConfigMap>(RESOURCES.configmaps, 'default', 'kube-root-ca.crt');
    await waitFor(async () => JSON.stringify((await read()).data) === JSON.stringify({ 'ca.crt': CA }));
    const uid = (await read()).metadata?.uid;
    await h.client.delete(RESOURCES.configmaps, 'default', 'kube-root-ca.crt');
    await waitFor(async () => !(await notFound(read)) && (await read()).metadata?.uid !== uid);
  });

  it('fails a create that finds the ConfigMap there already (409), so the namespace comes back', async () => {
    const h = await harness('in-process');
    // Not started: the publisher's ConfigMap cache is empty, as one that has not seen the ConfigMap yet.
    const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
    const publisher = new RootCAPublisher({ factory, client: h.client, rootCA: CA, clock: h.server.clock });
    await h.client.create(RESOURCES.configmaps, 'team-a', {
      metadata: { name: 'kube-root-ca.crt' },
      data: { 'ca.crt': 'bogus' },
    });
    // publisher.go returns the create's error: the key is requeued rate-limited, and the next sync
    // (the cache has it by then) puts the right CA back.
    await expect(publisher.sync('team-a')).rejects.toMatchObject({ code: 409 });
    // A namespace gone or going is not retried.
    await expect(publisher.sync('no-such-namespace')).resolves.toBeUndefined();
    await factory.shutdown();
  });

  it('repairs a wrong kube-root-ca.crt that was there before it started', async () => {
    const h = await harness('in-process');
    await h.client.create(RESOURCES.configmaps, 'team-a', {
      metadata: { name: 'kube-root-ca.crt' },
      data: { 'ca.crt': 'bogus' },
    });
    await start(h, { rootCA: CA, clock: h.server.clock });
    const cm = await h.client.get<ConfigMap>(RESOURCES.configmaps, 'team-a', 'kube-root-ca.crt');
    expect(cm.data).toEqual({ 'ca.crt': CA });
    expect(cm.metadata?.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
  });
});
