/**
 * The real kubectl (v1.32) against `kubewasm up` for the subresources that reach past the
 * apiserver: `kubectl logs` (pods/log: the errors kube-apiserver gives when the node's kubelet
 * cannot be reached, validation, container choice, the pod without a node) and `kubectl create
 * token` (serviceaccounts/token: a JWT signed with the data dir's key, checked against the
 * published JWKS, the same key after a restart).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyServiceAccountToken } from '../../ts/apiserver/authn/service-account-jwt.js';
import { hasKubectl, UpCluster } from '../testing/up.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const apply = (manifest: unknown) => cluster.kubectlWithInput(JSON.stringify(manifest), 'apply', '-f', '-');

const ISSUER = 'https://kubernetes.default.svc.cluster.local';

// biome-ignore lint/suspicious/noExplicitAny: decoded JWT parts are read freely
type Doc = any;
const part = (token: string, i: number): Doc =>
  JSON.parse(Buffer.from(token.split('.')[i] ?? '', 'base64url').toString());

/** The published signing key, imported for verification. */
async function publishedKeys(): Promise<{ publicKey: CryptoKey; kid: string }[]> {
  const set = JSON.parse(kubectl('get', '--raw', '/openid/v1/jwks').stdout) as { keys: Doc[] };
  return Promise.all(
    set.keys.map(async (k) => ({
      kid: k.kid as string,
      publicKey: await globalThis.crypto.subtle.importKey(
        'jwk',
        { kty: k.kty, n: k.n, e: k.e },
        { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        false,
        ['verify'],
      ),
    })),
  );
}

const pod = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec,
});

