import { describe, expect, it } from 'vitest';
import { parseTokenFile } from '../authn/tokens.js';
import { createApiServer } from '../server.js';
import { TOKEN, testServer } from '../testing/test-server.js';

type Obj = Record<string, unknown>;
interface Svc {
  spec: {
    clusterIP?: string;
    clusterIPs?: string[];
    type?: string;
    ports?: Obj[];
    ipFamilies?: string[];
    ipFamilyPolicy?: string;
  };
}

const svc = (name: string, spec: Obj = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

const SVCS = '/api/v1/namespaces/default/services';

/** The offset of an address in 10.96.0.0/12 (1 for 10.96.0.1). */
const offsetIn12 = (ip: string): number => {
  const n = ip.split('.').map(Number) as [number, number, number, number];
  return (n[1] - 96) * 65536 + n[2] * 256 + n[3];
};

describe('Service ClusterIP allocation', () => {
  it('gives a ClusterIP service a random address above the static band, IPv4 single-stack', async () => {
    const { json } = await testServer();
    const res = await json('POST', SVCS, svc('a'));
    expect(res.status).toBe(201);
    const spec = (res.body as unknown as Svc).spec;
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(offsetIn12(spec.clusterIP ?? '')).toBeGreaterThan(256);
    expect(spec).toMatchObject({
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
  });

  it('honours a requested address once and refuses it taken or out of range with the Kubernetes messages', async () => {
    const { json } = await testServer();
    expect((await json('POST', SVCS, svc('dns', { clusterIP: '10.96.0.10' }))).status).toBe(201);
    const taken = await json('POST', SVCS, svc('dns2', { clusterIP: '10.96.0.10' }));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toBe(
      'Service "dns2" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    );
    const outside = await json('POST', SVCS, svc('far', { clusterIP: '1.1.1.1' }));
    expect(outside.status).toBe(422);
    expect(outside.body.message).toBe(
      'Service "far" is invalid: spec.clusterIPs: Invalid value: []string{"1.1.1.1"}: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    expect(outside.body.details).toMatchObject({
      kind: 'Service',
      causes: [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs' }],
    });
  });

  it('leaves headless and ExternalName services without an address', async () => {
    const { json } = await testServer();
    const headless = (await json('POST', SVCS, svc('h', { clusterIP: 'None', selector: { app: 'x' } })))
      .body as unknown as Svc;
    expect(headless.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack' });
    const ext = (await json('POST', SVCS, { ...svc('e'), spec: { type: 'ExternalName', externalName: 'example.com' } }))
      .body as unknown as Svc;
    expect(ext.spec.clusterIP).toBeUndefined();
    expect(ext.spec.clusterIPs).toBeUndefined();
  });

  it('releases the address on delete, and a dry run or failed create holds none', async () => {
    const { json } = await testServer();
    await json('POST', SVCS, svc('a', { clusterIP: '10.96.0.20' }));
    const dry = await json('POST', `${SVCS}?dryRun=All`, svc('dry', { clusterIP: '10.96.0.21' }));
    expect(dry.status).toBe(201);
    const dryNext = (await json('POST', `${SVCS}?dryRun=All`, svc('dry2'))).body as unknown as Svc;
    expect(dryNext.spec.clusterIP).toBe('10.96.0.0');
    // AlreadyExists after the allocation: the address goes back.
    expect((await json('POST', SVCS, svc('a', { clusterIP: '10.96.0.22' }))).status).toBe(409);
    expect((await json('POST', SVCS, svc('b', { clusterIP: '10.96.0.21' }))).status).toBe(201);
    expect((await json('POST', SVCS, svc('c', { clusterIP: '10.96.0.22' }))).status).toBe(201);
    expect((await json('DELETE', `${SVCS}/a`)).status).toBe(200);
    expect((await json('POST', SVCS, svc('d', { clusterIP: '10.96.0.20' }))).status).toBe(201);
  });

  it('rebuilds its state from the stored services (a restart allocates no address twice)', async () => {
    const { json, storage, clock } = await testServer();
    await json('POST', SVCS, svc('a', { clusterIP: '10.96.0.30' }));
    await json('POST', SVCS, svc('np', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    const again = createApiServer({ storage, clock, tokens: parseTokenFile(`${TOKEN},admin,1,"system:masters"\n`) });
    const post = async (body: unknown) => {
      const res = await again.handle(
        new Request(`https://kubewasm.test${SVCS}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, body: (await res.json()) as Obj };
    };
    const dup = await post(svc('b', { clusterIP: '10.96.0.30' }));
    expect(dup.status).toBe(422);
    expect(String(dup.body.message)).toContain('provided IP is already allocated');
    const port = await post(svc('np2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(port.status).toBe(422);
    expect(port.body.message).toBe(
      'Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    );
  });

  it('keeps the primary ClusterIP on update and patches it back when a manifest leaves it out', async () => {
    const { json } = await testServer();
    const created = (await json('POST', SVCS, svc('a'))).body as unknown as Svc & { metadata: Obj };
    const ip = created.spec.clusterIP;
    const put = await json('PUT', `${SVCS}/a`, svc('a', { selector: { app: 'x' } }));
    expect(put.status).toBe(200);
    expect((put.body as unknown as Svc).spec.clusterIP).toBe(ip);
    const change = await json('PUT', `${SVCS}/a`, svc('a', { clusterIP: '10.96.0.40', clusterIPs: ['10.96.0.40'] }));
    expect(change.status).toBe(422);
    expect(change.body.message).toBe(
      'Service "a" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.40"}: may not change once set',
    );
  });
});

describe('Service NodePort allocation', () => {
  it('gives each NodePort port a node port, explicit or allocated, one per service port number', async () => {
    const { json } = await testServer();
    const res = await json(
      'POST',
      SVCS,
      svc('np', {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80, nodePort: 30080 },
          { name: 'b', port: 443 },
          { name: 'c', port: 80, protocol: 'UDP' },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const ports = (res.body as unknown as Svc).spec.ports as { nodePort: number }[];
    expect(ports[0]?.nodePort).toBe(30080);
    expect(ports[1]?.nodePort).toBeGreaterThanOrEqual(30000 + 86);
    expect(ports[2]?.nodePort).toBe(30080);
    expect(res.body.spec).toMatchObject({ externalTrafficPolicy: 'Cluster' });
    const bad = await json('POST', SVCS, svc('np2', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }));
    expect(bad.body.message).toBe(
      'Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
  });

  it('allocates on a change to NodePort and releases on a change back to ClusterIP', async () => {
    const { json } = await testServer();
    await json('POST', SVCS, svc('s', { ports: [{ port: 80 }] }));
    const up = await json(
      'PATCH',
      `${SVCS}/s`,
      { spec: { type: 'NodePort' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(up.status).toBe(200);
    const nodePort = Number((up.body as unknown as Svc).spec.ports?.[0]?.nodePort);
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    const taken = await json('POST', SVCS, svc('t', { type: 'NodePort', ports: [{ port: 80, nodePort }] }));
    expect(taken.status).toBe(422);
    const down = await json(
      'PATCH',
      `${SVCS}/s`,
      { spec: { type: 'ClusterIP' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(down.status).toBe(200);
    expect((down.body as unknown as Svc).spec.ports?.[0]?.nodePort).toBeUndefined();
    expect((await json('POST', SVCS, svc('t', { type: 'NodePort', ports: [{ port: 80, nodePort }] }))).status).toBe(
      201,
    );
  });

  it('releases the address when a service becomes ExternalName', async () => {
    const { json } = await testServer();
    await json('POST', SVCS, svc('s', { clusterIP: '10.96.0.50' }));
    const ext = await json(
      'PATCH',
      `${SVCS}/s`,
      { spec: { type: 'ExternalName', externalName: 'example.com' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(ext.status).toBe(200);
    expect((ext.body as unknown as Svc).spec.clusterIP).toBeUndefined();
    expect((await json('POST', SVCS, svc('t', { clusterIP: '10.96.0.50' }))).status).toBe(201);
  });
});
