/**
 * The baseline checks of Kubernetes 1.32's Pod Security Standards
 * (k8s.io/pod-security-admission policy/check_*.go at release-1.32), with their exact reasons and
 * details. Baseline checks also run under restricted unless a restricted check overrides them.
 */
import { goQuote } from '../../../api/go-format.js';
import { ALLOWED, type Check, type CheckResult, forbiddenResult } from './check.js';
import {
  type Container,
  joinQuote,
  list,
  type PodMetadata,
  type PodSpec,
  pluralize,
  type SELinuxOptions,
  sortedSet,
  visitContainers,
} from './pod-spec.js';

const containerList = (names: readonly string[]) =>
  `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

// --- appArmorProfile (check_appArmorProfile.go; the field check since 1.30, in the 1.0 revision) ---

// corev1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix, …ProfileRuntimeDefault, …ProfileNamePrefix.
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const APPARMOR_RUNTIME_DEFAULT = 'runtime/default';
const APPARMOR_LOCALHOST_PREFIX = 'localhost/';

const allowedAppArmorAnnotation = (v: string) =>
  v.length === 0 || v === APPARMOR_RUNTIME_DEFAULT || v.startsWith(APPARMOR_LOCALHOST_PREFIX);
const allowedAppArmorType = (t: string | null | undefined) => t === 'RuntimeDefault' || t === 'Localhost';

function appArmorProfile1_0(meta: PodMetadata, spec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podProfile = spec.securityContext?.appArmorProfile;
  if (podProfile != null && !allowedAppArmorType(podProfile.type)) {
    badSetters.push('pod');
    badValues.push(podProfile.type ?? '');
  }
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.appArmorProfile;
    if (profile != null && !allowedAppArmorType(profile.type)) {
      badContainers.push(c.name ?? '');
      badValues.push(profile.type ?? '');
    }
  });
  if (badContainers.length > 0) badSetters.push(containerList(badContainers));
  const annotations: string[] = [];
  for (const [k, v] of Object.entries(meta.annotations ?? {})) {
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(v)) {
      annotations.push(`${k}=${goQuote(v)}`);
    }
  }
  const badValueList = sortedSet(badValues);
  if (annotations.length > 0) {
    annotations.sort();
    badValueList.push(...annotations);
    badSetters.push(pluralize('annotation', 'annotations', annotations.length));
  }
  if (badSetters.length === 0) return ALLOWED;
  return forbiddenResult(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
  );
}

// --- capabilities_baseline (check_capabilities_baseline.go) ---

// capabilities_allowed_1_0: the container runtime's default set.
const CAPABILITIES_ALLOWED_1_0 = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

export const CHECK_CAPABILITIES_BASELINE_ID = 'capabilities_baseline';

function capabilitiesBaseline1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  const nonDefault: string[] = [];
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (caps == null) return;
    let valid = true;
    for (const cap of list(caps.add)) {
      if (!CAPABILITIES_ALLOWED_1_0.has(cap)) {
        valid = false;
        nonDefault.push(cap);
      }
    }
    if (!valid) badContainers.push(c.name ?? '');
  });
  if (badContainers.length === 0) return ALLOWED;
  return forbiddenResult(
    'non-default capabilities',
    `${containerList(badContainers)} must not include ${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`,
  );
}

// --- hostNamespaces (check_hostNamespaces.go) ---

function hostNamespaces1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push('hostNetwork=true');
  if (spec.hostPID === true) set.push('hostPID=true');
  if (spec.hostIPC === true) set.push('hostIPC=true');
  return set.length === 0 ? ALLOWED : forbiddenResult('host namespaces', set.join(', '));
}

// --- hostPathVolumes (check_hostPathVolumes.go) ---

export const CHECK_HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

function hostPathVolumes1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const names = list(spec.volumes)
    .filter((v) => v.hostPath != null)
    .map((v) => v.name ?? '');
  if (names.length === 0) return ALLOWED;
  return forbiddenResult('hostPath volumes', `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`);
}

// --- hostPorts (check_hostPorts.go) ---

function hostPorts1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const badContainers: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    let valid = true;
    for (const p of list(c.ports)) {
      if (p.hostPort != null && p.hostPort !== 0) {
        valid = false;
        ports.push(String(p.hostPort));
      }
    }
    if (!valid) badContainers.push(c.name ?? '');
  });
  if (badContainers.length === 0) return ALLOWED;
  const unique = sortedSet(ports);
  return forbiddenResult(
    'hostPort',
    `${containerList(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', unique.length)} ${unique.join(', ')}`,
  );
}

// --- privileged (check_privileged.go) ---

function privileged1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.privileged === true) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return ALLOWED;
  return forbiddenResult('privileged', `${containerList(bad)} must not set securityContext.privileged=true`);
}

