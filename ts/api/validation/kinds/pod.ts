/**
 * Pod and pod template validation (k8s.io/kubernetes pkg/apis/core/validation/validation.go v1.32:
 * ValidatePodCreate, ValidatePodSpec, ValidatePodTemplateSpec, ValidatePodUpdate and the container,
 * port, env, volume, resource, probe, toleration and affinity checks they call), with Kubernetes'
 * messages and field paths.
 *
 * The fields the v1 defaulters always fill (pkg/apis/core/v1/defaults.go: restartPolicy, dnsPolicy,
 * terminationGracePeriodSeconds, a container's terminationMessagePolicy and imagePullPolicy, a
 * port's protocol, a probe's thresholds) are read with those defaults when absent or empty, so the
 * result is Kubernetes' whether or not the caller defaulted the object first.
 */
import {
  duplicate,
  type ErrorList,
  FieldError,
  FieldPath,
  forbidden,
  invalid,
  notFound,
  notSupported,
  required,
  tooLong,
} from '../../field-errors.js';
import { byteLength, GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject, LabelSelector } from '../../meta.js';
import {
  compareQuantity,
  isNegative,
  isWholeAtMilli,
  parseQuantity,
  quantityGoValue,
  quantityString,
} from '../../resource/quantity.js';
import { isConfigMapKey, isHTTPHeaderName, isRelaxedEnvVarName, isValidPortName, isValidPortNum } from '../formats.js';
import { validateLabelName, validateLabelSelector, validateLabels } from '../labels.js';
import {
  inclusiveRangeError,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSSubdomain,
  validateNamespaceName,
} from '../names.js';
import { validateAnnotations } from '../object-meta.js';
import { INVALID_IP_MSG, parseIPSloppy } from './ip.js';
import {
  arr,
  cloneJson,
  dns1123Label,
  dns1123Subdomain,
  goPointer,
  goStringSlice,
  intOrString,
  isObj,
  jsonEqual,
  nonNegative,
  num,
  type Obj,
  obj,
  qualifiedName,
  str,
  strMap,
} from './util.js';

// validation.go: supportedPortProtocols, supportedPullPolicies, the restart and DNS policies,
// supportedHTTPSchemes, the termination message policies, taint effects and toleration operators
// (each list sorted where Kubernetes prints sets.List, in declaration order otherwise).
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
/** validation.go updatablePodSpecFields. */
const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];
/** math.MaxInt32. */
const MAX_INT32 = 2147483647;
/** validation.go fileModeErrorMsg. */
const FILE_MODE_ERROR_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
/** The volume sources in the order validateVolumeSource checks them. */
const VOLUME_SOURCES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
];
/** validEnvDownwardAPIFieldPathExpressions (sorted). */
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
/** validContainerResourceFieldPathExpressions (sorted). */
const ENV_RESOURCE_FIELDS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
/** The labels pkg/apis/core/pods ConvertDownwardAPIFieldLabel accepts for v1. */
const DOWNWARD_API_LABELS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
  'spec.host',
];
/** helper.standardContainerResources. */
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** helper.standardResources. */
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
  'requests.storage',
]);
/** helper.integerResources. */
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

/** The `restartPolicy` Kubernetes' defaulter leaves: Always when unset. */
export function restartPolicyOf(spec: Obj): string {
  return str(spec.restartPolicy) || 'Always';
}

/**
 * SetDefaults_Container's pull policy: Always when parsers.ParseImageName finds the tag `latest`
 * (also the implied one), else IfNotPresent — including references it cannot parse (empty,
 * whitespace, upper case in the name) and digests.
 */
