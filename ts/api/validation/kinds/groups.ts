/**
 * The smaller API groups (k8s.io/kubernetes pkg/apis/<group>/validation/validation.go, v1.32):
 * policy PodDisruptionBudget, scheduling PriorityClass, rbac Role/ClusterRole/RoleBinding/
 * ClusterRoleBinding, coordination Lease, discovery EndpointSlice, autoscaling
 * HorizontalPodAutoscaler (v2 shape; v1's targetCPUUtilizationPercentage has no extra rule).
 */
import {
  duplicate,
  type ErrorList,
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  required,
  tooMany,
} from '../../field-errors.js';
import { GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject, LabelSelector } from '../../meta.js';
import { parseQuantity, quantityGoValue } from '../../resource/quantity.js';
import { isFullyQualifiedDomainName } from '../formats.js';
import { validateLabelSelector, validateLabels } from '../labels.js';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPathSegmentName } from '../names.js';
import { validateImmutableField } from '../object-meta.js';
import { parseIPSloppy, specialIPMessages } from './ip.js';
import { asSelector } from './selector.js';
import {
  arr,
  dns1123Label,
  goPointer,
  goStringSlice,
  intOrString,
  isNotMoreThan100Percent,
  isObj,
  jsonEqual,
  nameOf,
  num,
  type Obj,
  obj,
  qualifiedName,
  str,
  validatePositiveIntOrPercent,
} from './util.js';

const SPEC = FieldPath.root('spec');
const specOf = (o: KubeObject): Obj => obj((o as Obj).spec);

// --- policy/v1 PodDisruptionBudget ---

