/**
 * Who the parts of a cluster are, as a kubeadm cluster has them: the admin (system:masters), the
 * scheduler as `system:kube-scheduler` and kube-controller-manager as
 * `system:kube-controller-manager` (kubeadm's scheduler.conf and controller-manager.conf
 * credentials; each of its controllers then acts as its own ServiceAccount), and what runs inside
 * kube-apiserver itself as the loopback `system:apiserver` (a credential made anew at every start,
 * never written down — kube-apiserver's loopback client config).
 *
 * The admin's, the scheduler's and the controller manager's bearer tokens live in a token file
 * (`kubewasm up` keeps one in its data directory); a cluster without one makes them in memory.
 */

import type { UserInfo } from '../apiserver/authn/tokens.js';
import {
  APISERVER_USER,
  KUBE_CONTROLLER_MANAGER_USER,
  KUBE_SCHEDULER_USER,
  SYSTEM_PRIVILEGED_GROUP,
} from '../apiserver/authn/user.js';

/** The admin's user name in the token file. */
export const ADMIN_USER = 'admin';

/** The identities a token file holds for the control plane, each with its groups. */
export const TOKEN_FILE_IDENTITIES: readonly { name: string; groups: readonly string[] }[] = [
  { name: ADMIN_USER, groups: [SYSTEM_PRIVILEGED_GROUP] },
  // kubeadm's scheduler.conf and controller-manager.conf credentials (user.KubeScheduler, user.KubeControllerManager).
  { name: KUBE_SCHEDULER_USER, groups: [] },
  { name: KUBE_CONTROLLER_MANAGER_USER, groups: [] },
];

/** The bearer tokens of the control plane's identities. */
export interface ControlPlaneTokens {
  admin: string;
  scheduler: string;
  controllerManager: string;
  /** system:apiserver in system:masters: the controllers inside kube-apiserver and its post-start hooks. */
  loopback: string;
}

/** 32 random bytes in hex: a bearer token. */
export function randomToken(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The token of the first user called `name`. */
export function tokenOf(tokens: ReadonlyMap<string, UserInfo>, name: string): string | undefined {
  for (const [token, user] of tokens) if (user.name === name) return token;
  return undefined;
}

/**
 * The users by token the apiserver authenticates: `tokens` (a token file's, --token-auth-file's)
 * with a token added for each control-plane identity it lacks, and the loopback credential.
 */
export function controlPlaneTokens(tokens: ReadonlyMap<string, UserInfo> = new Map()): {
  users: Map<string, UserInfo>;
  tokens: ControlPlaneTokens;
} {
  const users = new Map(tokens);
  const ensure = (name: string, groups: readonly string[]): string => {
    const existing = tokenOf(users, name);
    if (existing !== undefined) return existing;
    const token = randomToken();
    users.set(token, { name, uid: globalThis.crypto.randomUUID(), groups: [...groups] });
    return token;
  };
  const [admin, scheduler, controllerManager] = TOKEN_FILE_IDENTITIES.map((id) => ensure(id.name, id.groups)) as [
    string,
    string,
    string,
  ];
  const loopback = randomToken();
  users.set(loopback, { name: APISERVER_USER, uid: globalThis.crypto.randomUUID(), groups: [SYSTEM_PRIVILEGED_GROUP] });
  return { users, tokens: { admin, scheduler, controllerManager, loopback } };
}
