/**
 * The restricted checks of Kubernetes 1.32's Pod Security Standards
 * (k8s.io/pod-security-admission policy/check_*.go at release-1.32), with their exact reasons and
 * details. From v1.25 the Linux-only ones let `spec.os.name: windows` pods through.
 */
import { ALLOWED, type Check, type CheckPodFn, type CheckResult, forbiddenResult } from './check.js';
import {
  CHECK_CAPABILITIES_BASELINE_ID,
  CHECK_HOST_PATH_VOLUMES_ID,
  CHECK_SECCOMP_BASELINE_ID,
  validSeccompType,
} from './checks-baseline.js';
import {
  isWindowsPod,
  joinQuote,
  list,
  type PodMetadata,
  type PodSpec,
  pluralize,
  sortedSet,
  visitContainers,
} from './pod-spec.js';

const containerList = (names: readonly string[]) =>
  `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** The v1.25 revisions: Windows pods cannot set these Linux fields, so they are not asked to. */
const exemptWindows =
  (check: CheckPodFn): CheckPodFn =>
  (meta, spec) =>
    isWindowsPod(spec) ? ALLOWED : check(meta, spec);

// --- allowPrivilegeEscalation (check_allowPrivilegeEscalation.go) ---

function allowPrivilegeEscalation1_8(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return ALLOWED;
  return forbiddenResult(
    'allowPrivilegeEscalation != false',
    `${containerList(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
}

// --- capabilities_restricted (check_capabilities_restricted.go) ---

// capabilityAll, capabilityNetBindService.
const CAPABILITY_ALL = 'ALL';
const CAPABILITY_NET_BIND_SERVICE = 'NET_BIND_SERVICE';

function capabilitiesRestricted1_22(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (caps == null) {
      missingDropAll.push(c.name ?? '');
      return;
    }
    if (!list(caps.drop).includes(CAPABILITY_ALL)) missingDropAll.push(c.name ?? '');
    let added = false;
    for (const cap of list(caps.add)) {
      if (cap !== CAPABILITY_NET_BIND_SERVICE) {
        added = true;
        forbiddenCaps.push(cap);
      }
    }
    if (added) addingForbidden.push(c.name ?? '');
  });
  const details: string[] = [];
  if (missingDropAll.length > 0) {
    details.push(`${containerList(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  }
  if (addingForbidden.length > 0) {
    details.push(
      `${containerList(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`,
    );
  }
  return details.length === 0 ? ALLOWED : forbiddenResult('unrestricted capabilities', details.join('; '));
}

// --- restrictedVolumes (check_restrictedVolumes.go) ---

// The inline volume sources restricted allows (1.32: no `image`, added in 1.33).
const ALLOWED_VOLUME_SOURCES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];
// The sources it names, in the order the check tests them; any other is `unknown`.
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

function restrictedVolumes1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of list(spec.volumes)) {
    // A volume names its source by its one source field.
    const has = (source: string) => (v as Readonly<Record<string, unknown>>)[source] != null;
    if (ALLOWED_VOLUME_SOURCES.some(has)) continue;
    bad.push(v.name ?? '');
    types.push(RESTRICTED_VOLUME_SOURCES.find(has) ?? 'unknown');
  }
  if (bad.length === 0) return ALLOWED;
  const unique = sortedSet(types);
  return forbiddenResult(
    'restricted volume types',
    `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', unique.length)} ${joinQuote(unique)}`,
  );
}

// --- runAsNonRoot (check_runAsNonRoot.go) ---

/**
 * runAsNonRoot_1_0. Its user-namespace relaxation is gated by the alpha
 * UserNamespacesPodSecurityStandards feature, off by default in 1.32.
 */
function runAsNonRoot1_0(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  let podRunAsNonRoot = false;
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue != null) {
    if (podValue) podRunAsNonRoot = true;
    else badSetters.push('pod');
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const v = c.securityContext?.runAsNonRoot;
    if (v != null) {
      if (!v) explicitlyBad.push(c.name ?? '');
    } else if (!podRunAsNonRoot) {
      implicitlyBad.push(c.name ?? '');
    }
  });
  if (explicitlyBad.length > 0) badSetters.push(containerList(explicitlyBad));
  if (badSetters.length > 0) {
    return forbiddenResult(
      'runAsNonRoot != true',
      `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
    );
  }
  if (implicitlyBad.length > 0) {
    return forbiddenResult(
      'runAsNonRoot != true',
      `pod or ${containerList(implicitlyBad)} must set securityContext.runAsNonRoot=true`,
    );
  }
  return ALLOWED;
}

// --- runAsUser (check_runAsUser.go) ---

function runAsUser1_23(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) badSetters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.runAsUser === 0) bad.push(c.name ?? '');
  });
  if (bad.length > 0) badSetters.push(containerList(bad));
  if (badSetters.length === 0) return ALLOWED;
  return forbiddenResult('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`);
}

// --- seccompProfile_restricted (check_seccompProfile_restricted.go) ---

function seccompProfileRestricted1_19(_meta: PodMetadata, spec: PodSpec): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podSeccompSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile != null) {
    if (validSeccompType(podProfile.type)) podSeccompSet = true;
    else {
      badSetters.push('pod');
      badValues.push(podProfile.type ?? '');
    }
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (p != null) {
      if (!validSeccompType(p.type)) {
        explicitlyBad.push(c.name ?? '');
        badValues.push(p.type ?? '');
      }
    } else if (!podSeccompSet) {
      implicitlyBad.push(c.name ?? '');
    }
  });
  if (explicitlyBad.length > 0) badSetters.push(containerList(explicitlyBad));
  if (badSetters.length > 0) {
    return forbiddenResult(
      'seccompProfile',
      `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`,
    );
  }
  if (implicitlyBad.length > 0) {
    return forbiddenResult(
      'seccompProfile',
      `pod or ${containerList(implicitlyBad)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    );
  }
  return ALLOWED;
}

/** The restricted checks; `overrideCheckIDs` name the baseline checks each replaces while it applies. */
export const RESTRICTED_CHECKS: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    versions: [
      { minimumMinor: 8, checkPod: allowPrivilegeEscalation1_8 },
      { minimumMinor: 25, checkPod: exemptWindows(allowPrivilegeEscalation1_8) },
    ],
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    versions: [
      { minimumMinor: 22, checkPod: capabilitiesRestricted1_22, overrideCheckIDs: [CHECK_CAPABILITIES_BASELINE_ID] },
      {
        minimumMinor: 25,
        checkPod: exemptWindows(capabilitiesRestricted1_22),
        overrideCheckIDs: [CHECK_CAPABILITIES_BASELINE_ID],
      },
    ],
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    versions: [{ minimumMinor: 0, checkPod: restrictedVolumes1_0, overrideCheckIDs: [CHECK_HOST_PATH_VOLUMES_ID] }],
  },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimumMinor: 0, checkPod: runAsNonRoot1_0 }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimumMinor: 23, checkPod: runAsUser1_23 }] },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    versions: [
      { minimumMinor: 19, checkPod: seccompProfileRestricted1_19, overrideCheckIDs: [CHECK_SECCOMP_BASELINE_ID] },
      {
        minimumMinor: 25,
        checkPod: exemptWindows(seccompProfileRestricted1_19),
        overrideCheckIDs: [CHECK_SECCOMP_BASELINE_ID],
      },
    ],
  },
];
