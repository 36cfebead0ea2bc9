import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { componentKubeconfig, kubeconfig } from './kubeconfig.js';
import { KubeconfigError, loadKubeconfig } from './node-remote.js';

const dir = mkdtempSync(join(tmpdir(), 'kubewasm-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('loadKubeconfig', () => {
  it('reads what the cluster writes: the admin’s token and certificate contexts, a component’s', () => {
    const admin = write('admin', kubeconfig('https://127.0.0.1:6443', CA, 'tok', { certPem: 'CERT', keyPem: 'KEY' }));
    expect(loadKubeconfig(admin)).toEqual({ server: 'https://127.0.0.1:6443', caPem: CA, token: 'tok' });
    expect(loadKubeconfig(admin, 'kubewasm-cert')).toEqual({
      server: 'https://127.0.0.1:6443',
      caPem: CA,
      clientCertificate: { certPem: 'CERT', keyPem: 'KEY' },
    });
    const cm = write('cm', componentKubeconfig('https://h:1', CA, 'system:kube-controller-manager', 'cm-token'));
    expect(loadKubeconfig(cm)).toEqual({ server: 'https://h:1', caPem: CA, token: 'cm-token' });
  });

  it('reads files named relative to the kubeconfig, and insecure-skip-tls-verify', () => {
    write('ca.crt', CA);
    write('token', 'from-file\n');
    const path = write(
      'files',
      `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: 'https://x:6443', certificate-authority: ca.crt, insecure-skip-tls-verify: true}
users:
- name: u
  user: {tokenFile: token}
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
`,
    );
    expect(loadKubeconfig(path)).toEqual({ server: 'https://x:6443', caPem: CA, insecure: true, token: 'from-file' });
  });

  it('refuses a kubeconfig without a context, a missing context or cluster, a cluster without a server', () => {
    const none = write('none', 'apiVersion: v1\nkind: Config\n');
    expect(() => loadKubeconfig(none)).toThrow(
      new KubeconfigError('invalid configuration: no configuration has been provided'),
    );
    const admin = write('admin2', kubeconfig('https://127.0.0.1:6443', CA, 'tok', { certPem: 'C', keyPem: 'K' }));
    expect(() => loadKubeconfig(admin, 'other')).toThrow('invalid configuration: context "other" not found');
    const noServer = write(
      'noserver',
      'clusters:\n- name: c\n  cluster: {}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n',
    );
    expect(() => loadKubeconfig(noServer)).toThrow('invalid configuration: cluster "c" has no server');
    const noCluster = write('nocluster', 'contexts:\n- name: x\n  context: {cluster: gone}\ncurrent-context: x\n');
    expect(() => loadKubeconfig(noCluster)).toThrow('invalid configuration: cluster "gone" not found');
    expect(() => loadKubeconfig(join(dir, 'absent'))).toThrow(/^cannot read kubeconfig/);
  });
});
