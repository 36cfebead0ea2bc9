/**
 * Creates and reconciles the RBAC bootstrap policy through the API, as kube-apiserver's
 * `rbac/bootstrap-roles` post-start hook does (pkg/registry/rbac/rest/storage_rbac.go
 * ensureRBACPolicy, pkg/registry/rbac/reconciliation): a missing role or binding is created; one
 * annotated `rbac.authorization.kubernetes.io/autoupdate: "true"` (or without the annotation) gets
 * the bootstrap labels and annotations, its missing rules (as Covers breaks them down) and missing
 * subjects added — nothing removed; a binding whose roleRef changed is deleted and recreated.
 *
 *   await reconcileBootstrapPolicy((req) => api.handle(req), 'https://127.0.0.1', adminToken);
 */
import type { ObjectMeta } from '../../api/types/meta/v1.js';
import type { ClusterRole, ClusterRoleBinding, Subject } from '../../api/types/rbac/v1.js';
import { BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES } from './bootstrap-policy-data.js';
import { covers } from './escalation.js';

// rbacv1.AutoUpdateAnnotationKey (k8s.io/api rbac/v1 types.go).
export const AUTO_UPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
// bootstrappolicy.Label (policy.go).
export const BOOTSTRAP_LABEL = { 'kubernetes.io/bootstrapping': 'rbac-defaults' } as const;

const API = '/apis/rbac.authorization.k8s.io/v1';

type Handle = (request: Request) => Promise<Response>;

const sameSubject = (a: Subject, b: Subject): boolean =>
  a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

/** The bootstrap labels and annotations merged into the stored ones; true when something was added. */
function mergeMeta(stored: ObjectMeta, want: ObjectMeta | undefined): boolean {
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    for (const [k, v] of Object.entries(want?.[field] ?? {})) {
      if (stored[field]?.[k] !== v) {
        stored[field] = { ...(stored[field] ?? {}), [k]: v };
        changed = true;
      }
    }
  }
  return changed;
}

/** Creates or reconciles every bootstrap cluster role and binding; returns the failures' texts. */
export async function reconcileBootstrapPolicy(handle: Handle, base: string, token: string): Promise<string[]> {
  const errors: string[] = [];
  const call = (method: string, path: string, body?: unknown): Promise<Response> =>
    handle(
      new Request(`${base}${API}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const expect = async (res: Response, what: string, ok: number[]): Promise<void> => {
    if (!ok.includes(res.status)) errors.push(`${what}: ${res.status} ${await res.text()}`);
  };

  for (const role of BOOTSTRAP_CLUSTER_ROLES) {
    const name = role.metadata?.name ?? '';
    const want = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', ...role };
    const got = await call('GET', `/clusterroles/${encodeURIComponent(name)}`);
    if (got.status === 404) {
      await expect(await call('POST', '/clusterroles', want), `creating clusterrole ${name}`, [201, 409]);
      continue;
    }
    if (got.status !== 200) {
      await expect(got, `reading clusterrole ${name}`, [200]);
      continue;
    }
    const stored = (await got.json()) as ClusterRole;
    // ObjectMeta is a value in Go: a stored object always has one.
    stored.metadata ??= {};
    if (stored.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'false') continue;
    let changed = mergeMeta(stored.metadata, role.metadata);
    const { missing } = covers(stored.rules ?? [], role.rules ?? []);
    if (missing.length > 0) {
      stored.rules = [...(stored.rules ?? []), ...missing];
      changed = true;
    }
    if (role.aggregationRule !== undefined && stored.aggregationRule === undefined) {
      stored.aggregationRule = role.aggregationRule;
      changed = true;
    }
    if (changed)
      await expect(
        await call('PUT', `/clusterroles/${encodeURIComponent(name)}`, stored),
        `updating clusterrole ${name}`,
        [200],
      );
  }

  for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS) {
    const name = binding.metadata?.name ?? '';
    const path = `/clusterrolebindings/${encodeURIComponent(name)}`;
    const want = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', ...binding };
    const got = await call('GET', path);
    if (got.status === 404) {
      await expect(await call('POST', '/clusterrolebindings', want), `creating clusterrolebinding ${name}`, [201, 409]);
      continue;
    }
    if (got.status !== 200) {
      await expect(got, `reading clusterrolebinding ${name}`, [200]);
      continue;
    }
    const stored = (await got.json()) as ClusterRoleBinding;
    stored.metadata ??= {};
    if (stored.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'false') continue;
    if (stored.roleRef.kind !== binding.roleRef.kind || stored.roleRef.name !== binding.roleRef.name) {
      // roleRef is immutable: delete, then create with the stored subjects kept.
      await expect(await call('DELETE', path), `replacing clusterrolebinding ${name}`, [200]);
      const subjects = [...(stored.subjects ?? [])];
      for (const s of binding.subjects ?? []) if (!subjects.some((x) => sameSubject(x, s))) subjects.push(s);
      await expect(
        await call('POST', '/clusterrolebindings', { ...want, subjects }),
        `creating clusterrolebinding ${name}`,
        [201],
      );
      continue;
    }
    let changed = mergeMeta(stored.metadata, binding.metadata);
    for (const s of binding.subjects ?? []) {
      if (!(stored.subjects ?? []).some((x) => sameSubject(x, s))) {
        stored.subjects = [...(stored.subjects ?? []), s];
        changed = true;
      }
    }
    if (changed) await expect(await call('PUT', path, stored), `updating clusterrolebinding ${name}`, [200]);
  }
  return errors;
}
