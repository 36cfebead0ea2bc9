/**
 * The kubeconfigs that reach a cluster's HTTPS front: the admin's — the cluster CA, the admin's
 * bearer token (current context `kubewasm`) and, as a second context `kubewasm-cert`, the admin's
 * client certificate (kubeadm's admin.conf) — and those of the control plane's components.
 */
import type { KeyPair } from '../apiserver/certs.js';

function base64(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The admin's kubeconfig. */
export function kubeconfig(server: string, caPem: string, token: string, client: KeyPair): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: kubewasm
  cluster:
    server: ${server}
    certificate-authority-data: ${base64(caPem)}
users:
- name: admin
  user:
    token: ${token}
- name: admin-cert
  user:
    client-certificate-data: ${base64(client.certPem)}
    client-key-data: ${base64(client.keyPem)}
contexts:
- name: kubewasm
  context:
    cluster: kubewasm
    user: admin
    namespace: default
- name: kubewasm-cert
  context:
    cluster: kubewasm
    user: admin-cert
    namespace: default
current-context: kubewasm
`;
}

/**
 * A kubeconfig for one of the control plane's own identities (kubeadm's controller-manager.conf and
 * scheduler.conf): the cluster CA and that identity's bearer token, context `<user>@kubewasm`.
 */
export function componentKubeconfig(server: string, caPem: string, user: string, token: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: kubewasm
  cluster:
    server: ${server}
    certificate-authority-data: ${base64(caPem)}
users:
- name: ${user}
  user:
    token: ${token}
contexts:
- name: ${user}@kubewasm
  context:
    cluster: kubewasm
    user: ${user}
current-context: ${user}@kubewasm
`;
}