// --- procMount (check_procMount.go) ---

// corev1.DefaultProcMount.
const DEFAULT_PROC_MOUNT = 'Default';

/**
 * procMount_1_0. Its user-namespace relaxation is gated by the alpha UserNamespacesPodSecurityStandards
 * feature, off by default in 1.32, so it does not apply.
 */
export function procMount1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (c) => {
    const pm = c.securityContext?.procMount;
    if (pm == null || pm === DEFAULT_PROC_MOUNT) return;
    bad.push(c.name ?? '');
    types.push(pm);
  });
  if (bad.length === 0) return ALLOWED;
  return forbiddenResult(
    'procMount',
    `${containerList(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  );
}

// --- seLinuxOptions (check_seLinuxOptions.go) ---

// selinuxAllowedTypes1_0 and selinuxAllowedTypes1_31 (container_engine_t allowed from v1.31).
const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

function seLinuxOptions(allowedTypes: ReadonlySet<string>) {
  return (_meta: PodMetadata, spec: PodSpec): CheckResult => {
    const badSetters: string[] = [];
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (o: SELinuxOptions): boolean => {
      let ok = true;
      const type = o.type ?? '';
      if (!allowedTypes.has(type)) {
        ok = false;
        badTypes.push(type);
      }
      if ((o.user ?? '').length > 0) {
        ok = false;
        setUser = true;
      }
      if ((o.role ?? '').length > 0) {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const podOpts = spec.securityContext?.seLinuxOptions;
    if (podOpts != null && !valid(podOpts)) badSetters.push('pod');
    const badContainers: string[] = [];
    visitContainers(spec, (c) => {
      const o = c.securityContext?.seLinuxOptions;
      if (o != null && !valid(o)) badContainers.push(c.name ?? '');
    });
    if (badContainers.length > 0) badSetters.push(containerList(badContainers));
    if (badSetters.length === 0) return ALLOWED;
    const badData: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length > 0) badData.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) badData.push('user may not be set');
    if (setRole) badData.push('role may not be set');
    return forbiddenResult(
      'seLinuxOptions',
      `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`,
    );
  };
}

// --- seccompProfile_baseline (check_seccompProfile_baseline.go) ---

export const CHECK_SECCOMP_BASELINE_ID = 'seccompProfile_baseline';
// annotationKeyPod, annotationKeyContainerPrefix.
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** validSeccomp: the profile types the baseline and restricted levels accept. */
export const validSeccompType = (t: string | null | undefined) => t === 'Localhost' || t === 'RuntimeDefault';

// corev1.SeccompProfileRuntimeDefault, DeprecatedSeccompProfileDockerDefault, SeccompLocalhostProfileNamePrefix.
const validSeccompAnnotation = (v: string) =>
  v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

/** seccompProfileBaselineV1Dot0: before v1.19 the profile was set by annotations. */
function seccompProfileBaseline1_0(meta: PodMetadata, spec: PodSpec): CheckResult {
  const annotations = meta.annotations ?? {};
  const forbidden = new Set<string>();
  const check = (key: string) => {
    if (!Object.hasOwn(annotations, key)) return;
    const v = annotations[key] as string;
    if (!validSeccompAnnotation(v)) forbidden.add(`${key}=${goQuote(v)}`);
  };
  check(SECCOMP_POD_ANNOTATION);
  visitContainers(spec, (c) => check(SECCOMP_CONTAINER_ANNOTATION_PREFIX + (c.name ?? '')));
  if (forbidden.size === 0) return ALLOWED;
  const values = [...forbidden].sort();
  return forbiddenResult(
    'seccompProfile',
    `forbidden ${pluralize('annotation', 'annotations', values.length)} ${values.join(', ')}`,
  );
}

/** seccompProfileBaselineV1Dot19: a set profile type must be RuntimeDefault or Localhost. */
function seccompProfileBaseline1_19(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile != null && !validSeccompType(podProfile.type)) {
    badSetters.push('pod');
    badValues.push(podProfile.type ?? '');
  }
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (p != null && !validSeccompType(p.type)) {
      bad.push(c.name ?? '');
      badValues.push(p.type ?? '');
    }
  });
  if (bad.length > 0) badSetters.push(containerList(bad));
  if (badSetters.length === 0) return ALLOWED;
  return forbiddenResult(
    'seccompProfile',
    `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
  );
}

