/**
 * What each kind's registry strategy does on create and update beyond the generic metadata
 * handling (pkg/registry/<group>/<kind>/strategy.go and the v1 defaulters, v1.32) — the part this
 * slice needs: status owned by the status subresource, the defaults `kubectl get -o yaml` shows
 * for the served kinds (pkg/apis/{core,apps}/v1/defaults.go), Secret.stringData.
 */
import type { KubeObject } from '../api/meta.js';
import type { ResourceInfo } from './resources.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function base64Utf8(s: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Secret: stringData is write-only, merged into data (base64) and dropped (SecretV1 conversion). */
function foldStringData(o: Obj): void {
  if (!isObj(o.stringData)) {
    delete o.stringData;
    return;
  }
  const data: Obj = isObj(o.data) ? { ...o.data } : {};
  for (const [k, v] of Object.entries(o.stringData)) data[k] = base64Utf8(String(v));
  o.data = data;
  delete o.stringData;
}

/** SetDefaults_Container's pull policy: Always for `:latest` or no tag, else IfNotPresent. */
function defaultPullPolicy(image: unknown): string {
  if (typeof image !== 'string' || image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  const tag = colon < 0 ? 'latest' : last.slice(colon + 1);
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_PodSpec, _Container and _ContainerPort (pkg/apis/core/v1/defaults.go). */
function applyPodSpecDefaults(spec: Obj): void {
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const list of [spec.containers, spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObj(c)) continue;
      c.terminationMessagePath ??= '/dev/termination-log';
      c.terminationMessagePolicy ??= 'File';
      c.imagePullPolicy ??= defaultPullPolicy(c.image);
      if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p)) p.protocol ??= 'TCP';
    }
  }
}

/** SetDefaults_* for the kinds whose defaults `kubectl get` shows. */
function applyDefaults(info: ResourceInfo, o: Obj): void {
  switch (`${info.group}/${info.kind}`) {
    case '/Secret':
      if (typeof o.type !== 'string' || o.type === '') o.type = 'Opaque';
      foldStringData(o);
      break;
    case '/Pod': {
      const spec: Obj = isObj(o.spec) ? o.spec : {};
      o.spec = spec;
      applyPodSpecDefaults(spec);
      spec.enableServiceLinks ??= true;
      break;
    }
    case 'apps/Deployment': {
      const spec: Obj = isObj(o.spec) ? o.spec : {};
      o.spec = spec;
      const template = isObj(spec.template) ? spec.template : undefined;
      if (template && isObj(template.spec)) applyPodSpecDefaults(template.spec);
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      const strategy: Obj = isObj(spec.strategy) ? spec.strategy : {};
      spec.strategy = strategy;
      strategy.type ??= 'RollingUpdate';
      if (strategy.type === 'RollingUpdate') {
        const ru: Obj = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
        strategy.rollingUpdate = ru;
        ru.maxUnavailable ??= '25%';
        ru.maxSurge ??= '25%';
      }
      break;
    }
    case '/Service': {
      const spec: Obj = isObj(o.spec) ? o.spec : {};
      o.spec = spec;
      spec.type ??= 'ClusterIP';
      spec.sessionAffinity ??= 'None';
      if (Array.isArray(spec.ports)) {
        for (const p of spec.ports) {
          if (!isObj(p)) continue;
          p.protocol ??= 'TCP';
          p.targetPort ??= p.port;
        }
      }
      break;
    }
  }
}

/** The status a new object starts with when its status belongs to the status subresource. */
function initialStatus(info: ResourceInfo): Obj {
  switch (`${info.group}/${info.kind}`) {
    case '/Namespace':
      return { phase: 'Active' };
    case '/Pod':
      return { phase: 'Pending' };
    default:
      return {};
  }
}

/** PrepareForCreate + defaulting. */
export function prepareForCreate(info: ResourceInfo, obj: KubeObject): void {
  const o = obj as Obj;
  if (info.statusOnSubresource && !info.createKeepsStatus) o.status = initialStatus(info);
  applyDefaults(info, o);
}

/** PrepareForUpdate + defaulting: the stored status is kept for kinds with a status subresource. */
export function prepareForUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  const o = obj as Obj;
  if (info.statusOnSubresource) {
    const status = (old as Obj).status;
    if (status === undefined) delete o.status;
    else o.status = status;
  }
  applyDefaults(info, o);
}

/**
 * The status strategies' PrepareForUpdate (`…/status` writes): everything but the status comes
 * from the stored object where Kubernetes resets it — the spec always; a pod's ownerReferences
 * (and its qosClass when the new status has none); a deployment's labels.
 */
export function prepareForStatusUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  const o = obj as Obj;
  const prev = old as Obj;
  if (prev.spec === undefined) delete o.spec;
  else o.spec = structuredClone(prev.spec);
  const meta = (o.metadata ?? {}) as Obj;
  const oldMeta = (prev.metadata ?? {}) as Obj;
  const keep = (field: string): void => {
    if (oldMeta[field] === undefined) delete meta[field];
    else meta[field] = structuredClone(oldMeta[field]);
  };
  switch (`${info.group}/${info.kind}`) {
    case '/Pod': {
      keep('ownerReferences');
      const status: Obj = isObj(o.status) ? o.status : {};
      const oldStatus: Obj = isObj(prev.status) ? prev.status : {};
      if ((status.qosClass ?? '') === '' && oldStatus.qosClass !== undefined) status.qosClass = oldStatus.qosClass;
      if (o.status !== undefined || status.qosClass !== undefined) o.status = status;
      break;
    }
    case 'apps/Deployment':
      keep('labels');
      break;
  }
}

/** Whether the change bumps metadata.generation (spec, for kinds that keep a generation). */
export function specChanged(obj: KubeObject, old: KubeObject): boolean {
  return canonicalJson((obj as Obj).spec ?? null) !== canonicalJson((old as Obj).spec ?? null);
}

/** JSON with object keys sorted, so that key order alone is no change. */
function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_key, value: unknown) =>
    isObj(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value,
  );
}
