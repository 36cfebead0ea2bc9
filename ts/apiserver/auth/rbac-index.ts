/**
 * The RBAC objects the authorizer reads, from the apiserver's shared informers, as kube-apiserver's
 * RBAC authorizer reads them from shared informer listers (plugin/pkg/auth/authorizer/rbac/rbac.go:
 * RoleGetter, RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister). Bindings are
 * indexed by subject (an informer index), so a request only looks at the bindings that can name
 * its user.
 *
 * Freshness is kube-apiserver's: a decision reads the informers as they are (once their first
 * lists are in); synced() is the read-your-writes barrier (tests, bootstrap) — every RBAC change
 * made before it is in once it resolves. The informers' own lists and watches must not need RBAC
 * (they run as the loopback user, in system:masters), or the first decision would wait for itself.
 */
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../api/types/rbac/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { SharedInformerFactory } from '../../client/informers/factory.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import type { Storage } from '../../storage/storage.js';
import { waitUntilFresh } from '../informers/fresh.js';
import type { UserInfo } from './attributes.js';

// serviceaccount.ServiceAccountUsernamePrefix (k8s.io/apiserver pkg/authentication/serviceaccount/util.go).
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';

/** A RoleBinding or a ClusterRoleBinding, as the informers hold it (shared, read-only). */
export type RbacBinding = DeepReadonly<RoleBinding | ClusterRoleBinding>;

/** The bindings' index by subject: `<binding namespace>\0<subject key>`. */
export const RBAC_SUBJECT_INDEX = 'kubewasm.io/rbac-subject';

/** The index key of a subject as it binds: `User:jane`, `Group:g`, `ServiceAccount:ns:name`. */
function subjectKey(s: DeepReadonly<Subject>, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
    case 'Group':
      return `${s.kind}:${s.name}`;
    case 'ServiceAccount': {
      // appliesToUser: a subject without a namespace takes the binding's (none for cluster bindings).
      const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNamespace;
      return ns === '' ? undefined : `ServiceAccount:${ns}:${s.name}`;
    }
    default:
      return undefined;
  }
}

/** Every subject key that can name `user`. */
export function userSubjectKeys(user: UserInfo): string[] {
  const keys = [`User:${user.name}`, ...user.groups.map((g) => `Group:${g}`)];
  if (user.name.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) {
    // serviceaccount.SplitUsername: exactly namespace:name after the prefix.
    const parts = user.name.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
    if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') keys.push(`ServiceAccount:${parts[0]}:${parts[1]}`);
  }
  return keys;
}

/** What the bindings' subject index files a binding under. */
function bindingSubjectKeys(b: DeepReadonly<Pick<RoleBinding, 'metadata' | 'subjects'>>): string[] {
  const namespace = b.metadata?.namespace ?? '';
  const out = new Set<string>();
  for (const s of b.subjects ?? []) {
    const k = subjectKey(s, namespace);
    if (k !== undefined) out.add(`${namespace}\u0000${k}`);
  }
  return [...out];
}

const byName = (a: RbacBinding, b: RbacBinding): number => {
  const [x, y] = [a.metadata?.name ?? '', b.metadata?.name ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
};

interface RbacInformers {
  roles: SharedIndexInformer<Role>;
  rolebindings: SharedIndexInformer<RoleBinding>;
  clusterroles: SharedIndexInformer<ClusterRole>;
  clusterrolebindings: SharedIndexInformer<ClusterRoleBinding>;
}

/** The roles, cluster roles and bindings of the apiserver's informers. */
export class RbacIndex {
  private informers_: RbacInformers | undefined;
  private started: Promise<void> | undefined;

  constructor(
    private readonly factory: SharedInformerFactory,
    private readonly storage: Storage,
  ) {}

  private get informers(): RbacInformers {
    if (this.informers_ === undefined) {
      const f = this.factory;
      this.informers_ = {
        roles: f.informerFor(RESOURCES.roles),
        rolebindings: f.informerFor(RESOURCES.rolebindings),
        clusterroles: f.informerFor(RESOURCES.clusterroles),
        clusterrolebindings: f.informerFor(RESOURCES.clusterrolebindings),
      };
      for (const bindings of [this.informers_.rolebindings, this.informers_.clusterrolebindings]) {
        // Shared informers: another index of this process may have added it already.
        if (!(RBAC_SUBJECT_INDEX in bindings.getIndexer().getIndexers())) {
          // addIndexers takes index functions of any object; this informer's are bindings.
          bindings.addIndexers({
            [RBAC_SUBJECT_INDEX]: (b) =>
              bindingSubjectKeys(b as DeepReadonly<Pick<RoleBinding, 'metadata' | 'subjects'>>),
          });
        }
      }
    }
    return this.informers_;
  }

  /** Starts the four informers (the factory's start()); resolves once their first lists are in. */
  start(): Promise<void> {
    this.started ??= (async () => {
      const all = Object.values(this.informers);
      this.factory.start();
      await Promise.all(all.map((i) => i.synced()));
    })();
    return this.started;
  }

  /** Resolves when the index has every RBAC change made up to now. */
  async synced(): Promise<void> {
    await this.start();
    await waitUntilFresh(Object.values(this.informers), this.storage);
  }

  /** The informers are the factory's: their owner stops them. */
  stop(): void {}

  role(namespace: string, name: string): DeepReadonly<Role> | undefined {
    return this.informers.roles.get(namespace, name);
  }

  clusterRole(name: string): DeepReadonly<ClusterRole> | undefined {
    return this.informers.clusterroles.get(undefined, name);
  }

  /** The cluster role bindings that may name `user` (subject index), by name. */
  clusterRoleBindingsFor(user: UserInfo): RbacBinding[] {
    return candidates(this.informers.clusterrolebindings, '', userSubjectKeys(user));
  }

  /** The role bindings of `namespace` that may name `user`, by name. */
  roleBindingsFor(user: UserInfo, namespace: string): RbacBinding[] {
    return candidates(this.informers.rolebindings, namespace, userSubjectKeys(user));
  }
}

/** The bindings in `namespace` ('' for cluster bindings) naming one of `keys`, by name. */
function candidates(
  bindings: SharedIndexInformer<RoleBinding> | SharedIndexInformer<ClusterRoleBinding>,
  namespace: string,
  keys: readonly string[],
): RbacBinding[] {
  const indexer = bindings.getIndexer();
  const found = new Set<RbacBinding>();
  for (const k of keys) for (const b of indexer.byIndex(RBAC_SUBJECT_INDEX, `${namespace}\u0000${k}`)) found.add(b);
  return [...found].sort(byName);
}
