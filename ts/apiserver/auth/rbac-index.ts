/**
 * The RBAC objects in memory, kept current from storage watches, as kube-apiserver's RBAC authorizer
 * reads them from shared informer listers (plugin/pkg/auth/authorizer/rbac/rbac.go: RoleGetter,
 * RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister). Bindings are indexed by subject,
 * so a request only looks at the bindings that can name its user.
 */
import type { Storage, StoredObject, Watch, WatchEvent } from '../../storage/storage.js';
import { relistWithRetries } from '../relist.js';
import type { UserInfo } from './attributes.js';
import type { BindingObject, RoleObject, Subject } from './rbac-types.js';

/** The four RBAC kinds by storage prefix (registry/resources.ts collectionPrefix). */
const PREFIXES = {
  roles: '/registry/roles/',
  rolebindings: '/registry/rolebindings/',
  clusterroles: '/registry/clusterroles/',
  clusterrolebindings: '/registry/clusterrolebindings/',
} as const;
type Kind = keyof typeof PREFIXES;

// serviceaccount.ServiceAccountUsernamePrefix (k8s.io/apiserver pkg/authentication/serviceaccount/util.go).
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';

const utf8 = new TextDecoder();

/** The index key of a subject as it binds: `User:jane`, `Group:g`, `ServiceAccount:ns:name`. */
function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
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

