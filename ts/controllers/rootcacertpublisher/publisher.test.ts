import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { isApiError } from '../../client/errors.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/test-support.js';
import { DESCRIPTION, RootCAPublisher, type RootCAPublisherOptions } from './publisher.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

let publisher: RootCAPublisher | undefined;
let factory: SharedInformerFactory | undefined;
afterEach(async () => {
  await publisher?.stop();
  await factory?.shutdown();
  publisher = undefined;
  factory = undefined;
});

/** The controller on a shared informer factory of `h`'s client, running. */
async function start(
  h: Harness,
  options: Omit<RootCAPublisherOptions, 'factory' | 'client'>,
): Promise<RootCAPublisher> {
  factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
  const c = new RootCAPublisher({ factory, client: h.client, ...options });
  publisher = c;
  factory.start();
  await c.run();
  return c;
}

describe('RootCAPublisher', () => {
  it('puts kube-root-ca.crt with the CA and its description in every namespace', async () => {
    const h = await harness('in-process');
    await start(h, { rootCA: CA, clock: h.server.clock });
    const cm = await h.client.get<ConfigMap>(RESOURCES.configmaps, 'team-a', 'kube-root-ca.crt');
    expect(cm.data).toEqual({ 'ca.crt': CA });
    expect(cm.metadata?.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
    await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'fresh' } });
    await waitFor(async () => {
      try {
        return (
          (await h.client.get<ConfigMap>(RESOURCES.configmaps, 'fresh', 'kube-root-ca.crt')).data?.['ca.crt'] === CA
        );
      } catch (err) {
        if (isApiError(err) && err.code === 404) return false;
        throw err;
      }
    });
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
    await waitFor(async () => {
      try {
        return (await read()).metadata?.uid !== uid;
      } catch (err) {
        if (isApiError(err) && err.code === 404) return false;
        throw err;
      }
    });
  });
});