// --- sysctls (check_sysctls.go) ---

// sysctlsAllowedV1Dot0, then what v1.27, v1.29 and v1.32 add (pkg/kubelet/sysctl/safe_sysctls.go).
const SYSCTLS_1_0 = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [
  ...SYSCTLS_1_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(allowedNames: readonly string[]) {
  const allowed = new Set(allowedNames);
  return (_meta: PodMetadata, spec: PodSpec): CheckResult => {
    const bad = list(spec.securityContext?.sysctls)
      .map((s) => s.name ?? '')
      .filter((n) => !allowed.has(n));
    return bad.length === 0 ? ALLOWED : forbiddenResult('forbidden sysctls', bad.join(', '));
  };
}

// --- windowsHostProcess (check_windowsHostProcess.go) ---

function windowsHostProcess1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c: Container) => {
    if (c.securityContext?.windowsOptions?.hostProcess === true) bad.push(c.name ?? '');
  });
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  if (bad.length > 0) setters.push(containerList(bad));
  if (setters.length === 0) return ALLOWED;
  return forbiddenResult(
    'hostProcess',
    `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
  );
}

/** The baseline checks, each with its revisions by the policy version they apply from. */
export const BASELINE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: appArmorProfile1_0 }] },
  {
    id: CHECK_CAPABILITIES_BASELINE_ID,
    level: 'baseline',
    versions: [{ minimumMinor: 0, checkPod: capabilitiesBaseline1_0 }],
  },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostNamespaces1_0 }] },
  { id: CHECK_HOST_PATH_VOLUMES_ID, level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPathVolumes1_0 }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPorts1_0 }] },
  { id: 'privileged', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: privileged1_0 }] },
  { id: 'procMount', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: procMount1_0 }] },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: seLinuxOptions(SELINUX_TYPES_1_0) },
      { minimumMinor: 31, checkPod: seLinuxOptions(SELINUX_TYPES_1_31) },
    ],
  },
  {
    id: CHECK_SECCOMP_BASELINE_ID,
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: seccompProfileBaseline1_0 },
      { minimumMinor: 19, checkPod: seccompProfileBaseline1_19 },
    ],
  },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: sysctls(SYSCTLS_1_0) },
      { minimumMinor: 27, checkPod: sysctls(SYSCTLS_1_27) },
      { minimumMinor: 29, checkPod: sysctls(SYSCTLS_1_29) },
      { minimumMinor: 32, checkPod: sysctls(SYSCTLS_1_32) },
    ],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: windowsHostProcess1_0 }] },
];