describe.skipIf(!hasKubectl)('kubectl logs and create token against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('kubectl logs: a pod without a node has no log yet (204, nothing printed)', () => {
    // A node selector nothing matches keeps it unscheduled.
    expect(
      apply(pod('idle', { nodeSelector: { absent: 'yes' }, containers: [{ name: 'c', image: 'nginx' }] })).status,
    ).toBe(0);
    const res = kubectl('logs', 'idle');
    expect(res).toEqual({ stdout: '', stderr: '', status: 0 });
  });

  it('kubectl logs: the unreachable kubelet, a missing node, the options in the kubelet URL', () => {
    expect(
      apply({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1' },
        status: { addresses: [{ type: 'InternalIP', address: '10.0.0.5' }] },
      }).status,
    ).toBe(0);
    expect(apply(pod('web', { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] })).status).toBe(0);
    expect(kubectl('logs', 'web')).toMatchObject({
      stderr:
        'Error from server: Get "https://10.0.0.5:10250/containerLogs/default/web/c": dial tcp 10.0.0.5:10250: connect: connection refused\n',
      status: 1,
    });
    expect(kubectl('logs', 'web', '--tail=3', '--timestamps', '--limit-bytes=100').stderr).toBe(
      'Error from server: Get "https://10.0.0.5:10250/containerLogs/default/web/c?limitBytes=100&tailLines=3&timestamps=true": dial tcp 10.0.0.5:10250: connect: connection refused\n',
    );
    expect(apply(pod('orphan', { nodeName: 'gone', containers: [{ name: 'c', image: 'nginx' }] })).status).toBe(0);
    expect(kubectl('logs', 'orphan').stderr).toBe('Error from server (NotFound): nodes "gone" not found\n');
  });

  it('kubectl logs: container choice (kubectl defaults it, the server checks it) and the server-side validation', () => {
    expect(
      apply(
        pod(
          'multi',
          {
            nodeName: 'n1',
            initContainers: [{ name: 'setup', image: 'busybox' }],
            containers: [
              { name: 'a', image: 'nginx' },
              { name: 'b', image: 'nginx' },
            ],
          },
          { 'kubectl.kubernetes.io/default-container': 'b' },
        ),
      ).status,
    ).toBe(0);
    // kubectl reads the default-container annotation and asks for that container.
    expect(kubectl('logs', 'multi').stderr).toContain('/containerLogs/default/multi/b"');
    expect(kubectl('logs', 'multi', '-c', 'setup').stderr).toContain('/containerLogs/default/multi/setup"');
    // Without a container the server lists them all.
    expect(kubectl('get', '--raw', '/api/v1/namespaces/default/pods/multi/log').stderr).toBe(
      'Error from server (BadRequest): a container name must be specified for pod multi, choose one of: [setup a b]\n',
    );
    expect(kubectl('get', '--raw', '/api/v1/namespaces/default/pods/multi/log?container=zz').stderr).toBe(
      'Error from server (BadRequest): container zz is not valid for pod multi\n',
    );
    expect(kubectl('get', '--raw', '/api/v1/namespaces/default/pods/web/log?tailLines=-1').stderr).toBe(
      'The PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0\n',
    );
  });

  it('kubectl create token: a JWT as kube-apiserver signs it, verifiable with the published JWKS', async () => {
    expect(kubectl('create', 'serviceaccount', 'builder').stdout).toBe('serviceaccount/builder created\n');
    const uid = kubectl('get', 'sa', 'builder', '-o', 'jsonpath={.metadata.uid}').stdout;
    const res = kubectl('create', 'token', 'builder', '--duration=1h');
    expect(res.status).toBe(0);
    const token = res.stdout.trim();
    const keys = await publishedKeys();
    expect(part(token, 0)).toEqual({ alg: 'RS256', kid: keys[0]?.kid });
    const claims = part(token, 1);
    expect(claims).toMatchObject({
      aud: [ISSUER],
      iss: ISSUER,
      sub: 'system:serviceaccount:default:builder',
      'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'builder', uid } },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.nbf).toBe(claims.iat);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
    const verified = await verifyServiceAccountToken(token, { keys, now: Date.now() });
    expect(verified).toMatchObject({ ok: true, identity: { name: 'system:serviceaccount:default:builder', uid } });
    expect(JSON.parse(kubectl('get', '--raw', '/.well-known/openid-configuration').stdout)).toEqual({
      issuer: ISSUER,
      jwks_uri: `https://127.0.0.1:${cluster.port}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
  });

  it('kubectl create token: audiences, bound objects, and the errors', () => {
    const aud = kubectl('create', 'token', 'builder', '--audience=vault', '--audience=sts', '--duration=10m');
    const claims = part(aud.stdout.trim(), 1);
    expect(claims.aud).toEqual(['vault', 'sts']);
    expect(claims.exp - claims.iat).toBe(600);

    expect(
      apply(
        pod('runner', { nodeName: 'n1', serviceAccountName: 'builder', containers: [{ name: 'c', image: 'nginx' }] }),
      ).status,
    ).toBe(0);
    const podUid = kubectl('get', 'pod', 'runner', '-o', 'jsonpath={.metadata.uid}').stdout;
    const nodeUid = kubectl('get', 'node', 'n1', '-o', 'jsonpath={.metadata.uid}').stdout;
    const bound = kubectl('create', 'token', 'builder', '--bound-object-kind=Pod', '--bound-object-name=runner');
    expect(part(bound.stdout.trim(), 1)['kubernetes.io']).toMatchObject({
      pod: { name: 'runner', uid: podUid },
      node: { name: 'n1', uid: nodeUid },
    });
    expect(kubectl('create', 'token', 'builder', '--bound-object-kind=Pod', '--bound-object-name=web').stderr).toBe(
      'error: failed to create token: cannot bind token for serviceaccount "builder" to pod running with different serviceaccount name.\n',
    );
    expect(kubectl('create', 'token', 'builder', '--duration=1m').stderr).toBe(
      'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n',
    );
    expect(kubectl('create', 'token', 'nobody').stderr).toBe(
      'error: failed to create token: serviceaccounts "nobody" not found\n',
    );
  });

  it('keeps the signing key in the data dir: tokens from before a restart still verify', async () => {
    const before = kubectl('create', 'token', 'builder').stdout.trim();
    const kid = part(before, 0).kid;
    expect(await cluster.stop()).toBe(0);
    await cluster.start();
    const keys = await publishedKeys();
    expect(keys.map((k) => k.kid)).toEqual([kid]);
    expect((await verifyServiceAccountToken(before, { keys, now: Date.now() })).ok).toBe(true);
    expect(part(kubectl('create', 'token', 'builder').stdout.trim(), 0).kid).toBe(kid);
  }, 60_000);
});
