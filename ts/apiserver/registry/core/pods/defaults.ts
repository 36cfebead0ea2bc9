/**
 * The pod spec defaults every kind with a pod template gets (SetDefaults_PodSpec, _Container,
 * _ContainerPort, _PersistentVolumeClaim in pkg/apis/core/v1/defaults.go, v1.32), and those only a
 * Pod gets (SetDefaults_Pod).
 */
import { child, children, isObj, type Obj } from '../../objects.js';

/** SetDefaults_Container's pull policy: Always for `:latest` or no tag, else IfNotPresent. */
function defaultPullPolicy(image: unknown): string {
  if (typeof image !== 'string' || image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  const tag = colon < 0 ? 'latest' : last.slice(colon + 1);
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_PodSpec, _Container and _ContainerPort. */
export function applyPodSpecDefaults(spec: Obj): void {
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

/** The defaults of `spec.template.spec` (a PodTemplateSpec field named `field` of `spec`). */
export function applyTemplateDefaults(spec: Obj, field = 'template'): void {
  const template = spec[field];
  if (isObj(template)) applyPodSpecDefaults(child(template, 'spec'));
}

/** SetDefaults_PersistentVolumeClaim(Spec): volumeMode Filesystem, status.phase Pending. */
export function applyClaimTemplateDefaults(spec: Obj): void {
  for (const claim of children(spec, 'volumeClaimTemplates')) {
    child(claim, 'spec').volumeMode ??= 'Filesystem';
    child(claim, 'status').phase ??= 'Pending';
  }
}

/**
 * SetDefaults_Pod (a Pod, never a template): requests default to the limits given, per container
 * and init container; enableServiceLinks true; with hostNetwork, each port's hostPort defaults to
 * its containerPort. (The resize policy and pod-level requests follow alpha gates, off in 1.32.)
 */
export function applyPodDefaults(spec: Obj): void {
  for (const list of [spec.containers, spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObj(c)) continue;
      const resources = c.resources;
      if (!isObj(resources) || !isObj(resources.limits)) continue;
      const requests = child(resources, 'requests');
      for (const [name, value] of Object.entries(resources.limits)) {
        if (!Object.hasOwn(requests, name)) requests[name] = value;
      }
    }
  }
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork !== true) return;
  for (const list of [spec.containers, spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObj(c) || !Array.isArray(c.ports)) continue;
      for (const p of c.ports) if (isObj(p) && (p.hostPort ?? 0) === 0) p.hostPort = p.containerPort;
    }
  }
}

/** The containers of every kind (VisitContainers with AllContainers). */
function allContainers(spec: Obj | undefined): Obj[] {
  if (spec === undefined) return [];
  return [
    ...children(spec, 'initContainers'),
    ...children(spec, 'containers'),
    ...children(spec, 'ephemeralContainers'),
  ];
}

/**
 * DropDisabledPodFields (pkg/api/pod/util.go, v1.32) for the two gates that are off by default and
 * that PodSecurity reads: without ProcMountType a container's procMount is forced to `Default`, without
 * UserNamespacesSupport `hostUsers` is dropped — unless the stored pod (`old`) already uses them.
 */
export function dropDisabledPodFields(spec: Obj, old: Obj | undefined): void {
  const procMountInUse = allContainers(old).some(
    (c) =>
      isObj(c.securityContext) &&
      c.securityContext.procMount !== undefined &&
      c.securityContext.procMount !== 'Default',
  );
  if (!procMountInUse) {
    for (const c of allContainers(spec)) {
      if (
        isObj(c.securityContext) &&
        c.securityContext.procMount !== undefined &&
        c.securityContext.procMount !== null
      ) {
        c.securityContext.procMount = 'Default';
      }
    }
  }
  const hostUsersInUse = old !== undefined && isObj(old.securityContext) && old.securityContext.hostUsers !== undefined;
  if (!hostUsersInUse && isObj(spec.securityContext)) delete spec.securityContext.hostUsers;
}
