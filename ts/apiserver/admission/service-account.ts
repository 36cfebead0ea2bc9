/**
 * The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go, v1.32), on
 * pod CREATE (the main resource only):
 * - mutating: spec.serviceAccountName defaults to `default`; the ServiceAccount must exist (403
 *   `error looking up service account <ns>/<name>: serviceaccount "<name>" not found`); unless the pod
 *   or else the ServiceAccount says automountServiceAccountToken: false, a projected
 *   `kube-api-access-<5 random>` volume (a 3607 s bound token, the `kube-root-ca.crt` ConfigMap's
 *   ca.crt, the namespace) is mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in
 *   every init container and container that has nothing mounted there; the ServiceAccount's
 *   imagePullSecrets when the pod has none;
 * - validating: the pod names a ServiceAccount that exists; with the ServiceAccount's
 *   `kubernetes.io/enforce-mountable-secrets: "true"`, only its secrets may be referenced.
 * Mirror pods (the kubelet's static pods) are only validated: no service account, no secrets, no
 * token projections. serviceAccountName is immutable through pod update validation, not here.
 */
import type { KubeObject } from '../../api/meta.js';
import { RESOURCES } from '../../client/resources.js';
import { generateName } from '../registry/generic/names.js';
import { admissionForbidden } from './chain.js';
import { type AdmissionDeps, realSleep } from './deps.js';
import { getObject, type Listed } from './lister.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

// serviceaccount.PluginName and the constants of admission.go.
export const SERVICE_ACCOUNT = 'ServiceAccount';
export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets';
export const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
// serviceaccount.WarnOnlyBoundTokenExpirationSeconds (pkg/serviceaccount/claims.go): 1 hour + 7 s.
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
// corev1.ProjectedVolumeSourceDefaultMode (0644).
export const PROJECTED_VOLUME_SOURCE_DEFAULT_MODE = 0o644;
// api.MirrorPodAnnotationKey (pkg/apis/core/annotation_key_constants.go).
export const MIRROR_POD_ANNOTATION_KEY = 'kubernetes.io/config.mirror';
// The root CA ConfigMap the root-ca-cert-publisher controller writes in every namespace.
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
// getServiceAccount: `default` is looked up 10 times (its controller may not have made it yet).
const DEFAULT_LOOKUP_ATTEMPTS = 10;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A ServiceAccount as the lister hands it out (read-only, shared). */
type ServiceAccount = Listed<typeof RESOURCES.serviceaccounts>;

/** TokenVolumeSource: the projected volume of the bound token, the root CA and the namespace. */
export function tokenVolumeSource(): Obj {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    // Set explicitly (kubernetes#104464).
    defaultMode: PROJECTED_VOLUME_SOURCE_DEFAULT_MODE,
  };
}

/**
 * getServiceAccount: the stored ServiceAccount; `default` is looked for again for a while (its
 * controller may be about to make it), every 100–199 ms. Missing → NotFound on `serviceaccount`.
 */
async function getServiceAccount(deps: AdmissionDeps, namespace: string, name: string): Promise<ServiceAccount> {
  const attempts = name === DEFAULT_SERVICE_ACCOUNT_NAME ? DEFAULT_LOOKUP_ATTEMPTS : 1;
  const interval = 100 + Math.floor(Math.random() * 100);
  for (let i = 0; i < attempts; i++) {
    if (i !== 0) await (deps.sleep ?? realSleep)(interval);
    const sa = await getObject(deps, RESOURCES.serviceaccounts, namespace, name);
    if (sa !== undefined) return sa;
  }
  // errors.NewNotFound(api.Resource("serviceaccount"), name).
  throw new Error(`serviceaccount "${name}" not found`);
}