function defaultPullPolicy(image: string): string {
  if (image === '' || /\s/.test(image) || image.includes('@')) return 'IfNotPresent';
  const slash = image.lastIndexOf('/');
  const colon = image.indexOf(':', slash + 1);
  const name = colon < 0 ? image : image.slice(0, colon);
  if (/[A-Z]/.test(name.slice(name.indexOf('/') + 1))) return 'IfNotPresent';
  return colon < 0 || image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

// --- resource names and quantities (helper/helpers.go) ---

const isHugePages = (n: string): boolean => n.startsWith('hugepages-');
const isNativeResource = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/');
const isExtendedResource = (n: string): boolean =>
  !isNativeResource(n) && !n.startsWith('requests.') && isQualifiedName(`requests.${n}`).length === 0;
const isOvercommitAllowed = (n: string): boolean => isNativeResource(n) && !isHugePages(n);
/** IsStandardResourceName: the quota names too (`requests.hugepages-…` counts as hugepages). */
const isStandardResourceName = (n: string): boolean =>
  STANDARD_RESOURCES.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-');
export const isIntegerResourceName = (n: string): boolean => INTEGER_RESOURCES.has(n) || isExtendedResource(n);

/** validateResourceName. */
export function validateResourceName(name: string, path: FieldPath): ErrorList {
  const v = resourceNameValue(name);
  const errs = isQualifiedName(name).map((m) => invalid(path, v, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    return [invalid(path, v, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** core.ResourceName has a String() method, so Kubernetes prints it unquoted. */
export const resourceNameValue = (name: string): GoLiteral => new GoLiteral(name);

/** validateContainerResourceName. */
function validateContainerResourceName(name: string, path: FieldPath): ErrorList {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
      errs.push(invalid(path, resourceNameValue(name), 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    errs.push(invalid(path, resourceNameValue(name), "doesn't follow extended resource name standard"));
  }
  return errs;
}

/**
 * ValidateResourceQuantityValue: not negative, whole for integer resources. A value that is no
 * quantity at all fails decoding in Kubernetes (400); here it is reported as Invalid on its field.
 */
export function validateQuantityValue(resource: string, value: unknown, path: FieldPath): ErrorList {
  const q = parseQuantity(value);
  if ('error' in q) return [invalid(path, value, q.error)];
  const errs: ErrorList = [];
  if (isNegative(q)) errs.push(invalid(path, quantityString(q), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(resource) && !isWholeAtMilli(q)) {
    errs.push(invalid(path, quantityGoValue(value, q), 'must be an integer'));
  }
  return errs;
}

/** validateResourceRequirements for a container (limits, requests ≤ limits, hugepages). */
export function validateResourceRequirements(
  requirements: Obj,
  path: FieldPath,
  nameFn: (n: string, p: FieldPath) => ErrorList = validateContainerResourceName,
): ErrorList {
  const errs: ErrorList = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = obj(requirements.limits);
  const requests = obj(requirements.requests);
  let limCpuMem = false;
  let reqCpuMem = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits)) {
    const p = limPath.key(name);
    errs.push(...nameFn(name, p), ...validateQuantityValue(name, value, p));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const [name, value] of Object.entries(requests)) {
    const p = reqPath.key(name);
    errs.push(...nameFn(name, p), ...validateQuantityValue(name, value, p));
    const q = parseQuantity(value);
    if (Object.hasOwn(limits, name)) {
      const l = parseQuantity(limits[name]);
      if (!('error' in q) && !('error' in l)) {
        const cmp = compareQuantity(q, l);
        if (cmp !== 0 && !isOvercommitAllowed(name)) {
          errs.push(invalid(reqPath, quantityString(q), `must be equal to ${name} limit of ${quantityString(l)}`));
        } else if (cmp > 0) {
          errs.push(
            invalid(reqPath, quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(l)}`),
          );
        }
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && hugePages) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

// --- containers ---

/** ValidatePortNumOrName. */
export function validatePortNumOrName(port: unknown, path: FieldPath): ErrorList {
  const v = intOrString(port);
  if (v?.type === 'string') return isValidPortName(v.value).map((m) => invalid(path, v.value, m));
  const n = v?.type === 'int' ? v.value : 0;
  return isValidPortNum(n).map((m) => invalid(path, n, m));
}

function validateContainerPorts(ports: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  ports.forEach((raw, i) => {
    const port = obj(raw);
    const p = path.index(i);
    const name = str(port.name);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const m of msgs) errs.push(invalid(p.child('name'), name, m));
      else if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
    const containerPort = num(port.containerPort) ?? 0;
    if (containerPort === 0) errs.push(required(p.child('containerPort'), ''));
    else for (const m of isValidPortNum(containerPort)) errs.push(invalid(p.child('containerPort'), containerPort, m));
    const hostPort = num(port.hostPort) ?? 0;
    if (hostPort !== 0) for (const m of isValidPortNum(hostPort)) errs.push(invalid(p.child('hostPort'), hostPort, m));
    const protocol = str(port.protocol) || 'TCP';
    if (!PORT_PROTOCOLS.includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, PORT_PROTOCOLS));
  });
  return errs;
}

function validateEnv(vars: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  vars.forEach((raw, i) => {
    const ev = obj(raw);
    const p = path.index(i);
    const name = str(ev.name);
    if (name.length === 0) errs.push(required(p.child('name'), ''));
    else for (const m of isRelaxedEnvVarName(name)) errs.push(invalid(p.child('name'), name, m));
    errs.push(...validateEnvVarValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

/** validateEnvVarValueFrom: exactly one source, `value` not beside it, each source's required fields. */
function validateEnvVarValueFrom(ev: Obj, path: FieldPath): ErrorList {
  if (!isObj(ev.valueFrom)) return [];
  const from = ev.valueFrom;
  const errs: ErrorList = [];
  let sources = 0;
  if (isObj(from.fieldRef)) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, path.child('fieldRef')));
  }
  if (isObj(from.resourceFieldRef)) {
    sources++;
    const p = path.child('resourceFieldRef');
    const resource = str(from.resourceFieldRef.resource);
    if (resource === '') errs.push(required(p.child('resource'), ''));
    else if (
      !ENV_RESOURCE_FIELDS.includes(resource) &&
      !resource.startsWith('requests.hugepages-') &&
      !resource.startsWith('limits.hugepages-')
    ) {
      errs.push(notSupported(p.child('resource'), resource, ENV_RESOURCE_FIELDS));
    }
  }
  for (const [field, nameField] of [
    ['configMapKeyRef', 'name'],
    ['secretKeyRef', 'name'],
  ] as const) {
    const ref = from[field];
    if (!isObj(ref)) continue;
    sources++;
    const p = path.child(field);
    // ValidateSecretName even when empty: an empty name fails the subdomain regex.
    const refName = str(ref[nameField]);
    for (const m of isDNS1123Subdomain(refName)) errs.push(invalid(p.child('name'), refName, m));
    const key = str(ref.key);
    if (key === '') errs.push(required(p.child('key'), ''));
    else for (const m of isConfigMapKey(key)) errs.push(invalid(p.child('key'), key, m));
  }
  if (sources === 0) {
    errs.push(
      invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'),
    );
  } else if (str(ev.value) !== '') {
    errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  } else if (sources > 1) {
    errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  }
  return errs;
}

/** validateObjectFieldSelector for env (apiVersion defaults to v1). */
function validateObjectFieldSelector(
  fs: Obj,
  path: FieldPath,
  expressions: readonly string[] = ENV_FIELD_PATHS,
): ErrorList {
  const apiVersion = str(fs.apiVersion) || 'v1';
  const fieldPath = str(fs.fieldPath);
  if (fieldPath === '') return [required(path.child('fieldPath'), '')];
  // podshelper.ConvertDownwardAPIFieldLabel.
  if (apiVersion !== 'v1') {
    return [
      invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: unsupported pod version: ${apiVersion}`),
    ];
  }
  const m = /^(.*)\['(.*)'\]$/.exec(fieldPath);
  if (m) {
    const base = m[1] ?? '';
    const subscript = m[2] ?? '';
    if (base === 'metadata.annotations') return qualifiedName(subscript.toLowerCase(), path);
    if (base === 'metadata.labels') return qualifiedName(subscript, path);
    return [
      invalid(
        path.child('fieldPath'),
        fieldPath,
        `error converting fieldPath: field label does not support subscript: ${fieldPath}`,
      ),
    ];
  }
  if (!DOWNWARD_API_LABELS.includes(fieldPath)) {
    return [
      invalid(
        path.child('fieldPath'),
        fieldPath,
        `error converting fieldPath: field label not supported: ${fieldPath}`,
      ),
    ];
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  if (!expressions.includes(internal)) return [notSupported(path.child('fieldPath'), internal, expressions)];
  return [];
}

function validateVolumeMounts(mounts: unknown[], volumes: ReadonlySet<string>, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const mountPoints = new Set<string>();
  mounts.forEach((raw, i) => {
    const mnt = obj(raw);
    const p = path.index(i);
    const name = str(mnt.name);
    const mountPath = str(mnt.mountPath);
    if (name.length === 0) errs.push(required(p.child('name'), ''));
    if (!volumes.has(name)) errs.push(notFound(p.child('name'), name));
    if (mountPath.length === 0) errs.push(required(p.child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    const subPath = str(mnt.subPath);
    const subPathExpr = str(mnt.subPathExpr);
    // Kubernetes reports these two on the list's path, not the entry's.
    if (subPath.length > 0) errs.push(...validateLocalDescendingPath(subPath, path.child('subPath')));
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) {
        errs.push(invalid(p.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      }
      errs.push(...validateLocalDescendingPath(subPathExpr, path.child('subPathExpr')));
    }
  });
  return errs;
}

function validateLocalDescendingPath(target: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (target.startsWith('/')) errs.push(invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

export function validatePathNoBacksteps(target: string, path: FieldPath): ErrorList {
  return target.split('/').includes('..') ? [invalid(path, target, "must not contain '..'")] : [];
}

/** validateHandler over a probe or lifecycle handler: exactly one handler type. */
function validateHandler(h: Obj, path: FieldPath, kinds: readonly string[]): ErrorList {
  const errs: ErrorList = [];
  let count = 0;
  for (const kind of kinds) {
    const action = h[kind];
    if (!isObj(action)) continue;
    const p = path.child(kind);
    if (count > 0) {
      errs.push(forbidden(p, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    switch (kind) {
      case 'exec':
        if (arr(action.command).length === 0) errs.push(required(p.child('command'), ''));
        break;
      case 'httpGet': {
        errs.push(...validatePortNumOrName(action.port, p.child('port')));
        const scheme = str(action.scheme) || 'HTTP';
        if (!HTTP_SCHEMES.includes(scheme)) errs.push(notSupported(p.child('scheme'), scheme, HTTP_SCHEMES));
        for (const header of arr(action.httpHeaders)) {
          const name = str(obj(header).name);
          for (const m of isHTTPHeaderName(name)) errs.push(invalid(p.child('httpHeaders'), name, m));
        }
        break;
      }
      case 'tcpSocket':
        errs.push(...validatePortNumOrName(action.port, p.child('port')));
        break;
      case 'grpc':
        errs.push(...validatePortNumOrName(num(action.port) ?? 0, p.child('port')));
        break;
      case 'sleep': {
        const seconds = num(action.seconds) ?? 0;
        if (seconds <= 0) errs.push(invalid(p.child('seconds'), seconds, 'must be greater than 0'));
        break;
      }
    }
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

type ProbeKind = 'liveness' | 'readiness' | 'startup';

function validateProbe(raw: unknown, kind: ProbeKind, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs = validateHandler(raw, path, PROBE_HANDLERS);
  // SetDefaults_Probe: timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3.
  const successThreshold = num(raw.successThreshold) || 1;
  errs.push(
    ...nonNegative(num(raw.initialDelaySeconds) ?? 0, path.child('initialDelaySeconds')),
    ...nonNegative(num(raw.timeoutSeconds) || 1, path.child('timeoutSeconds')),
    ...nonNegative(num(raw.periodSeconds) || 10, path.child('periodSeconds')),
    ...nonNegative(successThreshold, path.child('successThreshold')),
    ...nonNegative(num(raw.failureThreshold) || 3, path.child('failureThreshold')),
  );
  const tgps = num(raw.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) {
    errs.push(invalid(path.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  }
  if (kind !== 'readiness' && successThreshold !== 1) {
    errs.push(invalid(path.child('successThreshold'), successThreshold, 'must be 1'));
  }
  if (kind === 'readiness' && tgps !== undefined) {
    errs.push(invalid(path.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'));
  }
  return errs;
}

function validateLifecycle(raw: unknown, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  if (isObj(raw.postStart)) errs.push(...validateHandler(raw.postStart, path.child('postStart'), LIFECYCLE_HANDLERS));
  if (isObj(raw.preStop)) errs.push(...validateHandler(raw.preStop, path.child('preStop'), LIFECYCLE_HANDLERS));
  return errs;
}

/** validateContainerCommon. */
function validateContainerCommon(c: Obj, volumes: ReadonlySet<string>, path: FieldPath, hostUsers = true): ErrorList {
  const errs: ErrorList = [];
  const name = str(c.name);
  if (name.length === 0) errs.push(required(path.child('name'), ''));
  else errs.push(...dns1123Label(name, path.child('name')));
  const image = str(c.image);
  if (image.length === 0) errs.push(required(path.child('image'), ''));
  const tmp = str(c.terminationMessagePolicy) || 'File';
  if (!TERMINATION_MESSAGE_POLICIES.includes(tmp)) {
    errs.push(notSupported(path.child('terminationMessagePolicy'), tmp, TERMINATION_MESSAGE_POLICIES));
  }
  errs.push(...validateContainerPorts(arr(c.ports), path.child('ports')));
  errs.push(...validateEnv(arr(c.env), path.child('env')));
  errs.push(...validateEnvFrom(arr(c.envFrom), path.child('envFrom')));
  errs.push(...validateVolumeMounts(arr(c.volumeMounts), volumes, path.child('volumeMounts')));
  const pull = str(c.imagePullPolicy) || defaultPullPolicy(image);
  if (!PULL_POLICIES.includes(pull)) errs.push(notSupported(path.child('imagePullPolicy'), pull, PULL_POLICIES));
  errs.push(...validateResourceRequirements(obj(c.resources), path.child('resources')));
  errs.push(...validateContainerSecurityContext(c.securityContext, hostUsers, path.child('securityContext')));
  return errs;
}

function validateContainers(
  list: unknown[],
  volumes: ReadonlySet<string>,
  path: FieldPath,
  hostUsers: boolean,
): ErrorList {
  if (list.length === 0) return [required(path, '')];
  const errs: ErrorList = [];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = obj(raw);
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, p, hostUsers));
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
    errs.push(...validateLifecycle(c.lifecycle, p.child('lifecycle')));
    errs.push(...validateProbe(c.livenessProbe, 'liveness', p.child('livenessProbe')));
    errs.push(...validateProbe(c.readinessProbe, 'readiness', p.child('readinessProbe')));
    errs.push(...validateProbe(c.startupProbe, 'startup', p.child('startupProbe')));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      errs.push(forbidden(p.child('restartPolicy'), 'may not be set for non-init containers'));
    }
  });
  errs.push(...checkHostPortConflicts(list, path));
  return errs;
}

/** checkHostPortConflicts: a hostPort/protocol/hostIP may be used once across the containers. */
function checkHostPortConflicts(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  list.forEach((raw, ci) => {
    arr(obj(raw).ports).forEach((rp, pi) => {
      const port = obj(rp);
      const hostPort = num(port.hostPort) ?? 0;
      if (hostPort === 0) return;
      const key = `${str(port.protocol) || 'TCP'}/${str(port.hostIP)}/${hostPort}`;
      if (seen.has(key)) {
        errs.push(duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      }
      seen.add(key);
    });
  });
  return errs;
}

function validateInitContainers(
  list: unknown[],
  regular: unknown[],
  volumes: ReadonlySet<string>,
  path: FieldPath,
  hostUsers: boolean,
): ErrorList {
  const errs: ErrorList = [];
  const names = new Set(regular.map((c) => str(obj(c).name)));
  list.forEach((raw, i) => {
    const c = obj(raw);
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, p, hostUsers));
    let restartAlways = false;
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      const rp = str(c.restartPolicy);
      if (rp !== 'Always') errs.push(notSupported(p.child('restartPolicy'), rp, ['Always']));
      restartAlways = rp === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name.length > 0) names.add(name);
    errs.push(...checkHostPortConflicts([c], path));
    if (restartAlways) {
      errs.push(...validateLifecycle(c.lifecycle, p.child('lifecycle')));
      errs.push(...validateProbe(c.livenessProbe, 'liveness', p.child('livenessProbe')));
      errs.push(...validateProbe(c.readinessProbe, 'readiness', p.child('readinessProbe')));
      errs.push(...validateProbe(c.startupProbe, 'startup', p.child('startupProbe')));
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[field] !== undefined && c[field] !== null) {
          errs.push(forbidden(p.child(field), 'may not be set for init containers without restartPolicy=Always'));
        }
      }
    }
  });
  return errs;
}

// --- volumes ---

function validateVolumeSource(v: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  let count = 0;
  for (const source of VOLUME_SOURCES) {
    const s = v[source];
    if (s === undefined || s === null) continue;
    const p = path.child(source);
    if (count > 0) {
      errs.push(forbidden(p, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    const o = obj(s);
    switch (source) {
      case 'hostPath': {
        const hp = str(o.path);
        if (hp.length === 0) {
          errs.push(required(p.child('path'), ''));
          break;
        }
        errs.push(...validatePathNoBacksteps(hp, p.child('path')));
        if (typeof o.type === 'string' && !HOST_PATH_TYPES.includes(o.type)) {
          errs.push(notSupported(p.child('type'), o.type, HOST_PATH_TYPES));
        }
        break;
      }
      case 'secret':
        if (str(o.secretName) === '') errs.push(required(p.child('secretName'), ''));
        errs.push(...validateMode(o.defaultMode, p.child('defaultMode')), ...validateItems(o.items, p.child('items')));
        break;
      case 'configMap':
        if (str(o.name) === '') errs.push(required(p.child('name'), ''));
        errs.push(...validateMode(o.defaultMode, p.child('defaultMode')), ...validateItems(o.items, p.child('items')));
        break;
      case 'persistentVolumeClaim':
        if (str(o.claimName) === '') errs.push(required(p.child('claimName'), ''));
        break;
      case 'nfs':
        if (str(o.server) === '') errs.push(required(p.child('server'), ''));
        if (str(o.path) === '') errs.push(required(p.child('path'), ''));
        if (!str(o.path).startsWith('/')) errs.push(invalid(p.child('path'), str(o.path), 'must be an absolute path'));
        break;
      case 'csi':
        errs.push(...validateCSIDriverName(str(o.driver), p.child('driver')));
        if (isObj(o.nodePublishSecretRef)) {
          const secret = str(o.nodePublishSecretRef.name);
          if (secret === '') errs.push(required(p.child('nodePublishSecretRef', 'name'), ''));
          // Kubernetes reports a bad secret name on `csi.name`.
          else for (const m of isDNS1123Subdomain(secret)) errs.push(invalid(p.child('name'), secret, m));
        }
        break;
      case 'downwardAPI':
        errs.push(...validateMode(o.defaultMode, p.child('defaultMode')));
        for (const f of arr(o.items)) errs.push(...validateDownwardAPIVolumeFile(obj(f), p));
        break;
      case 'projected':
        errs.push(...validateMode(o.defaultMode, p.child('defaultMode')));
        errs.push(...validateProjectionSources(o, p));
        break;
      case 'emptyDir':
        if (o.sizeLimit !== undefined) {
          const q = parseQuantity(o.sizeLimit);
          if ('error' in q) errs.push(invalid(p.child('sizeLimit'), o.sizeLimit, q.error));
          else if (isNegative(q)) {
            errs.push(forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
          }
        }
        break;
    }
  }
  // SetDefaults_Volume makes a volume without a source an emptyDir, so Kubernetes'
  // "must specify a volume type" cannot trigger.
  return errs;
}

/** supportedHostPathTypes (sets.List order; "" is HostPathUnset). */
export const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];
/** validVolumeDownwardAPIFieldPathExpressions (sorted). */
const VOLUME_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];
/** ValidateCSIDriverName's length limit. */
const CSI_DRIVER_NAME_MAX_LENGTH = 63;

/** ValidateCSIDriverName. */
export function validateCSIDriverName(driver: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (driver.length === 0) errs.push(required(path, ''));
  if (byteLength(driver) > CSI_DRIVER_NAME_MAX_LENGTH) errs.push(tooLong(path, CSI_DRIVER_NAME_MAX_LENGTH));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(path, driver, m));
  return errs;
}

/** ValidateLocalNonReservedPath. */
function validateLocalNonReservedPath(target: string, path: FieldPath): ErrorList {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../'))
    errs.push(invalid(path, target, "must not start with '..'"));
  return errs;
}

/** validateDownwardAPIVolumeFile (errors on the volume source's path, as Kubernetes reports them). */
function validateDownwardAPIVolumeFile(file: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const target = str(file.path);
  if (target === '') errs.push(required(path.child('path'), ''));
  errs.push(...validateLocalNonReservedPath(target, path.child('path')));
  if (isObj(file.fieldRef)) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, path.child('fieldRef'), VOLUME_FIELD_PATHS));
    if (isObj(file.resourceFieldRef)) {
      errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    }
  } else if (isObj(file.resourceFieldRef)) {
    const ref = file.resourceFieldRef;
    const rp = path.child('resourceFieldRef');
    const resource = str(ref.resource);
    if (str(ref.containerName) === '') errs.push(required(rp.child('containerName'), ''));
    else if (resource === '') errs.push(required(rp.child('resource'), ''));
    else if (
      !ENV_RESOURCE_FIELDS.includes(resource) &&
      !resource.startsWith('requests.hugepages-') &&
      !resource.startsWith('limits.hugepages-')
    ) {
      errs.push(notSupported(rp.child('resource'), resource, ENV_RESOURCE_FIELDS));
    }
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateMode(file.mode, path.child('mode')));
  return errs;
}

/** validateProjectionSources (less clusterTrustBundle): one type per source, distinct paths. */
function validateProjectionSources(projection: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const paths = new Set<string>();
  const seen = (p: string): boolean => {
    if (paths.has(p)) return true;
    paths.add(p);
    return false;
  };
  arr(projection.sources).forEach((raw, i) => {
    const source = obj(raw);
    const sp = path.child('sources').index(i);
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      if (!isObj(source[kind])) continue;
      count++;
      const src = source[kind] as Obj;
      const name = str(src.name);
      if (name === '') errs.push(required(sp.child(kind, 'name'), ''));
      arr(src.items).forEach((item, j) => {
        const kp = obj(item);
        errs.push(...validateItems([kp], sp.child(kind, 'items')).map((e) => reindex(e, j)));
        if (str(kp.path) !== '' && seen(str(kp.path))) errs.push(invalid(path, name, 'conflicting duplicate paths'));
      });
    }
    if (isObj(source.downwardAPI)) {
      count++;
      for (const f of arr(source.downwardAPI.items)) {
        const file = obj(f);
        errs.push(...validateDownwardAPIVolumeFile(file, sp.child('downwardAPI')));
        if (str(file.path) !== '' && seen(str(file.path)))
          errs.push(invalid(path, str(file.path), 'conflicting duplicate paths'));
      }
    }
    if (isObj(source.serviceAccountToken)) {
      count++;
      const token = source.serviceAccountToken;
      const tp = sp.child('serviceAccountToken');
      // SetDefaults_ServiceAccountTokenProjection: one hour.
      const expiration = num(token.expirationSeconds) ?? 3600;
      if (expiration < 10 * 60) {
        errs.push(
          invalid(tp.child('expirationSeconds'), expiration, 'may not specify a duration less than 10 minutes'),
        );
      }
      if (expiration > 2 ** 32) {
        errs.push(
          invalid(tp.child('expirationSeconds'), expiration, 'may not specify a duration larger than 2^32 seconds'),
        );
      }
      // Kubernetes reports the token path on the projected volume's path.
      if (str(token.path) === '') errs.push(required(path.child('path'), ''));
      else errs.push(...validateLocalNonReservedPath(str(token.path), path.child('path')));
    }
    if (count > 1) errs.push(forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** validateItems reports `[0]`; a projected source's item keeps its own index. */
function reindex(e: FieldError, j: number): FieldError {
  return new FieldError(e.type, e.field.replace(/\.items\[0\]/, `.items[${j}]`), e.badValue, e.detail);
}

function validateMode(mode: unknown, path: FieldPath): ErrorList {
  const m = num(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [invalid(path, m, FILE_MODE_ERROR_MSG)] : [];
}

function validateItems(items: unknown, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  arr(items).forEach((raw, i) => {
    const kp = obj(raw);
    const p = path.index(i);
    if (str(kp.key) === '') errs.push(required(p.child('key'), ''));
    const target = str(kp.path);
    if (target === '') errs.push(required(p.child('path'), ''));
    // ValidateLocalNonReservedPath: a relative path without '..' that does not start with '..'.
    errs.push(...validateLocalDescendingPath(target, p.child('path')));
    if (target.startsWith('..') && !target.startsWith('../')) {
      errs.push(invalid(p.child('path'), target, "must not start with '..'"));
    }
    errs.push(...validateMode(kp.mode, p.child('mode')));
  });
  return errs;
}

/** ValidateVolumes: the names of the valid volumes and the errors. */
function validateVolumes(list: unknown[], path: FieldPath): { names: Set<string>; errs: ErrorList } {
  const names = new Set<string>();
  const errs: ErrorList = [];
  list.forEach((raw, i) => {
    const v = obj(raw);
    const p = path.index(i);
    const name = str(v.name);
    const el = validateVolumeSource(v, p);
    if (name.length === 0) el.push(required(p.child('name'), ''));
    else el.push(...dns1123Label(name, p.child('name')));
    if (names.has(name)) el.push(duplicate(p.child('name'), name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { names, errs };
}

// --- scheduling: tolerations, affinity ---

/** ValidateTolerations. */
export function validateTolerations(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  list.forEach((raw, i) => {
    const t = obj(raw);
    const p = path.index(i);
    const key = str(t.key);
    const operator = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key.length > 0) errs.push(...validateLabelName(key, p.child('key')));
    if (key.length === 0 && operator !== 'Exists') {
      errs.push(
        invalid(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (num(t.tolerationSeconds) !== undefined && effect !== 'NoExecute') {
      errs.push(invalid(p.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(value);
        if (msgs.length > 0) errs.push(invalid(p.child('operator'), value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value.length > 0) {
          errs.push(invalid(p.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
        }
        break;
      default:
        errs.push(notSupported(p.child('operator'), operator, TOLERATION_OPERATORS));
    }
    if (effect.length > 0 && !TAINT_EFFECTS.includes(effect)) {
      errs.push(notSupported(p.child('effect'), effect, TAINT_EFFECTS));
    }
  });
  return errs;
}

function validateNodeSelectorRequirement(rq: Obj, allowInvalidValues: boolean, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const values = arr(rq.values).map(str);
  const operator = str(rq.operator);
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) {
        errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) {
        errs.push(
          forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) {
        errs.push(required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      }
      break;
    default:
      errs.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(rq.key), path.child('key')));
  if (!allowInvalidValues) {
    values.forEach((v, i) => {
      for (const m of isValidLabelValue(v)) errs.push(invalid(path.child('values').index(i), v, m));
    });
  }
  return errs;
}

function validateNodeFieldSelectorRequirement(rq: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const values = arr(rq.values).map(str);
  const operator = str(rq.operator);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) {
      errs.push(
        required(
          path.child('values'),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    }
  } else {
    errs.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
  }
  const key = str(rq.key);
  if (key !== 'metadata.name') {
    errs.push(invalid(path.child('key'), key, 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => {
      for (const m of isDNS1123Subdomain(v)) errs.push(invalid(path.child('values').index(i), v, m));
    });
  }
  return errs;
}

export function validateNodeSelectorTerm(term: Obj, allowInvalidValues: boolean, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  arr(term.matchExpressions).forEach((rq, j) => {
    errs.push(...validateNodeSelectorRequirement(obj(rq), allowInvalidValues, path.child('matchExpressions').index(j)));
  });
  arr(term.matchFields).forEach((rq, j) => {
    errs.push(...validateNodeFieldSelectorRequirement(obj(rq), path.child('matchFields').index(j)));
  });
  return errs;
}

function validatePodAffinityTerm(term: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (isObj(term.labelSelector)) {
    errs.push(...validateLabelSelector(term.labelSelector as LabelSelector, {}, path.child('labelSelector')));
  }
  if (isObj(term.namespaceSelector)) {
    errs.push(...validateLabelSelector(term.namespaceSelector as LabelSelector, {}, path.child('namespaceSelector')));
  }
  for (const ns of arr(term.namespaces).map(str)) {
    for (const m of validateNamespaceName(ns, false)) errs.push(invalid(path.child('namespace'), ns, m));
  }
  const topologyKey = str(term.topologyKey);
  if (topologyKey.length === 0) errs.push(required(path.child('topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, path.child('topologyKey')));
  return errs;
}

function validateAffinityTerms(a: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const req = path.child('requiredDuringSchedulingIgnoredDuringExecution');
  arr(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    errs.push(...validatePodAffinityTerm(obj(t), req.index(i)));
  });
  const pref = path.child('preferredDuringSchedulingIgnoredDuringExecution');
  arr(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw, j) => {
    const w = obj(raw);
    const weight = num(w.weight) ?? 0;
    if (weight <= 0 || weight > 100)
      errs.push(invalid(pref.index(j).child('weight'), weight, 'must be in the range 1-100'));
    errs.push(...validatePodAffinityTerm(obj(w.podAffinityTerm), pref.index(j).child('podAffinityTerm')));
  });
  return errs;
}

/** validateAffinity: node affinity terms, pod (anti-)affinity terms and weights. */
function validateAffinity(raw: unknown, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  if (isObj(raw.nodeAffinity)) {
    const na = raw.nodeAffinity;
    const p = path.child('nodeAffinity');
    if (isObj(na.requiredDuringSchedulingIgnoredDuringExecution)) {
      const termsPath = p.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
      const terms = arr(na.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms);
      if (terms.length === 0) errs.push(required(termsPath, 'must have at least one node selector term'));
      terms.forEach((t, i) => {
        errs.push(...validateNodeSelectorTerm(obj(t), true, termsPath.index(i)));
      });
    }
    const pref = p.child('preferredDuringSchedulingIgnoredDuringExecution');
    arr(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw2, i) => {
      const term = obj(raw2);
      const weight = num(term.weight) ?? 0;
      if (weight <= 0 || weight > 100) {
        errs.push(invalid(pref.index(i).child('weight'), weight, 'must be in the range 1-100'));
      }
      errs.push(...validateNodeSelectorTerm(obj(term.preference), true, pref.index(i).child('preference')));
    });
  }
  if (isObj(raw.podAffinity)) errs.push(...validateAffinityTerms(raw.podAffinity, path.child('podAffinity')));
  if (isObj(raw.podAntiAffinity))
    errs.push(...validateAffinityTerms(raw.podAntiAffinity, path.child('podAntiAffinity')));
  return errs;
}

function validateImagePullSecrets(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  list.forEach((raw, i) => {
    const ref = obj(raw);
    if (Object.keys(ref).some((k) => k !== 'name')) {
      errs.push(
        invalid(
          path.index(i),
          new GoLiteral(`core.LocalObjectReference{Name:${JSON.stringify(str(ref.name))}}`),
          'only name may be set',
        ),
      );
    }
  });
  return errs;
}

// --- env sources, DNS, host aliases, topology spread ---

/** ValidateEnvFrom: a relaxed-name prefix, exactly one of configMapRef / secretRef with a name. */
function validateEnvFrom(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  list.forEach((raw, i) => {
    const ev = obj(raw);
    const p = path.index(i);
    const prefix = str(ev.prefix);
    if (prefix.length > 0)
      for (const m of isRelaxedEnvVarName(prefix)) errs.push(invalid(p.child('prefix'), prefix, m));
    let sources = 0;
    for (const field of ['configMapRef', 'secretRef']) {
      if (!isObj(ev[field])) continue;
      sources++;
      const name = str((ev[field] as Obj).name);
      const np = p.child(field, 'name');
      // ValidateConfigMapName / ValidateSecretName with prefix=true.
      if (name.length === 0) errs.push(required(np, ''));
      else for (const m of nameIsDNSSubdomain(name, true)) errs.push(invalid(np, name, m));
    }
    // Kubernetes reports these two on the list's path.
    if (sources === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

// validation.go MaxDNSNameservers, MaxDNSSearchPaths, MaxDNSSearchListChars.
const MAX_DNS_NAMESERVERS = 3;
const MAX_DNS_SEARCH_PATHS = 32;
const MAX_DNS_SEARCH_LIST_CHARS = 2048;

/** validatePodDNSConfig (RelaxedDNSSearchValidation is off in 1.32). */
function validatePodDNSConfig(raw: unknown, dnsPolicy: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (dnsPolicy === 'None') {
    if (!isObj(raw)) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (arr(raw.nameservers).length === 0) {
      return [required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
    }
  }
  if (!isObj(raw)) return errs;
  const nameservers = arr(raw.nameservers).map(str);
  if (nameservers.length > MAX_DNS_NAMESERVERS) {
    errs.push(
      invalid(
        path.child('nameservers'),
        new GoLiteral(goStringSlice(nameservers)),
        `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`,
      ),
    );
  }
  nameservers.forEach((ns, i) => {
    if (parseIPSloppy(ns) === undefined) errs.push(invalid(path.child('nameservers').index(i), ns, INVALID_IP_MSG));
  });
  const searches = arr(raw.searches).map(str);
  if (searches.length > MAX_DNS_SEARCH_PATHS) {
    errs.push(
      invalid(
        path.child('searches'),
        new GoLiteral(goStringSlice(searches)),
        `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`,
      ),
    );
  }
  if (searches.join(' ').length > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(
      invalid(
        path.child('searches'),
        new GoLiteral(goStringSlice(searches)),
        `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`,
      ),
    );
  }
  searches.forEach((search, i) => {
    errs.push(...dns1123Subdomain(search.replace(/\.$/, ''), path.child('searches').index(i)));
  });
  arr(raw.options).forEach((o, i) => {
    if (str(obj(o).name).length === 0) errs.push(required(path.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

/** ValidateHostAliases. */
function validateHostAliases(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  list.forEach((raw, i) => {
    const ha = obj(raw);
    const ip = str(ha.ip);
    if (parseIPSloppy(ip) === undefined) errs.push(invalid(path.index(i).child('ip'), ip, INVALID_IP_MSG));
    arr(ha.hostnames).forEach((h, j) => {
      errs.push(...dns1123Subdomain(str(h), path.index(i).child('hostnames').index(j)));
    });
  });
  return errs;
}

// validation.go supportedScheduleActions and supportedPodTopologySpreadNodePolicies (sorted).
const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** validateTopologySpreadConstraints. */
function validateTopologySpreadConstraints(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const constraints = list.map(obj);
  constraints.forEach((c, i) => {
    const p = path.index(i);
    const maxSkew = num(c.maxSkew) ?? 0;
    if (maxSkew <= 0) errs.push(invalid(p.child('maxSkew'), maxSkew, 'must be greater than zero'));
    const topologyKey = str(c.topologyKey);
    if (topologyKey.length === 0) errs.push(required(p.child('topologyKey'), 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (!SCHEDULE_ACTIONS.includes(action))
      errs.push(notSupported(p.child('whenUnsatisfiable'), action, SCHEDULE_ACTIONS));
    if (
      constraints.slice(i + 1).some((r) => str(r.topologyKey) === topologyKey && str(r.whenUnsatisfiable) === action)
    ) {
      errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${topologyKey}, ${action}}`));
    }
    const minDomains = num(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(invalid(p.child('minDomains'), minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') {
        errs.push(
          invalid(
            p.child('minDomains'),
            minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`,
          ),
        );
      }
    }
    for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (typeof c[field] === 'string' && !NODE_INCLUSION_POLICIES.includes(c[field] as string)) {
        errs.push(notSupported(p.child(field), c[field], NODE_INCLUSION_POLICIES));
      }
    }
    const keys = arr(c.matchLabelKeys).map(str);
    const selector = isObj(c.labelSelector) ? (c.labelSelector as LabelSelector) : undefined;
    if (keys.length > 0) {
      const selectorKeys = new Set([
        ...Object.keys(selector?.matchLabels ?? {}),
        ...(selector?.matchExpressions ?? []).map((e) => e.key),
      ]);
      if (selector === undefined)
        errs.push(forbidden(p.child('matchLabelKeys'), 'must not be specified when labelSelector is not set'));
      keys.forEach((k, j) => {
        errs.push(...validateLabelName(k, p.child('matchLabelKeys').index(j)));
        if (selectorKeys.has(k))
          errs.push(invalid(p.child('matchLabelKeys').index(j), k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errs.push(...validateLabelSelector(selector, {}, p.child('labelSelector')));
  });
  return errs;
}

// --- security contexts ---

/** math.MaxInt32: user and group IDs go up to it in 1.32 (IsValidUserID / IsValidGroupID). */
function validateID(v: unknown, path: FieldPath): ErrorList {
  const n = num(v);
  if (n === undefined) return [];
  return n >= 0 && n <= MAX_INT32 ? [] : [invalid(path, n, inclusiveRangeError(0, MAX_INT32))];
}

// validation.go validFSGroupChangePolicies and validSupplementalGroupsPolicies (sorted),
// validateSeccompProfileType, ValidateAppArmorProfileField and ValidateProcMountType (in order).
const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];
const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict'];
const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const PROC_MOUNT_TYPES = ['Default', 'Unmasked'];
/** ValidateAppArmorProfileField: PATH_MAX - 1. */
const MAX_LOCALHOST_PROFILE_LENGTH = 4095;

/** Go's `%#v` of a *core.SeccompProfile dereferenced. */
function seccompProfileValue(sp: Obj): GoLiteral {
  return new GoLiteral(
    `core.SeccompProfile{Type:${goQuote(str(sp.type))}, LocalhostProfile:${goPointer('string', sp.localhostProfile)}}`,
  );
}

/** validateSeccompProfileField. */
function validateSeccompProfile(raw: unknown, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  const type = str(raw.type);
  if (type === '') errs.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!PROFILE_TYPES.includes(type)) errs.push(notSupported(path.child('type'), type, PROFILE_TYPES));
  const local = raw.localhostProfile;
  if (type === 'Localhost') {
    if (typeof local !== 'string') {
      errs.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    } else {
      errs.push(...validateLocalDescendingPath(local, path.child('localhostProfile')));
    }
  } else if (typeof local === 'string') {
    errs.push(
      invalid(
        path.child('localhostProfile'),
        seccompProfileValue(raw),
        'can only be set when seccomp type is Localhost',
      ),
    );
  }
  return errs;
}

/** ValidateAppArmorProfileField. */
function validateAppArmorProfile(raw: unknown, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  const type = str(raw.type);
  const local = raw.localhostProfile;
  const lp = path.child('localhostProfile');
  switch (type) {
    case 'Localhost':
      if (typeof local !== 'string') {
        errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
      } else {
        if (local.trim() !== local) errs.push(invalid(lp, local, 'must not be padded with whitespace'));
        else if (local === '') errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
        if (byteLength(local) > MAX_LOCALHOST_PROFILE_LENGTH) errs.push(tooLong(lp, MAX_LOCALHOST_PROFILE_LENGTH));
      }
      break;
    case 'RuntimeDefault':
    case 'Unconfined':
      if (typeof local === 'string') errs.push(invalid(lp, local, 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      errs.push(required(path.child('type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errs.push(notSupported(path.child('type'), type, PROFILE_TYPES));
  }
  return errs;
}

/** validatePodSpecSecurityContext (less sysctls, Windows options and SELinux). */
function validatePodSecurityContext(spec: Obj, path: FieldPath): ErrorList {
  const sc = obj(spec.securityContext);
  const errs: ErrorList = [];
  errs.push(...validateID(sc.fsGroup, path.child('fsGroup')));
  errs.push(...validateID(sc.runAsUser, path.child('runAsUser')));
  errs.push(...validateID(sc.runAsGroup, path.child('runAsGroup')));
  arr(sc.supplementalGroups).forEach((g, i) => {
    errs.push(...validateID(g, path.child('supplementalGroups').index(i)));
  });
  // v1 keeps shareProcessNamespace and hostPID in the pod spec; Kubernetes reports them here.
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(
      invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'),
    );
  }
  if (typeof sc.fsGroupChangePolicy === 'string' && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy)) {
    errs.push(notSupported(path.child('fsGroupChangePolicy'), sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  errs.push(...validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  if (
    typeof sc.supplementalGroupsPolicy === 'string' &&
    !SUPPLEMENTAL_GROUPS_POLICIES.includes(sc.supplementalGroupsPolicy)
  ) {
    errs.push(
      notSupported(path.child('supplementalGroupsPolicy'), sc.supplementalGroupsPolicy, SUPPLEMENTAL_GROUPS_POLICIES),
    );
  }
  return errs;
}

/** Go's `%#v` of a core.SecurityContext, its pointers at the fixed address. */
function securityContextValue(sc: Obj): GoLiteral {
  const p = (type: string, field: string) => goPointer(type, sc[field]);
  return new GoLiteral(
    `core.SecurityContext{Capabilities:${p('core.Capabilities', 'capabilities')}, Privileged:${p('bool', 'privileged')}, ` +
      `SELinuxOptions:${p('core.SELinuxOptions', 'seLinuxOptions')}, WindowsOptions:${p('core.WindowsSecurityContextOptions', 'windowsOptions')}, ` +
      `RunAsUser:${p('int64', 'runAsUser')}, RunAsGroup:${p('int64', 'runAsGroup')}, RunAsNonRoot:${p('bool', 'runAsNonRoot')}, ` +
      `ReadOnlyRootFilesystem:${p('bool', 'readOnlyRootFilesystem')}, AllowPrivilegeEscalation:${p('bool', 'allowPrivilegeEscalation')}, ` +
      `ProcMount:${p('core.ProcMountType', 'procMount')}, SeccompProfile:${p('core.SeccompProfile', 'seccompProfile')}, ` +
      `AppArmorProfile:${p('core.AppArmorProfile', 'appArmorProfile')}}`,
  );
}

/**
 * ValidateSecurityContext of a container (less Windows options). Privileged containers are
 * allowed, as kube-apiserver's --allow-privileged=true (what kubeadm and kind clusters run) does.
 */
function validateContainerSecurityContext(raw: unknown, hostUsers: boolean, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  errs.push(...validateID(raw.runAsUser, path.child('runAsUser')));
  errs.push(...validateID(raw.runAsGroup, path.child('runAsGroup')));
  if (typeof raw.procMount === 'string') {
    if (!PROC_MOUNT_TYPES.includes(raw.procMount))
      errs.push(notSupported(path.child('procMount'), raw.procMount, PROC_MOUNT_TYPES));
    if (hostUsers && raw.procMount === 'Unmasked') {
      errs.push(invalid(path.child('procMount'), raw.procMount, '`hostUsers` must be false to use `Unmasked`'));
    }
  }
  errs.push(...validateSeccompProfile(raw.seccompProfile, path.child('seccompProfile')));
  if (raw.allowPrivilegeEscalation === false) {
    if (raw.privileged === true) {
      errs.push(
        invalid(
          path,
          securityContextValue(raw),
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        ),
      );
    }
    for (const cap of arr(obj(raw.capabilities).add)) {
      if (cap === 'CAP_SYS_ADMIN') {
        errs.push(
          invalid(
            path,
            securityContextValue(raw),
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
          ),
        );
      }
    }
  }
  errs.push(...validateAppArmorProfile(raw.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

/** validateHostUsers: a pod in its own user namespace shares none of the host's. */
function validateHostUsers(spec: Obj, path: FieldPath): ErrorList {
  if (spec.hostUsers !== false) return [];
  const errs: ErrorList = [];
  const msg = 'when `pod.Spec.HostUsers` is false';
  if (spec.hostNetwork === true) errs.push(forbidden(path.child('hostNetwork'), msg));
  // Kubernetes' paths really are capitalized here.
  if (spec.hostPID === true) errs.push(forbidden(path.child('HostPID'), msg));
  if (spec.hostIPC === true) errs.push(forbidden(path.child('HostIPC'), msg));
  return errs;
}

// --- the v1 defaulters ---

function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  // SetDefaults_Probe.
  if (!num(probe.timeoutSeconds)) probe.timeoutSeconds = 1;
  if (!num(probe.periodSeconds)) probe.periodSeconds = 10;
  if (!num(probe.successThreshold)) probe.successThreshold = 1;
  if (!num(probe.failureThreshold)) probe.failureThreshold = 3;
  defaultHandler(probe);
}

function defaultHandler(h: unknown): void {
  if (!isObj(h) || !isObj(h.httpGet)) return;
  // SetDefaults_HTTPGetAction.
  if (str(h.httpGet.path) === '') h.httpGet.path = '/';
  if (str(h.httpGet.scheme) === '') h.httpGet.scheme = 'HTTP';
}

/**
 * A copy of a pod spec with the v1 defaulters applied (SetObjectDefaults_Pod / _PodTemplate in
 * pkg/apis/core/v1): what Kubernetes validates, whatever the caller defaulted already. `isPod`
 * adds SetDefaults_Pod's part (requests default to limits, enableServiceLinks). Only what the
 * defaulters write is copied (the spec, its containers, its volumes); the rest is shared with
 * `raw`, which validation only reads.
 */
export function podSpecWithDefaults(raw: unknown, isPod: boolean): Obj {
  const spec: Obj = { ...obj(raw) };
  for (const field of ['containers', 'initContainers']) {
    if (Array.isArray(spec[field])) spec[field] = cloneJson(spec[field]);
  }
  if (Array.isArray(spec.volumes)) spec.volumes = spec.volumes.map((v) => (isObj(v) ? { ...v } : v));
  if (str(spec.dnsPolicy) === '') spec.dnsPolicy = 'ClusterFirst';
  if (str(spec.restartPolicy) === '') spec.restartPolicy = 'Always';
  if (!isObj(spec.securityContext)) spec.securityContext = {};
  if (num(spec.terminationGracePeriodSeconds) === undefined) spec.terminationGracePeriodSeconds = 30;
  if (str(spec.schedulerName) === '') spec.schedulerName = 'default-scheduler';
  if (isPod && typeof spec.enableServiceLinks !== 'boolean') spec.enableServiceLinks = true;
  for (const field of ['containers', 'initContainers']) {
    for (const c of arr(spec[field])) {
      if (!isObj(c)) continue;
      if (str(c.terminationMessagePath) === '') c.terminationMessagePath = '/dev/termination-log';
      if (str(c.terminationMessagePolicy) === '') c.terminationMessagePolicy = 'File';
      if (str(c.imagePullPolicy) === '') c.imagePullPolicy = defaultPullPolicy(str(c.image));
      for (const port of arr(c.ports)) if (isObj(port) && str(port.protocol) === '') port.protocol = 'TCP';
      for (const e of arr(c.env)) {
        const ref = obj(obj(e).valueFrom).fieldRef;
        if (isObj(ref) && str(ref.apiVersion) === '') ref.apiVersion = 'v1';
      }
      defaultProbe(c.livenessProbe);
      defaultProbe(c.readinessProbe);
      defaultProbe(c.startupProbe);
      if (isObj(c.lifecycle)) {
        defaultHandler(c.lifecycle.postStart);
        defaultHandler(c.lifecycle.preStop);
      }
      const resources = obj(c.resources);
      if (isPod && isObj(resources.limits)) {
        const requests: Obj = { ...obj(resources.requests) };
        for (const [k, v] of Object.entries(resources.limits)) if (!Object.hasOwn(requests, k)) requests[k] = v;
        c.resources = { ...resources, requests };
      }
    }
  }
  for (const v of arr(spec.volumes)) {
    if (!isObj(v)) continue;
    if (!VOLUME_SOURCES.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  }
  return spec;
}

/** The pod with its spec defaulted (podSpecWithDefaults). */
function podWithDefaults(pod: KubeObject): Obj {
  return { ...(pod as Obj), spec: podSpecWithDefaults((pod as Obj).spec, true) };
}

// --- the pod spec ---

/** ValidatePodSpec. */
export function validatePodSpec(spec: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const { names: volumes, errs: volErrs } = validateVolumes(arr(spec.volumes), path.child('volumes'));
  errs.push(...volErrs);
  const containers = arr(spec.containers);
  // The default for hostUsers is true.
  const hostUsers = spec.hostUsers !== false;
  errs.push(...validateContainers(containers, volumes, path.child('containers'), hostUsers));
  errs.push(
    ...validateInitContainers(arr(spec.initContainers), containers, volumes, path.child('initContainers'), hostUsers),
  );
  const restartPolicy = restartPolicyOf(spec);
  if (!RESTART_POLICIES.includes(restartPolicy)) {
    errs.push(notSupported(path.child('restartPolicy'), restartPolicy, RESTART_POLICIES));
  }
  const dnsPolicy = str(spec.dnsPolicy) || 'ClusterFirst';
  if (!DNS_POLICIES.includes(dnsPolicy)) errs.push(notSupported(path.child('dnsPolicy'), dnsPolicy, DNS_POLICIES));
  errs.push(...validateLabels(strMap(spec.nodeSelector), path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext')));
  errs.push(...validateImagePullSecrets(arr(spec.imagePullSecrets), path.child('imagePullSecrets')));
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')));
  errs.push(...validatePodDNSConfig(spec.dnsConfig, dnsPolicy, path.child('dnsConfig')));
  arr(spec.readinessGates).forEach((g, i) => {
    errs.push(
      ...qualifiedName(str(obj(g).conditionType), path.child('readinessGates').index(i).child('conditionType')),
    );
  });
  const gates = new Set<string>();
  arr(spec.schedulingGates).forEach((g, i) => {
    const name = str(obj(g).name);
    const p = path.child('schedulingGates').index(i);
    errs.push(...qualifiedName(name, p));
    if (gates.has(name)) errs.push(duplicate(p, name));
    gates.add(name);
  });
  errs.push(
    ...validateTopologySpreadConstraints(arr(spec.topologySpreadConstraints), path.child('topologySpreadConstraints')),
  );
  errs.push(...validateHostUsers(spec, path));
  const serviceAccountName = str(spec.serviceAccountName);
  if (serviceAccountName.length > 0)
    errs.push(...dns1123Subdomain(serviceAccountName, path.child('serviceAccountName')));
  const nodeName = str(spec.nodeName);
  if (nodeName.length > 0) errs.push(...dns1123Subdomain(nodeName, path.child('nodeName')));
  const ads = num(spec.activeDeadlineSeconds);
  if (ads !== undefined && (ads < 1 || ads > MAX_INT32)) {
    errs.push(invalid(path.child('activeDeadlineSeconds'), ads, inclusiveRangeError(1, MAX_INT32)));
  }
  const hostname = str(spec.hostname);
  if (hostname.length > 0) errs.push(...dns1123Label(hostname, path.child('hostname')));
  const subdomain = str(spec.subdomain);
  if (subdomain.length > 0) errs.push(...dns1123Label(subdomain, path.child('subdomain')));
  const tolerations = arr(spec.tolerations);
  if (tolerations.length > 0) errs.push(...validateTolerations(tolerations, path.child('tolerations')));
  errs.push(...validateHostAliases(arr(spec.hostAliases), path.child('hostAliases')));
  const priorityClassName = str(spec.priorityClassName);
  if (priorityClassName.length > 0) errs.push(...dns1123Subdomain(priorityClassName, path.child('priorityClassName')));
  if (typeof spec.runtimeClassName === 'string') {
    errs.push(...dns1123Subdomain(spec.runtimeClassName, path.child('runtimeClassName')));
  }
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null) {
    const pp = str(spec.preemptionPolicy);
    if (pp === '') errs.push(required(path.child('preemptionPolicy'), ''));
    else if (!PREEMPTION_POLICIES.includes(pp)) {
      errs.push(notSupported(path.child('preemptionPolicy'), pp, PREEMPTION_POLICIES));
    }
  }
  if (isObj(spec.overhead)) {
    errs.push(...validateResourceRequirements({ limits: spec.overhead }, path.child('overhead')));
  }
  return errs;
}

/** ValidatePodTemplateSpec (a template inside a workload): labels, annotations, the spec. */
export function validatePodTemplateSpec(template: Obj, path: FieldPath): ErrorList {
  const meta = obj(template.metadata);
  const spec = podSpecWithDefaults(template.spec, false);
  // Kubernetes reports the template's labels and annotations on `<template>.labels`, not `.metadata`.
  const errs = validateLabels(strMap(meta.labels), path.child('labels'));
  errs.push(...validateAnnotations(strMap(meta.annotations), path.child('annotations')));
  errs.push(...validatePodSpec(spec, path.child('spec')));
  if (arr(spec.ephemeralContainers).length > 0) {
    errs.push(forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

function validateContainersOnlyForPod(list: unknown[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  list.forEach((raw, i) => {
    const image = str(obj(raw).image);
    if (image.trim().length !== image.length) {
      errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
    }
  });
  return errs;
}

/** validatePodMetadataAndSpec without the ObjectMeta part (the apiserver checks metadata itself). */
function validatePodSpecOfPod(pod: Obj): ErrorList {
  const spec = obj(pod.spec);
  const specPath = FieldPath.root('spec');
  const errs = validatePodSpec(spec, specPath);
  if (str(spec.serviceAccountName) === '') {
    arr(spec.volumes).forEach((v, vi) => {
      const projected = obj(v).projected;
      if (!isObj(projected)) return;
      arr(projected.sources).forEach((s, si) => {
        if (isObj(obj(s).serviceAccountToken)) {
          errs.push(
            forbidden(
              specPath.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken'),
              'must not be specified when serviceAccountName is not set',
            ),
          );
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(arr(spec.containers), specPath.child('containers')));
  errs.push(...validateContainersOnlyForPod(arr(spec.initContainers), specPath.child('initContainers')));
  return errs;
}

/** ValidatePodCreate (less ObjectMeta, which the apiserver validates for every kind). */
export function validatePod(pod: KubeObject): ErrorList {
  const o = podWithDefaults(pod);
  const spec = obj(o.spec);
  const specPath = FieldPath.root('spec');
  const errs = validatePodSpecOfPod(o);
  if (arr(spec.ephemeralContainers).length > 0) {
    errs.push(forbidden(specPath.child('ephemeralContainers'), 'cannot be set on create'));
  }
  if (str(spec.nodeName) !== '' && arr(spec.schedulingGates).length > 0) {
    errs.push(forbidden(specPath.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

function validateContainerUpdates(
  next: unknown[],
  prev: unknown[],
  path: FieldPath,
): { errs: ErrorList; stop: boolean } {
  if (next.length !== prev.length) {
    return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  }
  const errs: ErrorList = [];
  next.forEach((raw, i) => {
    const image = str(obj(raw).image);
    if (image.length === 0) errs.push(required(path.index(i).child('image'), ''));
    if (image.trim().length !== image.length) {
      errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
    }
  });
  return { errs, stop: false };
}

/** A toleration without its tolerationSeconds, for the only-additions comparison. */
function tolerationKey(t: unknown): string {
  const { tolerationSeconds: _ignored, ...rest } = obj(t);
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * ValidatePodUpdate (less ObjectMeta): the new pod must be valid, and only the updatable fields
 * may change. Kubernetes appends a cmp.Diff of the internal PodSpec structs to the Forbidden
 * message; this port appends the changed spec fields as JSON instead.
 */
export function validatePodUpdate(pod: KubeObject, old: KubeObject): ErrorList {
  const newPod = podWithDefaults(pod);
  const n = obj(newPod.spec);
  const o = obj(podWithDefaults(old).spec);
  const specPath = FieldPath.root('spec');
  const errs = validatePodSpecOfPod(newPod);

  for (const field of ['containers', 'initContainers'] as const) {
    const r = validateContainerUpdates(arr(n[field]), arr(o[field]), specPath.child(field));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }

  const newAds = num(n.activeDeadlineSeconds);
  const oldAds = num(o.activeDeadlineSeconds);
  if (newAds !== undefined) {
    if (newAds < 0 || newAds > MAX_INT32) {
      errs.push(invalid(specPath.child('activeDeadlineSeconds'), newAds, inclusiveRangeError(0, MAX_INT32)));
      return errs;
    }
    if (oldAds !== undefined && oldAds < newAds) {
      errs.push(
        invalid(specPath.child('activeDeadlineSeconds'), newAds, 'must be less than or equal to previous value'),
      );
      return errs;
    }
  } else if (oldAds !== undefined) {
    errs.push(
      invalid(specPath.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'),
    );
  }

  // validateOnlyAddedTolerations.
  const newTolerations = arr(n.tolerations);
  const newKeys = new Set(newTolerations.map(tolerationKey));
  if (arr(o.tolerations).some((t) => !newKeys.has(tolerationKey(t)))) {
    errs.push(
      forbidden(specPath.child('tolerations'), 'existing toleration can not be modified except its tolerationSeconds'),
    );
  } else {
    errs.push(...validateTolerations(newTolerations, specPath.child('tolerations')));
  }

  // validateOnlyDeletedSchedulingGates.
  const oldGates = new Set(arr(o.schedulingGates).map((g) => str(obj(g).name)));
  arr(n.schedulingGates).forEach((g, i) => {
    const name = str(obj(g).name);
    if (!oldGates.has(name)) {
      errs.push(
        forbidden(
          specPath.child('schedulingGates').index(i).child('name'),
          `only deletion is allowed, but found new scheduling gate '${name}'`,
        ),
      );
    }
  });

  if (jsonEqual(n, o)) return errs;

  // Munge the updatable fields back to the old values, then compare what is left.
  const munged: Obj = cloneJson(n);
  const mungeImages = (field: 'containers' | 'initContainers'): void => {
    const list = arr(munged[field]);
    const oldList = arr(o[field]);
    list.forEach((c, i) => {
      if (isObj(c)) {
        const oldImage = obj(oldList[i]).image;
        if (oldImage === undefined) delete c.image;
        else c.image = oldImage;
      }
    });
  };
  mungeImages('containers');
  mungeImages('initContainers');
  for (const field of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (o[field] === undefined) delete munged[field];
    else munged[field] = o[field];
  }
  const oldGrace = num(o.terminationGracePeriodSeconds);
  if (oldGrace !== undefined && oldGrace < 0 && num(munged.terminationGracePeriodSeconds) === 1) {
    munged.terminationGracePeriodSeconds = oldGrace;
  }
  if (arr(o.schedulingGates).length > 0) {
    // A gated pod may gain nodeSelector entries and node affinity; only additions are checked here.
    if (!jsonEqual(munged.nodeSelector, o.nodeSelector)) {
      const oldSel = strMap(o.nodeSelector) ?? {};
      const newSel = strMap(munged.nodeSelector) ?? {};
      for (const [k, v] of Object.entries(oldSel)) {
        if (newSel[k] !== v) {
          errs.push(
            invalid(
              specPath.child('nodeSelector'),
              new GoLiteral(JSON.stringify(newSel)),
              'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
            ),
          );
          break;
        }
      }
      if (o.nodeSelector === undefined) delete munged.nodeSelector;
      else munged.nodeSelector = o.nodeSelector;
    }
  }
  if (!jsonEqual(munged, o)) {
    const changed = [...new Set([...Object.keys(munged), ...Object.keys(o)])]
      .filter((k) => !jsonEqual(munged[k], o[k]))
      .sort();
    const diff = changed.map((k) => `  ${k}: ${JSON.stringify(o[k] ?? null)} → ${JSON.stringify(munged[k] ?? null)}`);
    errs.push(
      forbidden(
        specPath,
        `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${diff.join('\n')}`,
      ),
    );
  }
  return errs;
}
