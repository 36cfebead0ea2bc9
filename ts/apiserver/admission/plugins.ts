/**
 * The admission plugins kubewasm has, in kube-apiserver's order (pkg/kubeapiserver/options/
 * plugins.go AllOrderedPlugins, v1.32), and which of them run: kube-apiserver's default-enabled set
 * (DefaultOffAdmissionPlugins' complement), changed by --enable-admission-plugins and
 * --disable-admission-plugins as options/admission.go does.
 */
import { AdmissionChain } from './chain.js';
import { defaultStorageClassPlugin } from './default-storage-class.js';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.js';
import type { AdmissionDeps } from './deps.js';
import { limitRangerPlugin } from './limit-ranger.js';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.js';
import { podSecurityPlugin } from './pod-security/index.js';
import { priorityPlugin } from './priority.js';
import { resourceQuotaPlugin } from './resource-quota/index.js';
import { serviceAccountPlugin } from './service-account.js';
import { storageObjectInUseProtectionPlugin } from './storage-object-in-use-protection.js';
import type { AdmissionPlugin } from './types.js';

export type { AdmissionDeps } from './deps.js';

/**
 * Every plugin kubewasm has, in the order kube-apiserver runs them. A new plugin goes at its place
 * in AllOrderedPlugins (between the ones it sits between there); webhooks and ResourceQuota stay last.
 */
export function defaultAdmissionPlugins(deps: AdmissionDeps): AdmissionPlugin[] {
  return [
    namespaceLifecyclePlugin(deps),
    limitRangerPlugin(deps),
    serviceAccountPlugin(deps),
    // --- PodSecurity (pod-security/): podSecurityPlugin(deps) is registered on the next line. ---
    podSecurityPlugin(deps),
    // --- end PodSecurity ---
    priorityPlugin(deps),
    defaultTolerationSecondsPlugin(),
    defaultStorageClassPlugin(deps),
    storageObjectInUseProtectionPlugin(),
    // … further plugins (DefaultStorageClass, RuntimeClass, DefaultIngressClass, …) go here, in order …
    // --- ResourceQuota (resource-quota/), always last: resourceQuotaPlugin(deps) on the next line. ---
    resourceQuotaPlugin(deps),
    // --- end ResourceQuota ---
  ];
}

/**
 * DefaultOffAdmissionPlugins' complement (plugins.go defaultOnPlugins, v1.32), the names kubewasm
 * knows of included: what runs without --enable/--disable-admission-plugins.
 */
export const DEFAULT_ENABLED_PLUGINS: readonly string[] = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultStorageClass',
  'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'Priority',
  'TaintNodesByCondition',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'PodSecurity',
  'ValidatingAdmissionPolicy',
];

/**
 * AllOrderedPlugins (v1.32): every name kube-apiserver accepts in the flags. Those kubewasm does not
 * have are accepted and have no effect.
 */
export const ALL_ORDERED_PLUGINS: readonly string[] = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

/** --enable-admission-plugins / --disable-admission-plugins. */
export interface AdmissionPluginOptions {
  enable?: readonly string[];
  disable?: readonly string[];
  /** Exactly these plugins instead of the default-enabled set (the legacy --admission-control). */
  plugins?: readonly string[];
}

/**
 * kube-apiserver's option validation (k8s.io/apiserver pkg/server/options/admission.go Validate):
 * every name must be a plugin it knows, and none both enabled and disabled.
 */
export function validateAdmissionOptions(options: AdmissionPluginOptions): void {
  const known = new Set(ALL_ORDERED_PLUGINS);
  const enable = options.enable ?? [];
  const disable = options.disable ?? [];
  for (const [flag, names] of [
    ['enable-admission-plugins', enable],
    ['disable-admission-plugins', disable],
    ['admission-control', options.plugins ?? []],
  ] as const) {
    for (const name of names) {
      if (!known.has(name)) throw new Error(`${flag} plugin "${name}" is unknown`);
    }
  }
  const both = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
  // Go's %v of the sorted names.
  if (both.length > 0) {
    throw new Error(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
}

/** The chain for the options: (default-enabled ∪ enable) − disable, in plugin order. */
export function admissionChain(deps: AdmissionDeps, options: AdmissionPluginOptions = {}): AdmissionChain {
  validateAdmissionOptions(options);
  const disable = options.disable ?? [];
  const on = new Set([...(options.plugins ?? DEFAULT_ENABLED_PLUGINS), ...(options.enable ?? [])]);
  return new AdmissionChain(defaultAdmissionPlugins(deps).filter((p) => on.has(p.name) && !disable.includes(p.name)));
}

/** `kubewasm up`'s admission flags, named as kube-apiserver's. */
export const ADMISSION_FLAG_SPEC = {
  'enable-admission-plugins': 'string',
  'disable-admission-plugins': 'string',
} as const;

export const ADMISSION_FLAG_USAGE = `  --enable-admission-plugins NAMES   admission plugins to run beside the default ones (comma-separated)
  --disable-admission-plugins NAMES  default admission plugins not to run (comma-separated)`;

/** The admission options from the flags (comma-separated lists), checked (throws with the reason). */
export function admissionFlagOptions(
  values: Readonly<Record<string, string | boolean | undefined>>,
): AdmissionPluginOptions {
  const list = (v: string | boolean | undefined): string[] =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '')
      : [];
  const options = {
    enable: list(values['enable-admission-plugins']),
    disable: list(values['disable-admission-plugins']),
  };
  validateAdmissionOptions(options);
  return options;
}