/** policy validation.go supportedUnhealthyPodEvictionPolicies (sorted). */
const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** ValidatePodDisruptionBudget: minAvailable xor maxUnavailable, each an int ≥ 0 or a percent ≤ 100%. */
export function validatePodDisruptionBudget(pdb: KubeObject): ErrorList {
  const spec = specOf(pdb);
  const errs: ErrorList = [];
  const hasMin = spec.minAvailable !== undefined && spec.minAvailable !== null;
  const hasMax = spec.maxUnavailable !== undefined && spec.maxUnavailable !== null;
  if (hasMin && hasMax) {
    const literal =
      `policy.PodDisruptionBudgetSpec{MinAvailable:${goPointer('intstr.IntOrString', spec.minAvailable)}, ` +
      `Selector:${goPointer('v1.LabelSelector', spec.selector)}, MaxUnavailable:${goPointer('intstr.IntOrString', spec.maxUnavailable)}, ` +
      `UnhealthyPodEvictionPolicy:${goPointer('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)}}`;
    errs.push(invalid(SPEC, new GoLiteral(literal), 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const field of ['minAvailable', 'maxUnavailable'] as const) {
    if (spec[field] === undefined || spec[field] === null) continue;
    const v = intOrString(spec[field]);
    errs.push(...validatePositiveIntOrPercent(v, SPEC.child(field)), ...isNotMoreThan100Percent(v, SPEC.child(field)));
  }
  if (isObj(spec.selector))
    errs.push(...validateLabelSelector(spec.selector as LabelSelector, {}, SPEC.child('selector')));
  if (
    typeof spec.unhealthyPodEvictionPolicy === 'string' &&
    !UNHEALTHY_POD_EVICTION_POLICIES.includes(spec.unhealthyPodEvictionPolicy)
  ) {
    errs.push(
      notSupported(
        SPEC.child('unhealthyPodEvictionPolicy'),
        spec.unhealthyPodEvictionPolicy,
        UNHEALTHY_POD_EVICTION_POLICIES,
      ),
    );
  }
  return errs;
}

// --- scheduling.k8s.io/v1 PriorityClass ---

/** scheduling/types.go HighestUserDefinablePriority and SystemCriticalPriority. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/** scheduling/v1/helpers.go systemPriorityClasses. */
const SYSTEM_PRIORITY_CLASSES: ReadonlyMap<string, { value: number; globalDefault: boolean }> = new Map([
  ['system-node-critical', { value: SYSTEM_CRITICAL_PRIORITY + 1000, globalDefault: false }],
  ['system-cluster-critical', { value: SYSTEM_CRITICAL_PRIORITY, globalDefault: false }],
]);
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** ValidatePriorityClass (less ObjectMeta). */
export function validatePriorityClass(pc: KubeObject): ErrorList {
  const o = pc as Obj;
  const name = nameOf(pc);
  const value = num(o.value) ?? 0;
  const globalDefault = o.globalDefault === true;
  const errs: ErrorList = [];
  if (name.startsWith('system-')) {
    const known = SYSTEM_PRIORITY_CLASSES.get(name);
    let problem: string | undefined;
    if (known === undefined) problem = `${name} is not a known system priority class`;
    else if (known.value !== value) problem = `value of ${name} PriorityClass must be ${known.value}`;
    else if (known.globalDefault !== globalDefault)
      problem = `globalDefault of ${name} PriorityClass must be ${known.globalDefault}`;
    if (problem !== undefined) {
      errs.push(
        forbidden(
          FieldPath.root('metadata', 'name'),
          `priority class names with 'system-' prefix are reserved for system use only. error: ${problem}`,
        ),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(
      forbidden(
        FieldPath.root('value'),
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    );
  }
  // The v1 defaulter sets preemptionPolicy to PreemptLowerPriority when unset.
  if (o.preemptionPolicy !== undefined && o.preemptionPolicy !== null) {
    const pp = str(o.preemptionPolicy);
    if (pp === '') errs.push(required(FieldPath.root('preemptionPolicy'), ''));
    else if (!PREEMPTION_POLICIES.includes(pp))
      errs.push(notSupported(FieldPath.root('preemptionPolicy'), pp, PREEMPTION_POLICIES));
  }
  return errs;
}

/** ValidatePriorityClassUpdate (less ObjectMeta): value and preemptionPolicy immutable. */
export function validatePriorityClassUpdate(pc: KubeObject, old: KubeObject): ErrorList {
  const n = pc as Obj;
  const o = old as Obj;
  const errs: ErrorList = [];
  if ((num(n.value) ?? 0) !== (num(o.value) ?? 0))
    errs.push(forbidden(FieldPath.root('value'), 'may not be changed in an update.'));
  const np = str(n.preemptionPolicy) || 'PreemptLowerPriority';
  const op = str(o.preemptionPolicy) || 'PreemptLowerPriority';
  errs.push(...validateImmutableField(np, op, FieldPath.root('preemptionPolicy')));
  return errs;
}

// --- rbac.authorization.k8s.io/v1 ---

/** rbac.GroupName. */
const RBAC_GROUP = 'rbac.authorization.k8s.io';

function validatePolicyRule(rule: Obj, namespaced: boolean, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (arr(rule.verbs).length === 0) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = arr(rule.nonResourceURLs);
  if (urls.length > 0) {
    const urlsValue = new GoLiteral(goStringSlice(urls));
    if (namespaced)
      errs.push(
        invalid(path.child('nonResourceURLs'), urlsValue, 'namespaced rules cannot apply to non-resource URLs'),
      );
    if (arr(rule.apiGroups).length > 0 || arr(rule.resources).length > 0 || arr(rule.resourceNames).length > 0) {
      errs.push(
        invalid(
          path.child('nonResourceURLs'),
          urlsValue,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    }
    return errs;
  }
  if (arr(rule.apiGroups).length === 0) {
    errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  }
  if (arr(rule.resources).length === 0) {
    errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  }
  return errs;
}

function validateRules(o: Obj, namespaced: boolean): ErrorList {
  const errs: ErrorList = [];
  arr(o.rules).forEach((r, i) => {
    errs.push(...validatePolicyRule(obj(r), namespaced, FieldPath.root('rules').index(i)));
  });
  return errs;
}

/** ValidateRole (less ObjectMeta). */
export function validateRole(role: KubeObject): ErrorList {
  return validateRules(role as Obj, true);
}

/** ValidateClusterRole (less ObjectMeta): rules and the aggregation rule's selectors. */
export function validateClusterRole(role: KubeObject): ErrorList {
  const o = role as Obj;
  const errs = validateRules(o, false);
  if (isObj(o.aggregationRule)) {
    const path = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
    const selectors = arr(o.aggregationRule.clusterRoleSelectors);
    if (selectors.length === 0) {
      errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((raw, i) => {
      const sel = obj(raw) as LabelSelector;
      errs.push(...validateLabelSelector(sel, {}, path.index(i)));
      // Kubernetes reports the (shadowed, nil) converted selector, which prints as "null".
      if (asSelector(sel) === undefined) errs.push(invalid(path.index(i), null, 'invalid label selector.'));
    });
  }
  return errs;
}

/** The roleRef after SetDefaults_RoleBinding (apiGroup rbac.authorization.k8s.io when empty). */
function roleRefOf(o: Obj): { apiGroup: string; kind: string; name: string } {
  const r = obj(o.roleRef);
  return { apiGroup: str(r.apiGroup) || RBAC_GROUP, kind: str(r.kind), name: str(r.name) };
}

function validateSubject(s: Obj, namespaced: boolean, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const name = str(s.name);
  const kind = str(s.kind);
  // SetDefaults_Subject: User and Group default to the RBAC group, ServiceAccount to "".
  const apiGroup = str(s.apiGroup) || (kind === 'User' || kind === 'Group' ? RBAC_GROUP : '');
  if (name.length === 0) errs.push(required(path.child('name'), ''));
  switch (kind) {
    case 'ServiceAccount':
      if (name.length > 0) for (const m of isDNS1123Subdomain(name)) errs.push(invalid(path.child('name'), name, m));
      if (apiGroup.length > 0) errs.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(s.namespace).length === 0) errs.push(required(path.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(notSupported(path.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(path.child('kind'), kind, ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: KubeObject, namespaced: boolean): ErrorList {
  const o = b as Obj;
  const ref = roleRefOf(o);
  const errs: ErrorList = [];
  if (ref.apiGroup !== RBAC_GROUP)
    errs.push(notSupported(FieldPath.root('roleRef', 'apiGroup'), ref.apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(notSupported(FieldPath.root('roleRef', 'kind'), ref.kind, kinds));
  if (ref.name.length === 0) errs.push(required(FieldPath.root('roleRef', 'name'), ''));
  else
    for (const m of isValidPathSegmentName(ref.name))
      errs.push(invalid(FieldPath.root('roleRef', 'name'), ref.name, m));
  arr(o.subjects).forEach((s, i) => {
    errs.push(...validateSubject(obj(s), namespaced, FieldPath.root('subjects').index(i)));
  });
  return errs;
}

/** ValidateRoleBinding (less ObjectMeta). */
export const validateRoleBinding = (b: KubeObject): ErrorList => validateBinding(b, true);
/** ValidateClusterRoleBinding (less ObjectMeta). */
export const validateClusterRoleBinding = (b: KubeObject): ErrorList => validateBinding(b, false);

function roleRefImmutable(b: KubeObject, old: KubeObject): ErrorList {
  const n = roleRefOf(b as Obj);
  const o = roleRefOf(old as Obj);
  if (jsonEqual(n, o)) return [];
  const literal = `rbac.RoleRef{APIGroup:${goQuote(n.apiGroup)}, Kind:${goQuote(n.kind)}, Name:${goQuote(n.name)}}`;
  return [invalid(FieldPath.root('roleRef'), new GoLiteral(literal), 'cannot change roleRef')];
}

/** ValidateRoleBindingUpdate (less ObjectMeta): roleRef may not change. */
export const validateRoleBindingUpdate = (b: KubeObject, old: KubeObject): ErrorList => [
  ...validateRoleBinding(b),
  ...roleRefImmutable(b, old),
];
/** ValidateClusterRoleBindingUpdate (less ObjectMeta). */
export const validateClusterRoleBindingUpdate = (b: KubeObject, old: KubeObject): ErrorList => [
  ...validateClusterRoleBinding(b),
  ...roleRefImmutable(b, old),
];

// --- coordination.k8s.io/v1 Lease ---

/** coordination validation.go validLeaseStrategies. */
const LEASE_STRATEGIES = ['OldestEmulationVersion'];

/** ValidateLease (less ObjectMeta). */
export function validateLease(lease: KubeObject): ErrorList {
  const spec = specOf(lease);
  const errs: ErrorList = [];
  const duration = num(spec.leaseDurationSeconds);
  if (duration !== undefined && duration <= 0)
    errs.push(invalid(SPEC.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  const transitions = num(spec.leaseTransitions);
  if (transitions !== undefined && transitions < 0) {
    errs.push(invalid(SPEC.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  if (typeof spec.strategy === 'string') {
    // ValidateCoordinatedLeaseStrategy appends "strategy" to a path that already ends in it.
    const p = SPEC.child('strategy', 'strategy');
    if (!spec.strategy.includes('/')) {
      if (!LEASE_STRATEGIES.includes(spec.strategy)) errs.push(notSupported(p, spec.strategy, LEASE_STRATEGIES));
    } else {
      for (const m of isQualifiedName(spec.strategy)) errs.push(invalid(p, spec.strategy, m));
    }
  }
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && str(spec.strategy) === '') {
    errs.push(forbidden(SPEC.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

// --- discovery.k8s.io/v1 EndpointSlice ---

// discovery validation.go limits and supported values (sets.List order).
const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const SLICE_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;

/** ValidateEndpointSlice (less ObjectMeta). */
export function validateEndpointSlice(slice: KubeObject): ErrorList {
  const o = slice as Obj;
  const errs: ErrorList = [];
  const addressType = str(o.addressType);
  if (addressType === '') errs.push(required(FieldPath.root('addressType'), ''));
  else if (!ADDRESS_TYPES.includes(addressType))
    errs.push(notSupported(FieldPath.root('addressType'), addressType, ADDRESS_TYPES));
  const endpoints = arr(o.endpoints);
  const ep = FieldPath.root('endpoints');
  if (endpoints.length > MAX_ENDPOINTS) {
    errs.push(tooMany(ep, endpoints.length, MAX_ENDPOINTS));
  } else {
    endpoints.forEach((raw, i) => {
      const e = obj(raw);
      const p = ep.index(i);
      const ap = p.child('addresses');
      const addresses = arr(e.addresses).map(str);
      if (addresses.length === 0) errs.push(required(ap, 'must contain at least 1 address'));
      else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(ap, addresses.length, MAX_ADDRESSES));
      addresses.forEach((a, j) => {
        const bytes = parseIPSloppy(a);
        if (addressType === 'IPv4') {
          if (bytes === undefined || bytes.length !== 4)
            errs.push(invalid(ap.index(j), a, 'must be a valid IPv4 address'));
          for (const m of specialIPMessages(a)) errs.push(invalid(ap.index(j), a, m));
        } else if (addressType === 'IPv6') {
          if (bytes === undefined || bytes.length !== 16)
            errs.push(invalid(ap.index(j), a, 'must be a valid IPv6 address'));
          for (const m of specialIPMessages(a)) errs.push(invalid(ap.index(j), a, m));
        } else if (addressType === 'FQDN') {
          errs.push(...isFullyQualifiedDomainName(ap.index(j), a));
        }
      });
      if (typeof e.nodeName === 'string') {
        for (const m of isDNS1123Subdomain(e.nodeName)) errs.push(invalid(p.child('nodeName'), e.nodeName, m));
      }
      const topo = obj(e.deprecatedTopology) as Record<string, string>;
      const tp = p.child('deprecatedTopology');
      if (Object.keys(topo).length > MAX_TOPOLOGY_LABELS)
        errs.push(tooMany(tp, Object.keys(topo).length, MAX_TOPOLOGY_LABELS));
      errs.push(...validateLabels(topo, tp));
      if (typeof e.hostname === 'string') errs.push(...dns1123Label(e.hostname, p.child('hostname')));
      if (isObj(e.hints)) {
        const zones = arr(e.hints.forZones);
        const fz = p.child('hints', 'forZones');
        if (zones.length > MAX_ZONE_HINTS) {
          errs.push(tooMany(fz, zones.length, MAX_ZONE_HINTS));
        } else {
          const seen = new Set<string>();
          zones.forEach((z, j) => {
            const name = str(obj(z).name);
            const zp = fz.index(j).child('name');
            if (seen.has(name)) errs.push(duplicate(zp, name));
            else seen.add(name);
            for (const m of isValidLabelValue(name)) errs.push(invalid(zp, name, m));
          });
        }
      }
    });
  }
  const ports = arr(o.ports);
  const pp = FieldPath.root('ports');
  if (ports.length > MAX_PORTS) {
    errs.push(tooMany(pp, ports.length, MAX_PORTS));
  } else {
    const names = new Set<string>();
    ports.forEach((raw, i) => {
      const port = obj(raw);
      const p = pp.index(i);
      // SetDefaults_EndpointPort: name "" and protocol TCP.
      const name = str(port.name);
      if (name.length > 0) errs.push(...dns1123Label(name, p.child('name')));
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
      const protocol = str(port.protocol) || 'TCP';
      if (!SLICE_PROTOCOLS.includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, SLICE_PROTOCOLS));
      if (typeof port.appProtocol === 'string') errs.push(...qualifiedName(port.appProtocol, p.child('appProtocol')));
    });
  }
  return errs;
}

/** ValidateEndpointSliceUpdate (less ObjectMeta): addressType immutable. */
export function validateEndpointSliceUpdate(slice: KubeObject, old: KubeObject): ErrorList {
  return [
    ...validateEndpointSlice(slice),
    ...validateImmutableField(
      str((slice as Obj).addressType),
      str((old as Obj).addressType),
      FieldPath.root('addressType'),
    ),
  ];
}

// --- autoscaling/v2 HorizontalPodAutoscaler ---

/** autoscaling validation.go MaxPeriodSeconds and MaxStabilizationWindowSeconds. */
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
// validMetricSourceTypesList, validSelectPolicyTypesList, validPolicyTypesList (sorted).
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const SCALING_POLICY_TYPES = ['Percent', 'Pods'];

function validateCrossVersionObjectReference(ref: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  for (const field of ['kind', 'name']) {
    const v = str(ref[field]);
    if (v.length === 0) errs.push(required(path.child(field), ''));
    else for (const m of isValidPathSegmentName(v)) errs.push(invalid(path.child(field), v, m));
  }
  return errs;
}

function validateMetricIdentifier(id: Obj, path: FieldPath): ErrorList {
  const name = str(id.name);
  if (name.length === 0) return [required(path.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((m) => invalid(path.child('name'), name, m));
}

function positiveQuantity(v: unknown, path: FieldPath): ErrorList {
  const q = parseQuantity(v);
  if ('error' in q) return [invalid(path, v, q.error)];
  return q.num > 0n ? [] : [invalid(path, quantityGoValue(v, q), 'must be positive')];
}

function validateMetricTarget(mt: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const type = str(mt.type);
  if (type.length === 0) errs.push(required(path.child('type'), 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) {
    errs.push(invalid(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  }
  if (mt.value !== undefined && mt.value !== null) errs.push(...positiveQuantity(mt.value, path.child('value')));
  if (mt.averageValue !== undefined && mt.averageValue !== null) {
    errs.push(...positiveQuantity(mt.averageValue, path.child('averageValue')));
  }
  const util = num(mt.averageUtilization);
  if (util !== undefined && util < 1)
    errs.push(invalid(path.child('averageUtilization'), util, 'must be greater than 0'));
  return errs;
}

const has = (o: Obj, k: string): boolean => o[k] !== undefined && o[k] !== null;

function validateMetricSource(kind: string, src: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const target = obj(src.target);
  const tp = path.child('target');
  switch (kind) {
    case 'object':
      errs.push(...validateCrossVersionObjectReference(obj(src.describedObject), path.child('describedObject')));
      errs.push(
        ...validateMetricIdentifier(obj(src.metric), path.child('metric')),
        ...validateMetricTarget(target, tp),
      );
      if (!has(target, 'value') && !has(target, 'averageValue')) {
        errs.push(required(tp.child('averageValue'), 'must set either a target value or averageValue'));
      }
      break;
    case 'external':
      errs.push(
        ...validateMetricIdentifier(obj(src.metric), path.child('metric')),
        ...validateMetricTarget(target, tp),
      );
      if (!has(target, 'value') && !has(target, 'averageValue')) {
        errs.push(required(tp.child('averageValue'), 'must set either a target value for metric or a per-pod target'));
      }
      if (has(target, 'value') && has(target, 'averageValue')) {
        errs.push(forbidden(tp.child('value'), 'may not set both a target value for metric and a per-pod target'));
      }
      break;
    case 'pods':
      errs.push(
        ...validateMetricIdentifier(obj(src.metric), path.child('metric')),
        ...validateMetricTarget(target, tp),
      );
      if (!has(target, 'averageValue'))
        errs.push(required(tp.child('averageValue'), 'must specify a positive target averageValue'));
      break;
    case 'resource':
    case 'containerResource': {
      const name = str(src.name);
      if (name.length === 0) errs.push(required(path.child('name'), 'must specify a resource name'));
      if (kind === 'containerResource') {
        const container = str(src.container);
        if (container.length === 0) errs.push(required(path.child('container'), 'must specify a container'));
        else errs.push(...dns1123Label(container, path.child('container')));
      }
      errs.push(...validateMetricTarget(target, tp));
      if (!has(target, 'averageUtilization') && !has(target, 'averageValue')) {
        errs.push(
          required(tp.child('averageUtilization'), 'must set either a target raw value or a target utilization'),
        );
      }
      if (has(target, 'averageUtilization') && has(target, 'averageValue')) {
        errs.push(forbidden(tp.child('averageValue'), 'may not set both a target raw value and a target utilization'));
      }
      break;
    }
  }
  return errs;
}

const METRIC_FIELDS: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

function validateMetricSpec(spec: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const type = str(spec.type);
  if (type.length === 0) errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(path.child('type'), type, METRIC_SOURCE_TYPES));
  const present: string[] = [];
  for (const f of ['object', 'external', 'pods', 'resource', 'containerResource']) {
    if (!isObj(spec[f])) continue;
    present.push(f);
    if (present.length === 1) errs.push(...validateMetricSource(f, spec[f] as Obj, path.child(f)));
  }
  const expected = METRIC_FIELDS[type];
  if (expected === undefined) {
    errs.push(notSupported(path.child('type'), type, METRIC_SOURCE_TYPES));
  } else if (!isObj(spec[expected])) {
    errs.push(required(path.child(expected), 'must populate information for the given metric source'));
  }
  if (present.length !== 1) {
    for (const f of present) {
      if (f !== expected) errs.push(forbidden(path.child(f), 'must populate the given metric source only'));
    }
  }
  return errs;
}

function validateScalingRules(raw: unknown, path: FieldPath): ErrorList {
  if (!isObj(raw)) return [];
  const errs: ErrorList = [];
  const window = num(raw.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) {
    errs.push(invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  }
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(
      invalid(
        path.child('stabilizationWindowSeconds'),
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    );
  }
  if (typeof raw.selectPolicy === 'string' && !SELECT_POLICIES.includes(raw.selectPolicy)) {
    errs.push(notSupported(path.child('selectPolicy'), raw.selectPolicy, SELECT_POLICIES));
  }
  // The v2 defaulter fills the policies of a rule without any (GenerateHPAScaleUp/DownRules);
  // an explicitly empty list stays empty.
  if (Array.isArray(raw.policies) && raw.policies.length === 0) {
    errs.push(required(path.child('policies'), 'must specify at least one Policy'));
  }
  arr(raw.policies).forEach((rp, i) => {
    const policy = obj(rp);
    const p = path.child('policies').index(i);
    const type = str(policy.type);
    if (type !== 'Pods' && type !== 'Percent') errs.push(notSupported(p.child('type'), type, SCALING_POLICY_TYPES));
    const value = num(policy.value) ?? 0;
    if (value <= 0) errs.push(invalid(p.child('value'), value, 'must be greater than zero'));
    const period = num(policy.periodSeconds) ?? 0;
    if (period <= 0) errs.push(invalid(p.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) {
      errs.push(invalid(p.child('periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
    }
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec (minReplicas defaults to 1; HPAScaleToZero is off in 1.32). */
function validateHPASpec(spec: Obj, minLowerBound: number): ErrorList {
  const errs: ErrorList = [];
  const minReplicas = num(spec.minReplicas) ?? 1;
  const maxReplicas = num(spec.maxReplicas) ?? 0;
  if (minReplicas < minLowerBound) {
    errs.push(invalid(SPEC.child('minReplicas'), minReplicas, `must be greater than or equal to ${minLowerBound}`));
  }
  if (maxReplicas < 1) errs.push(invalid(SPEC.child('maxReplicas'), maxReplicas, 'must be greater than 0'));
  if (maxReplicas < minReplicas) {
    errs.push(invalid(SPEC.child('maxReplicas'), maxReplicas, 'must be greater than or equal to `minReplicas`'));
  }
  errs.push(...validateCrossVersionObjectReference(obj(spec.scaleTargetRef), SPEC.child('scaleTargetRef')));
  const metrics = arr(spec.metrics);
  let objectOrExternal = false;
  metrics.forEach((m, i) => {
    const ms = obj(m);
    errs.push(...validateMetricSpec(ms, SPEC.child('metrics').index(i)));
    if (ms.type === 'Object' || ms.type === 'External') objectOrExternal = true;
  });
  if (minReplicas === 0 && !objectOrExternal) {
    errs.push(
      forbidden(
        SPEC.child('metrics'),
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  }
  if (isObj(spec.behavior)) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, SPEC.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, SPEC.child('behavior', 'scaleDown')));
  }
  return errs;
}

/** ValidateHorizontalPodAutoscaler (less ObjectMeta). */
export function validateHorizontalPodAutoscaler(hpa: KubeObject): ErrorList {
  return validateHPASpec(specOf(hpa), 1);
}

/** ValidateHorizontalPodAutoscalerUpdate (less ObjectMeta): minReplicas 0 stays allowed if it was 0. */
export function validateHorizontalPodAutoscalerUpdate(hpa: KubeObject, old: KubeObject): ErrorList {
  return validateHPASpec(specOf(hpa), num(specOf(old).minReplicas) === 0 ? 0 : 1);
}
