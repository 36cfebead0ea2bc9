/**
 * Persistent storage's validation (k8s.io/kubernetes v1.32): ValidatePersistentVolumeClaim(Update,
 * StatusUpdate) and ValidatePersistentVolume(Spec, Update, StatusUpdate) of
 * pkg/apis/core/validation/validation.go, ValidateStorageClass(Update) of
 * pkg/apis/storage/validation/validation.go — with a default 1.32's feature gates:
 * VolumeAttributesClass and RecoverVolumeExpansionFailure off (pkg/features/kube_features.go).
 * The volume sources checked in depth are hostPath, local, nfs and csi; every other in-tree source
 * counts towards "exactly one".
 */
import { type ErrorList, FieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../field-errors.js';
import { GoLiteral } from '../../go-format.js';
import type { KubeObject, LabelSelector } from '../../meta.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../persistent-volume.js';
import { compareQuantity, parseQuantity, quantityString } from '../../resource/quantity.js';
import { validateLabelSelector } from '../labels.js';
import { isDNS1123Label, isDNS1123Subdomain, nameIsDNSSubdomain } from '../names.js';
import { FIELD_IMMUTABLE_ERROR_MSG, validateImmutableField } from '../object-meta.js';
import {
  HOST_PATH_TYPES,
  validateCSIDriverName,
  validateNodeSelectorTerm,
  validatePathNoBacksteps,
  validateQuantityValue,
} from './pod.js';
import { arr, isObj, jsonEqual, type Obj, obj, qualifiedName, str } from './util.js';

/** validation.go supportedAccessModes (sets.List order). */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
/** validation.go supportedReclaimPolicy (core's: Recycle too). */
const PV_RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
/** pkg/apis/storage/validation supportedReclaimPolicy. */
const CLASS_RECLAIM_POLICIES = ['Delete', 'Retain'];
/** validation.go supportedVolumeModes. */
const VOLUME_MODES = ['Block', 'Filesystem'];
/** pkg/apis/storage/validation supportedVolumeBindingModes. */
const VOLUME_BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
/** pkg/apis/storage/validation maxProvisionerParameterLen and maxProvisionerParameterSize. */
const MAX_PROVISIONER_PARAMETER_LEN = 512;
const MAX_PROVISIONER_PARAMETER_SIZE = 256 * (1 << 10);

/**
 * The PersistentVolumeSource fields of core.PersistentVolumeSpec in the order ValidatePersistentVolumeSpec
 * visits them, with the path Kubernetes reports a second one on.
 */
const PV_SOURCES: readonly (readonly [field: string, pathName: string])[] = [
  ['hostPath', 'hostPath'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['nfs', 'nfs'],
  ['rbd', 'rbd'],
  ['quobyte', 'quobyte'],
  ['cephfs', 'cephFS'],
  ['iscsi', 'iscsi'],
  ['cinder', 'cinder'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['scaleIO', 'scaleIO'],
  ['local', 'local'],
  ['storageos', 'storageos'],
  ['csi', 'csi'],
];

/** The PersistentVolumeSource of a PV spec: the volume fields alone. */
export function persistentVolumeSource(spec: Obj): Obj {
  const out: Obj = {};
  for (const [field] of PV_SOURCES) if (spec[field] !== undefined && spec[field] !== null) out[field] = spec[field];
  return out;
}

/** core.PersistentVolumeAccessMode has no String(): Go quotes it. */
function accessModeErrors(modes: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  let rwop = false;
  let other = false;
  for (const m of modes) {
    const mode = str(m);
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported(path, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** ValidatePositiveQuantityValue + ValidateResourceQuantityValue for storage. */
function positiveQuantity(value: unknown, path: FieldPath): ErrorList {
  const q = parseQuantity(value);
  if ('error' in q) return [invalid(path, value, q.error)];
  if (q.num <= 0n) return [invalid(path, quantityString(q), 'must be greater than zero')];
  return validateQuantityValue('storage', value, path);
}

/** ValidateClassName (NameIsDNSSubdomain) of a class name field. */
function className(value: string, path: FieldPath): ErrorList {
  return nameIsDNSSubdomain(value, false).map((m) => invalid(path, value, m));
}

/** validatePVSecretReference. */
function secretReference(raw: unknown, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  const name = str(raw.name);
  if (name === '') errs.push(required(path.child('name'), ''));
  else errs.push(...isDNS1123Subdomain(name).map((m) => invalid(path.child('name'), name, m)));
  const ns = str(raw.namespace);
  if (ns === '') errs.push(required(path.child('namespace'), ''));
  else errs.push(...isDNS1123Label(ns).map((m) => invalid(path.child('namespace'), ns, m)));
  return errs;
}

/** The checks of the sources this cluster knows in depth (validateHostPathVolumeSource, …). */
function sourceErrors(field: string, s: Obj, path: FieldPath): ErrorList {
  switch (field) {
    case 'hostPath':
    case 'local': {
      const p = str(s.path);
      if (p === '') return [required(path.child('path'), '')];
      const errs = validatePathNoBacksteps(p, path.child('path'));
      if (field === 'hostPath' && typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type)) {
        errs.push(notSupported(path.child('type'), s.type, HOST_PATH_TYPES));
      }
      return errs;
    }
    case 'nfs': {
      const errs: ErrorList = [];
      if (str(s.server) === '') errs.push(required(path.child('server'), ''));
      if (str(s.path) === '') errs.push(required(path.child('path'), ''));
      if (!str(s.path).startsWith('/')) errs.push(invalid(path.child('path'), str(s.path), 'must be an absolute path'));
      return errs;
    }
    case 'csi': {
      const errs = validateCSIDriverName(str(s.driver), path.child('driver'));
      if (str(s.volumeHandle) === '') errs.push(required(path.child('volumeHandle'), ''));
      for (const ref of [
        'controllerPublishSecretRef',
        'controllerExpandSecretRef',
        'nodePublishSecretRef',
        'nodeExpandSecretRef',
      ]) {
        errs.push(...secretReference(s[ref], path.child(ref)));
      }
      return errs;
    }
    default:
      return [];
  }
}

/** validateVolumeNodeAffinity: whether one is given, and its errors. */
function volumeNodeAffinity(raw: unknown, path: FieldPath): [boolean, ErrorList] {
  if (!isObj(raw)) return [false, []];
  if (!isObj(raw.required)) return [true, [required(path.child('required'), 'must specify required node constraints')]];
  const termsPath = path.child('required', 'nodeSelectorTerms');
  const terms = arr(raw.required.nodeSelectorTerms);
  const errs: ErrorList = [];
  if (terms.length === 0) errs.push(required(termsPath, 'must have at least one node selector term'));
  terms.forEach((t, i) => {
    errs.push(...validateNodeSelectorTerm(obj(t), true, termsPath.index(i)));
  });
  return [true, errs];
}

/** ValidatePersistentVolumeSpec (not inline). */
export function validatePersistentVolumeSpec(spec: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const modes = arr(spec.accessModes);
  if (modes.length === 0) errs.push(required(path.child('accessModes'), ''));
  errs.push(...accessModeErrors(modes, path.child('accessModes')));

  const capacity = obj(spec.capacity);
  const capacityKeys = Object.keys(capacity);
  if (capacityKeys.length === 0) errs.push(required(path.child('capacity'), ''));
  if (!Object.hasOwn(capacity, 'storage') || capacityKeys.length > 1) {
    errs.push(notSupported(path.child('capacity'), new GoLiteral(goResourceList(capacity)), ['storage']));
  }
  for (const [r, q] of Object.entries(capacity)) errs.push(...positiveQuantity(q, path.child('capacity').key(r)));

  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && !PV_RECLAIM_POLICIES.includes(policy)) {
    errs.push(notSupported(path.child('persistentVolumeReclaimPolicy'), policy, PV_RECLAIM_POLICIES));
  }

  const [affinity, affinityErrs] = volumeNodeAffinity(spec.nodeAffinity, path.child('nodeAffinity'));
  errs.push(...affinityErrs);

  let volumes = 0;
  for (const [field, pathName] of PV_SOURCES) {
    const s = spec[field];
    if (s === undefined || s === null) continue;
    // flexVolume is counted without the "more than 1" check, as Kubernetes does.
    if (volumes > 0 && field !== 'flexVolume') {
      errs.push(forbidden(path.child(pathName), 'may not specify more than 1 volume type'));
      continue;
    }
    volumes++;
    errs.push(...sourceErrors(field, obj(s), path.child(pathName)));
    if (field === 'local' && !affinity) {
      errs.push(required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
    }
  }
  if (volumes === 0) errs.push(required(path, 'must specify a volume type'));

  if (isObj(spec.hostPath) && cleanPath(str(spec.hostPath.path)) === '/' && policy === 'Recycle') {
    errs.push(
      forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"),
    );
  }
  const cls = str(spec.storageClassName);
  if (cls !== '') errs.push(...className(cls, path.child('storageClassName')));
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(notSupported(path.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  }
  return errs;
}

/** path.Clean, enough to recognise `/`. */
function cleanPath(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return p.startsWith('/') ? `/${parts.join('/')}` : parts.join('/') || '.';
}

/** A core.ResourceList as `%v` prints it: `map[storage:{{…}}]` — shortened to the quantities Kubernetes shows. */
function goResourceList(list: Obj): string {
  return `map[${Object.keys(list)
    .sort()
    .map((k) => `${k}:${str(list[k])}`)
    .join(' ')}]`;
}

/** ValidatePersistentVolume (the object-meta checks are the apiserver's). */
export function validatePersistentVolume(pv: KubeObject): ErrorList {
  return validatePersistentVolumeSpec(obj((pv as Obj).spec), FieldPath.root('spec'));
}

/** The persistentvolume strategy's ValidateUpdate: the new object, then ValidatePersistentVolumeUpdate. */
export function validatePersistentVolumeUpdate(pv: KubeObject, old: KubeObject): ErrorList {
  // The strategy validates the new object, and so does ValidatePersistentVolumeUpdate: twice.
  const errs = [...validatePersistentVolume(pv), ...validatePersistentVolume(pv)];
  const spec = obj((pv as Obj).spec);
  const oldSpec = obj((old as Obj).spec);
  const source = persistentVolumeSource(spec);
  const oldSource = persistentVolumeSource(oldSpec);
  // A controllerExpandSecretRef may be added once.
  if (isObj(oldSource.csi) && oldSource.csi.controllerExpandSecretRef === undefined && isObj(source.csi)) {
    const { controllerExpandSecretRef: _, ...rest } = source.csi;
    source.csi = rest;
  }
  if (!jsonEqual(source, oldSource)) {
    errs.push(
      forbidden(
        FieldPath.root('spec', 'persistentvolumesource'),
        `spec.persistentvolumesource is immutable after creation\n${specDiff('core.PersistentVolumeSource', oldSource, source)}`,
      ),
    );
  }
  errs.push(...validateImmutableField(spec.volumeMode, oldSpec.volumeMode, FieldPath.root('volumeMode')));
  if (oldSpec.nodeAffinity !== undefined && oldSpec.nodeAffinity !== null) {
    if (!jsonEqual(spec.nodeAffinity ?? null, oldSpec.nodeAffinity)) {
      errs.push(invalid(FieldPath.root('nodeAffinity'), new GoLiteral('<nodeAffinity>'), FIELD_IMMUTABLE_ERROR_MSG));
    }
  }
  if (!jsonEqual(spec.volumeAttributesClassName ?? null, oldSpec.volumeAttributesClassName ?? null)) {
    errs.push(
      forbidden(
        FieldPath.root('spec', 'volumeAttributesClassName'),
        'update is forbidden when the VolumeAttributesClass feature gate is disabled',
      ),
    );
  }
  return errs;
}

/** ValidatePersistentVolumeStatusUpdate, less ObjectMeta's (the apiserver's). */
export function validatePersistentVolumeStatusUpdate(pv: KubeObject): ErrorList {
  return pv.metadata?.resourceVersion ? [] : [required(FieldPath.root('resourceVersion'), '')];
}

/** ValidatePersistentVolumeClaimSpec. */
export function validatePersistentVolumeClaimSpec(spec: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const modes = arr(spec.accessModes);
  if (modes.length === 0) errs.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  if (isObj(spec.selector)) {
    errs.push(...validateLabelSelector(spec.selector as LabelSelector, {}, path.child('selector')));
  }
  errs.push(...accessModeErrors(modes, path.child('accessModes')));
  const requests = obj(obj(spec.resources).requests);
  const storagePath = path.child('resources').key('storage');
  if (!Object.hasOwn(requests, 'storage')) errs.push(required(storagePath, ''));
  else errs.push(...positiveQuantity(requests.storage, storagePath));
  const cls = str(spec.storageClassName);
  if (cls !== '') errs.push(...className(cls, path.child('storageClassName')));
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(notSupported(path.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  }
  for (const field of ['dataSource', 'dataSourceRef']) {
    const ds = spec[field];
    if (!isObj(ds)) continue;
    const p = path.child(field);
    if (str(ds.name) === '') errs.push(required(p.child('name'), ''));
    const kind = str(ds.kind);
    if (kind === '') errs.push(required(p.child('kind'), ''));
    const apiGroup = str(ds.apiGroup);
    if (apiGroup === '' && kind !== 'PersistentVolumeClaim') {
      errs.push(invalid(p, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
    }
    if (apiGroup !== '')
      errs.push(...isDNS1123Subdomain(apiGroup).map((m) => invalid(p.child('apiGroup'), apiGroup, m)));
  }
  return errs;
}

/** ValidatePersistentVolumeClaim (the object-meta checks are the apiserver's). */
export function validatePersistentVolumeClaim(pvc: KubeObject): ErrorList {
  return validatePersistentVolumeClaimSpec(obj((pvc as Obj).spec), FieldPath.root('spec'));
}

/** The persistentvolumeclaim strategy's ValidateUpdate: the new claim, then ValidatePersistentVolumeClaimUpdate. */
export function validatePersistentVolumeClaimUpdate(pvc: KubeObject, old: KubeObject): ErrorList {
  // The strategy validates the new claim, and so does ValidatePersistentVolumeClaimUpdate: twice.
  const errs = [...validatePersistentVolumeClaim(pvc), ...validatePersistentVolumeClaim(pvc)];
  const o = pvc as Obj;
  const spec = structuredClone(obj(o.spec));
  const oldSpec = structuredClone(obj((old as Obj).spec));
  const annotations = pvc.metadata?.annotations ?? {};
  const oldAnnotations = old.metadata?.annotations ?? {};
  // volumeName may be set once (the PV controller binds through it).
  if (str(oldSpec.volumeName) === '') oldSpec.volumeName = spec.volumeName;
  const oldBeta = oldAnnotations[BETA_STORAGE_CLASS_ANNOTATION];
  const newBeta = annotations[BETA_STORAGE_CLASS_ANNOTATION];
  const newClass = typeof spec.storageClassName === 'string' ? spec.storageClassName : undefined;
  const oldClass = typeof oldSpec.storageClassName === 'string' ? oldSpec.storageClassName : undefined;
  if (
    oldBeta !== undefined &&
    oldClass === undefined &&
    newClass === oldBeta &&
    (newBeta === undefined || newBeta === oldBeta)
  ) {
    delete spec.storageClassName;
  } else {
    if ((newBeta ?? '') !== (oldBeta ?? '')) {
      errs.push(
        invalid(
          FieldPath.root('metadata').child('annotations').key(BETA_STORAGE_CLASS_ANNOTATION),
          newBeta ?? '',
          FIELD_IMMUTABLE_ERROR_MSG,
        ),
      );
    }
    // A class may be set on a claim that had none (and agrees with its beta annotation).
    if (newClass !== undefined && oldClass === undefined && (oldBeta === undefined || newClass === oldBeta)) {
      spec.storageClassName = oldSpec.storageClassName;
      if (spec.storageClassName === undefined) delete spec.storageClassName;
    }
  }
  const bound = str(obj(o.status).phase) === 'Bound';
  if (bound && isObj(obj(spec.resources).requests)) {
    const requests = obj(obj(spec.resources).requests);
    const oldRequests = obj(obj(oldSpec.resources).requests);
    if (oldRequests.storage === undefined) delete requests.storage;
    else requests.storage = oldRequests.storage;
  }
  if (!jsonEqual(spec, oldSpec)) {
    errs.push(
      forbidden(
        FieldPath.root('spec'),
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff('core.PersistentVolumeClaimSpec', oldSpec, spec)}`,
      ),
    );
  }
  const newSize = parseQuantity(obj(obj(obj(o.spec).resources).requests).storage ?? '0');
  const oldSize = parseQuantity(obj(obj(obj((old as Obj).spec).resources).requests).storage ?? '0');
  if (!('error' in newSize) && !('error' in oldSize) && compareQuantity(newSize, oldSize) < 0) {
    errs.push(
      forbidden(
        FieldPath.root('spec', 'resources', 'requests', 'storage'),
        'field can not be less than previous value',
      ),
    );
  }
  errs.push(
    ...validateImmutableField(obj(o.spec).volumeMode, obj((old as Obj).spec).volumeMode, FieldPath.root('volumeMode')),
  );
  if (
    !jsonEqual(obj(o.spec).volumeAttributesClassName ?? null, obj((old as Obj).spec).volumeAttributesClassName ?? null)
  ) {
    errs.push(
      forbidden(
        FieldPath.root('spec', 'volumeAttributesClassName'),
        'update is forbidden when the VolumeAttributesClass feature gate is disabled',
      ),
    );
  }
  return errs;
}

/** ValidatePersistentVolumeClaimStatusUpdate, less ObjectMeta's. */
export function validatePersistentVolumeClaimStatusUpdate(pvc: KubeObject): ErrorList {
  const o = pvc as Obj;
  const errs: ErrorList = [];
  if (!pvc.metadata?.resourceVersion) errs.push(required(FieldPath.root('resourceVersion'), ''));
  if (arr(obj(o.spec).accessModes).length === 0) errs.push(required(FieldPath.root('Spec', 'accessModes'), ''));
  const capPath = FieldPath.root('status', 'capacity');
  for (const [r, q] of Object.entries(obj(obj(o.status).capacity))) {
    errs.push(...validateQuantityValue(r, q, capPath.key(r)));
  }
  return errs;
}

/**
 * cmp.Diff of two specs, in its shape (`  core.X{`, `- \tField: old,`, `+ \tField: new,`, `  }`);
 * the values are JSON, not Go literals, and go-cmp's own output is deliberately unstable.
 */
function specDiff(type: string, oldSpec: Obj, newSpec: Obj): string {
  const lines = [`  ${type}{`];
  const keys = [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])];
  for (const k of keys) {
    if (jsonEqual(oldSpec[k] ?? null, newSpec[k] ?? null)) continue;
    const field = k.charAt(0).toUpperCase() + k.slice(1);
    if (oldSpec[k] !== undefined) lines.push(`- \t${field}: ${JSON.stringify(oldSpec[k])},`);
    if (newSpec[k] !== undefined) lines.push(`+ \t${field}: ${JSON.stringify(newSpec[k])},`);
  }
  lines.push('  }');
  return `${lines.join('\n')}\n`;
}

/** ValidateStorageClass (the object-meta checks are the apiserver's). */
export function validateStorageClass(sc: KubeObject): ErrorList {
  const o = sc as Obj;
  const errs: ErrorList = [];
  const provisioner = str(o.provisioner);
  if (provisioner === '') errs.push(required(FieldPath.root('provisioner'), provisioner));
  else errs.push(...qualifiedName(provisioner.toLowerCase(), FieldPath.root('provisioner')));
  const params = obj(o.parameters);
  const keys = Object.keys(params);
  if (keys.length > MAX_PROVISIONER_PARAMETER_LEN) {
    errs.push(tooLong(FieldPath.root('parameters'), MAX_PROVISIONER_PARAMETER_LEN));
  } else {
    let size = 0;
    for (const k of keys) {
      if (k.length < 1) errs.push(invalid(FieldPath.root('parameters'), k, 'field can not be empty.'));
      size += k.length + str(params[k]).length;
    }
    if (size > MAX_PROVISIONER_PARAMETER_SIZE) {
      errs.push(tooLong(FieldPath.root('parameters'), MAX_PROVISIONER_PARAMETER_SIZE));
    }
  }
  const policy = str(o.reclaimPolicy);
  if (policy !== '' && !CLASS_RECLAIM_POLICIES.includes(policy)) {
    errs.push(notSupported(FieldPath.root('reclaimPolicy'), policy, CLASS_RECLAIM_POLICIES));
  }
  const mode = o.volumeBindingMode;
  if (mode === undefined || mode === null) errs.push(required(FieldPath.root('volumeBindingMode'), ''));
  else if (!VOLUME_BINDING_MODES.includes(str(mode))) {
    errs.push(notSupported(FieldPath.root('volumeBindingMode'), str(mode), VOLUME_BINDING_MODES));
  }
  return errs;
}

/** The storageclass strategy's ValidateUpdate: the new class, then ValidateStorageClassUpdate. */
export function validateStorageClassUpdate(sc: KubeObject, old: KubeObject): ErrorList {
  const o = sc as Obj;
  const prev = old as Obj;
  const errs = validateStorageClass(sc);
  if (!jsonEqual(o.parameters ?? null, prev.parameters ?? null)) {
    errs.push(forbidden(FieldPath.root('parameters'), 'updates to parameters are forbidden.'));
  }
  if (str(o.provisioner) !== str(prev.provisioner)) {
    errs.push(forbidden(FieldPath.root('provisioner'), 'updates to provisioner are forbidden.'));
  }
  if (str(o.reclaimPolicy) !== str(prev.reclaimPolicy)) {
    errs.push(forbidden(FieldPath.root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  }
  errs.push(
    ...validateImmutableField(o.volumeBindingMode, prev.volumeBindingMode, FieldPath.root('volumeBindingMode')),
  );
  return errs;
}
