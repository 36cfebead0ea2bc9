/**
 * Tests only: the fixtures of k8s.io/endpointslice's tests (utils_test.go newPod,
 * newServiceAndEndpointMeta, newEmptyEndpointSlice; v0.32) and a client that records the
 * EndpointSlice writes it passes to the apiserver (the fake clientset's Actions()).
 *
 *   const { client, actions } = recordingClient(h.client);
 *   const svc = newService('foo', 'test');  const pods = [newPod(0, 'test', true)];
 */
import type { Node, Pod, Service } from '../../api/types/core/v1.js';
import type { EndpointSlice } from '../../api/types/discovery/v1.js';
import type { Client } from '../../client/client.js';
import { Lister } from '../../client/informers/listers.js';
import { ThreadSafeStore } from '../../client/informers/thread-safe-store.js';
import type { EndpointMeta } from './utils.js';

/**
 * newPod: `pod<n>` labelled foo=bar on node-1 at 1.2.3.<4+n>, Ready or not, terminating or not.
 * Past 1.2.3.255 (which Go's fake clientset stores, but validation refuses) the address carries
 * into the third octet: 1.2.4.0, ….
 */
export function newPod(n: number, namespace: string, ready: boolean, terminating = false): Pod {
  const ip = `1.2.${3 + Math.floor((4 + n) / 256)}.${(4 + n) % 256}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace,
      name: `pod${n}`,
      labels: { foo: 'bar' },
      resourceVersion: String(n),
      ...(terminating ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'container-1' }], nodeName: 'node-1' },
    status: {
      podIP: ip,
      podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

/** newServiceAndEndpointMeta: Service `name` (UID `<ns>-<name>`), port `name` → 80/TCP, selector foo=bar, IPv4. */
export function newService(name: string, namespace: string): { svc: Service; meta: EndpointMeta } {
  return {
    svc: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace, uid: `${namespace}-${name}` },
      spec: {
        ports: [{ targetPort: 80, protocol: 'TCP', name, port: 80 }],
        selector: { foo: 'bar' },
        ipFamilies: ['IPv4'],
      },
    },
    meta: { addressType: 'IPv4', ports: [{ name, port: 80, protocol: 'TCP' }] },
  };
}

/** newEmptyEndpointSlice: `<service>-<n>`, controlled by the Service, no endpoints. */
export function newEmptyEndpointSlice(n: number, namespace: string, meta: EndpointMeta, svc: Service): EndpointSlice {
  return {
    metadata: {
      name: `${svc.metadata?.name ?? ''}-${n}`,
      namespace,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: svc.metadata?.name ?? '',
          uid: svc.metadata?.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    ports: structuredClone(meta.ports),
    addressType: meta.addressType,
    endpoints: [],
  };
}

/** A node lister holding `nodes` (the reconciler tests' node informer indexer). */
export function nodeLister(nodes: Node[]): Lister<Node> {
  const store = new ThreadSafeStore<Node>();
  for (const node of nodes) store.add(node.metadata?.name ?? '', node);
  return new Lister(store);
}

/** `client`, with every create, update and delete of EndpointSlices recorded as `verb`. */
export function recordingClient(client: Client): { client: Client; actions: string[] } {
  const actions: string[] = [];
  const wrapped = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === 'create' || prop === 'update' || prop === 'delete') && typeof value === 'function') {
        return (...args: unknown[]) => {
          const gvr = args[0] as { resource?: string };
          if (gvr.resource === 'endpointslices' || gvr.resource === 'endpoints')
            actions.push(`${prop} ${gvr.resource}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  });
  return { client: wrapped, actions };
}