function byName<T extends { metadata: { name: string } }>(a: T, b: T): number {
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** Bindings (one kind, all namespaces) with a subject index. Keys: `ns/name` or `name`. */
class BindingIndex {
  private readonly objects = new Map<string, BindingObject>();
  private readonly bySubject = new Map<string, Set<string>>();

  private static subjectKeys(b: BindingObject, namespace: string): Set<string> {
    const out = new Set<string>();
    for (const s of b.subjects ?? []) {
      const k = subjectKey(s, namespace);
      if (k !== undefined) out.add(`${namespace}\u0000${k}`);
    }
    return out;
  }

  put(key: string, b: BindingObject): void {
    this.remove(key);
    this.objects.set(key, b);
    for (const k of BindingIndex.subjectKeys(b, b.metadata.namespace ?? '')) {
      const set = this.bySubject.get(k) ?? new Set<string>();
      this.bySubject.set(k, set);
      set.add(key);
    }
  }

  remove(key: string): void {
    const old = this.objects.get(key);
    if (old === undefined) return;
    this.objects.delete(key);
    for (const k of BindingIndex.subjectKeys(old, old.metadata.namespace ?? '')) {
      const set = this.bySubject.get(k);
      set?.delete(key);
      if (set?.size === 0) this.bySubject.delete(k);
    }
  }

  clear(): void {
    this.objects.clear();
    this.bySubject.clear();
  }

  /** The bindings in `namespace` ('' for cluster bindings) naming one of `keys`, by name. */
  candidates(namespace: string, keys: readonly string[]): BindingObject[] {
    const found = new Set<string>();
    for (const k of keys) for (const key of this.bySubject.get(`${namespace}\u0000${k}`) ?? []) found.add(key);
    return [...found].map((k) => this.objects.get(k) as BindingObject).sort(byName);
  }
}

/** The roles, cluster roles and bindings of one store, current as of the watches. */
export class RbacIndex {
  private readonly roles = new Map<string, RoleObject>();
  private readonly clusterRoles = new Map<string, RoleObject>();
  private readonly roleBindings = new BindingIndex();
  private readonly clusterRoleBindings = new BindingIndex();
  private readonly watches = new Set<Watch>();
  /** The newest revision each kind's watch has seen. */
  private readonly seen = new Map<Kind, bigint>();
  private readonly waiters: { revision: bigint; resolve: () => void }[] = [];
  private stopped = false;
  private started: Promise<void> | undefined;

  constructor(private readonly storage: Storage) {}

  /** Lists the four kinds and starts watching them; resolves once the lists are in. */
  start(): Promise<void> {
    this.started ??= (async () => {
      await Promise.all(
        (Object.keys(PREFIXES) as Kind[]).map(async (kind) => {
          const rev = await this.relist(kind);
          void this.follow(kind, rev);
        }),
      );
    })();
    return this.started;
  }

  /** Resolves when the index has every RBAC change made up to now. */
  async synced(): Promise<void> {
    await this.start();
    const revision = await this.storage.currentRevision();
    if (this.caughtUp(revision)) return;
    const done = new Promise<void>((resolve) => this.waiters.push({ revision, resolve }));
    // A quiet prefix learns the current revision from a progress BOOKMARK.
    await this.storage.requestProgress();
    await done;
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watches) w.stop();
    this.watches.clear();
  }

  role(namespace: string, name: string): RoleObject | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }

  clusterRole(name: string): RoleObject | undefined {
    return this.clusterRoles.get(name);
  }

  /** The cluster role bindings that may name `user` (subject index), by name. */
  clusterRoleBindingsFor(user: UserInfo): BindingObject[] {
    return this.clusterRoleBindings.candidates('', userSubjectKeys(user));
  }

  /** The role bindings of `namespace` that may name `user`, by name. */
  roleBindingsFor(user: UserInfo, namespace: string): BindingObject[] {
    return this.roleBindings.candidates(namespace, userSubjectKeys(user));
  }

  private caughtUp(revision: bigint): boolean {
    return (Object.keys(PREFIXES) as Kind[]).every((k) => (this.seen.get(k) ?? 0n) >= revision);
  }

  private advance(kind: Kind, revision: bigint): void {
    if ((this.seen.get(kind) ?? 0n) < revision) this.seen.set(kind, revision);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i] as (typeof this.waiters)[number];
      if (this.caughtUp(w.revision)) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  private apply(kind: Kind, obj: StoredObject | WatchEvent, deleted: boolean): void {
    const key = obj.key.slice(PREFIXES[kind].length);
    if (deleted) {
      if (kind === 'roles') this.roles.delete(key);
      else if (kind === 'clusterroles') this.clusterRoles.delete(key);
      else if (kind === 'rolebindings') this.roleBindings.remove(key);
      else this.clusterRoleBindings.remove(key);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(obj.value));
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null) return;
    if (kind === 'roles') this.roles.set(key, parsed as RoleObject);
    else if (kind === 'clusterroles') this.clusterRoles.set(key, parsed as RoleObject);
    else if (kind === 'rolebindings') this.roleBindings.put(key, parsed as BindingObject);
    else this.clusterRoleBindings.put(key, parsed as BindingObject);
  }

  private async relist(kind: Kind): Promise<bigint> {
    const list = await this.storage.list(PREFIXES[kind]);
    if (kind === 'roles') for (const k of [...this.roles.keys()]) this.roles.delete(k);
    else if (kind === 'clusterroles') this.clusterRoles.clear();
    else if (kind === 'rolebindings') this.roleBindings.clear();
    else this.clusterRoleBindings.clear();
    for (const item of list.items) this.apply(kind, item, false);
    this.advance(kind, list.revision);
    return list.revision;
  }

  /** Follows one kind's changes from `revision`; re-lists when the watch ends or fails (410). */
  private async follow(kind: Kind, revision: bigint): Promise<void> {
    let from = revision;
    while (!this.stopped) {
      // Progress notifications let synced() see a quiet prefix catch up (etcd sends them periodically).
      const watch = this.storage.watch(PREFIXES[kind], { revision: from, recursive: true, progressNotify: true });
      this.watches.add(watch);
      let failed = false;
      try {
        for await (const batch of watch) {
          for (const ev of batch) {
            if (ev.type === 'ERROR') {
              failed = true;
              break;
            }
            if (ev.type !== 'BOOKMARK') this.apply(kind, ev, ev.type === 'DELETED');
            from = ev.revision;
            this.advance(kind, ev.revision);
          }
          if (failed) break;
        }
      } catch {
        failed = true;
      } finally {
        watch.stop();
        this.watches.delete(watch);
      }
      if (this.stopped) return;
      const relisted = await relistWithRetries(
        () => this.relist(kind),
        () => this.stopped,
      );
      if (relisted === undefined) return;
      from = relisted;
    }
  }
}