async function lookup(deps: AdmissionDeps, a: AdmissionAttributes, name: string): Promise<ServiceAccount> {
  try {
    return await getServiceAccount(deps, a.namespace, name);
  } catch (err) {
    throw admissionForbidden(
      a,
      `error looking up service account ${a.namespace}/${name}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** shouldAutomount: the pod's choice, else the ServiceAccount's, else true. */
function shouldAutomount(sa: ServiceAccount, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof sa.automountServiceAccountToken === 'boolean') return sa.automountServiceAccountToken;
  return true;
}

/** mountServiceAccountToken. */
function mountServiceAccountToken(spec: Obj): void {
  const volumes = objs(spec.volumes);
  const existing = volumes.find((v) => str(v.name).startsWith(`${SERVICE_ACCOUNT_VOLUME_NAME}-`));
  const volumeName = existing !== undefined ? str(existing.name) : generateName(`${SERVICE_ACCOUNT_VOLUME_NAME}-`);
  let needsTokenVolume = false;
  for (const field of ['initContainers', 'containers']) {
    for (const c of objs(spec[field])) {
      const mounts = objs(c.volumeMounts);
      // An existing mount at the path keeps the token out of that container.
      if (mounts.some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [
        ...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []),
        { name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH },
      ];
      needsTokenVolume = true;
    }
  }
  if (existing === undefined && needsTokenVolume) {
    spec.volumes = [
      ...(Array.isArray(spec.volumes) ? spec.volumes : []),
      { name: volumeName, projected: tokenVolumeSource() },
    ];
  }
}

/** podutil.VisitPodSecretNames: whether the pod references any secret at all. */
function referencesSecrets(spec: Obj): boolean {
  if (objs(spec.imagePullSecrets).length > 0) return true;
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of objs(spec[field])) {
      if (objs(c.envFrom).some((e) => isObj(e.secretRef))) return true;
      if (objs(c.env).some((e) => isObj(e.valueFrom) && isObj(e.valueFrom.secretKeyRef))) return true;
    }
  }
  for (const v of objs(spec.volumes)) {
    if (isObj(v.secret)) return true;
    if (isObj(v.projected) && objs(v.projected.sources).some((s) => isObj(s.secret))) return true;
    for (const kind of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi']) {
      const src = v[kind];
      if (!isObj(src)) continue;
      if (isObj(src.secretRef) || str(src.secretName) !== '' || isObj(src.nodePublishSecretRef)) return true;
    }
  }
  return false;
}

/** limitSecretReferences: with enforcement on, the pod may use only the ServiceAccount's secrets. */
function limitSecretReferences(sa: ServiceAccount, spec: Obj): string | undefined {
  const saName = sa.metadata?.name ?? '';
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name ?? ''));
  for (const v of objs(spec.volumes)) {
    if (!isObj(v.secret)) continue;
    const secretName = str(v.secret.secretName);
    if (!mountable.has(secretName)) {
      return `volume with secret.secretName="${secretName}" is not allowed because service account ${saName} does not reference that secret`;
    }
  }
  for (const [field, label] of [
    ['initContainers', 'init container'],
    ['containers', 'container'],
  ] as const) {
    for (const c of objs(spec[field])) {
      for (const e of objs(c.env)) {
        const ref = isObj(e.valueFrom) && isObj(e.valueFrom.secretKeyRef) ? e.valueFrom.secretKeyRef : undefined;
        if (ref !== undefined && !mountable.has(str(ref.name))) {
          return `${label} ${str(c.name)} with envVar ${str(e.name)} referencing secret.secretName="${str(ref.name)}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
      for (const e of objs(c.envFrom)) {
        if (isObj(e.secretRef) && !mountable.has(str(e.secretRef.name))) {
          return `${label} ${str(c.name)} with envFrom referencing secret.secretName="${str(e.secretRef.name)}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
    }
  }
  const pullSecrets = new Set((sa.imagePullSecrets ?? []).map((s) => s.name ?? ''));
  let i = 0;
  for (const ref of objs(spec.imagePullSecrets)) {
    if (!pullSecrets.has(str(ref.name))) {
      return `imagePullSecrets[${i}].name="${str(ref.name)}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
    i++;
  }
  return undefined;
}

const isMirrorPod = (pod: Obj): boolean => {
  const annotations = (pod as KubeObject).metadata?.annotations;
  return annotations !== undefined && MIRROR_POD_ANNOTATION_KEY in annotations;
};

async function validatePod(deps: AdmissionDeps, a: AdmissionAttributes): Promise<void> {
  const pod = a.object;
  if (pod === undefined || a.operation !== 'CREATE') return;
  const spec: Obj = isObj(pod.spec) ? pod.spec : {};
  if (isMirrorPod(pod)) {
    if (str(spec.serviceAccountName) !== '') {
      throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
    }
    if (referencesSecrets(spec)) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
    for (const v of objs(spec.volumes)) {
      if (isObj(v.projected) && objs(v.projected.sources).some((s) => isObj(s.serviceAccountToken))) {
        throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      }
    }
    return;
  }
  const name = str(spec.serviceAccountName);
  if (name === '') {
    const podName = (pod as KubeObject).metadata?.name ?? '';
    throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${podName}`);
  }
  const sa = await lookup(deps, a, name);
  const enforce = sa.metadata?.annotations?.[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION];
  // strconv.ParseBool.
  if (enforce !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(enforce)) {
    const refused = limitSecretReferences(sa, spec);
    if (refused !== undefined) throw admissionForbidden(a, refused);
  }
}

export function serviceAccountPlugin(deps: AdmissionDeps): AdmissionPlugin {
  return {
    name: SERVICE_ACCOUNT,
    // shouldIgnore: pods only, and of the subresources only ephemeralcontainers (not served here).
    handles: (a) =>
      (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
      a.info.group === '' &&
      a.info.resource === 'pods' &&
      a.subresource === '' &&
      a.object !== undefined,
    async admit(a) {
      if (a.operation !== 'CREATE' || a.object === undefined) return;
      const pod = a.object;
      // The kubelet would delete a mirror pod whose spec was changed: only validate it.
      if (isMirrorPod(pod)) return validatePod(deps, a);
      if (!isObj(pod.spec)) pod.spec = {};
      const spec = pod.spec as Obj;
      // The v1 conversion reads the deprecated `serviceAccount` when serviceAccountName is empty.
      if (str(spec.serviceAccountName) === '' && str(spec.serviceAccount) !== '') {
        spec.serviceAccountName = spec.serviceAccount;
      }
      if (str(spec.serviceAccountName) === '') spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
      // …and writes it back as serviceAccountName (Convert_core_PodSpec_To_v1_PodSpec).
      spec.serviceAccount = spec.serviceAccountName;
      const sa = await lookup(deps, a, str(spec.serviceAccountName));
      if (shouldAutomount(sa, spec)) mountServiceAccountToken(spec);
      if (objs(spec.imagePullSecrets).length === 0 && (sa.imagePullSecrets ?? []).length > 0) {
        spec.imagePullSecrets = (sa.imagePullSecrets ?? []).map((s) => ({ name: s.name ?? '' }));
      }
      await validatePod(deps, a);
    },
    validate: (a) => validatePod(deps, a),
  };
}
