import { X509Certificate } from 'node:crypto';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueCertificate } from './certs.js';

describe('cluster certificates', () => {
  it('serve TLS that a client trusting only the cluster CA accepts', async () => {
    const ca = await createCertificateAuthority();
    const serving = await issueCertificate(
      ca,
      { commonName: 'kube-apiserver' },
      { serving: { dnsNames: ['localhost'], ips: ['127.0.0.1'] } },
    );
    const server = createServer({ cert: serving.certPem, key: serving.keyPem }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const body = await new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, ca: ca.certPem }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    });
    server.close();
    expect(body).toBe('ok');
  });

  it('issues client certificates with the user as CN and groups as O', async () => {
    const ca = await createCertificateAuthority();
    const client = await issueCertificate(ca, { commonName: 'jane', organizations: ['dev', 'ops'] }, { client: true });
    const cert = new X509Certificate(client.certPem);
    expect(cert.subject).toBe('CN=jane\nO=dev\nO=ops');
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
  });
});
