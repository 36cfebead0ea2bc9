/**
 * The other core/v1 kinds (k8s.io/kubernetes pkg/apis/core/validation/validation.go and events.go,
 * v1.32): Node, Endpoints, LimitRange, ResourceQuota, ServiceAccount, Event.
 */
import {
  duplicate,
  type ErrorList,
  FieldError,
  FieldPath,
  forbidden,
  internalError,
  invalid,
  notSupported,
  required,
} from '../../field-errors.js';
import { GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject } from '../../meta.js';
import {
  compareQuantity,
  parseQuantity,
  type Quantity,
  quantityGoValue,
  quantityString,
} from '../../resource/quantity.js';
import { isValidPortNum } from '../formats.js';
import { validateLabelName } from '../labels.js';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../names.js';
import { INVALID_CIDR_MSG, INVALID_IP_MSG, isIPv6String, isValidCIDR, parseIPSloppy, specialIPMessages } from './ip.js';
import {
  isIntegerResourceName,
  PORT_PROTOCOLS,
  resourceNameValue,
  TAINT_EFFECTS,
  validateQuantityValue,
  validateResourceName,
} from './pod.js';
import { arr, dns1123Label, goStringSlice, isObj, jsonEqual, num, type Obj, obj, qualifiedName, str } from './util.js';

/** validation.go isInvalidQuotaResource. */
const INVALID_QUOTA_RESOURCE = 'must be a standard resource for quota';
/** validation.go fieldImmutableErrorMsg. */
const FIELD_IMMUTABLE = 'field is immutable';
/** helper.standardQuotaResources. */
const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
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
]);
/** helper.standardResourceQuotaScopes plus CrossNamespacePodAffinity. */
const QUOTA_SCOPES = new Set([
  'Terminating',
  'NotTerminating',
  'BestEffort',
  'NotBestEffort',
  'PriorityClass',
  'CrossNamespacePodAffinity',
]);
/** helper.podObjectCountQuotaResources ∪ podComputeQuotaResources. */
const POD_QUOTA_RESOURCES = new Set([
  'pods',
  'cpu',
  'memory',
  'limits.cpu',
  'limits.memory',
  'requests.cpu',
  'requests.memory',
]);
/** events.go length limits. */
const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

// --- Node ---

function validateTaintEffect(effect: string, path: FieldPath): ErrorList {
  if (effect.length === 0) return [required(path, '')];
  return TAINT_EFFECTS.includes(effect) ? [] : [notSupported(path, effect, TAINT_EFFECTS)];
}

/** validateNodeTaints (Kubernetes reports them under `metadata.taints`). */
function validateNodeTaints(taints: unknown[]): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.root('metadata', 'taints');
  const unique = new Map<string, Set<string>>();
  taints.forEach((raw, i) => {
    const t = obj(raw);
    const p = path.index(i);
    const key = str(t.key);
    const value = str(t.value);
    const effect = str(t.effect);
    errs.push(...validateLabelName(key, p.child('key')));
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(invalid(p.child('value'), value, msgs.join(';')));
    errs.push(...validateTaintEffect(effect, p.child('effect')));
    const keys = unique.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      const literal = new GoLiteral(
        `core.Taint{Key:${goQuote(key)}, Value:${goQuote(value)}, Effect:${goQuote(effect)}, TimeAdded:${t.timeAdded ? goQuote(String(t.timeAdded)) : '<nil>'}}`,
      );
      errs.push(
        new FieldError('FieldValueDuplicate', p.toString(), literal, 'taints must be unique by key and effect pair'),
      );
      return;
    }
    keys.add(key);
    unique.set(effect, keys);
  });
  return errs;
}

function validateNodeResources(node: Obj): ErrorList {
  const errs: ErrorList = [];
  const status = obj(node.status);
  for (const field of ['capacity', 'allocatable']) {
    for (const [k, v] of Object.entries(obj(status[field]))) {
      // Kubernetes builds these paths with Child, not Key: `status.capacity.cpu`.
      errs.push(...validateQuantityValue(k, v, FieldPath.root('status', field, k)));
    }
  }
  return errs;
}

/** ValidateNode (less ObjectMeta): taints, resource quantities, podCIDRs. */
export function validateNode(node: KubeObject): ErrorList {
  const o = node as Obj;
  const spec = obj(o.spec);
  const errs: ErrorList = [];
  const taints = arr(spec.taints);
  if (taints.length > 0) errs.push(...validateNodeTaints(taints));
  errs.push(...validateNodeResources(o));
  const cidrs = arr(spec.podCIDRs).map(str);
  if (cidrs.length > 0) {
    const path = FieldPath.root('spec', 'podCIDRs');
    cidrs.forEach((c, i) => {
      if (!isValidCIDR(c)) errs.push(invalid(path.index(i), c, INVALID_CIDR_MSG));
    });
    if (cidrs.length > 1) {
      const families = cidrs.map((c) => isIPv6String(c.split('/')[0] ?? ''));
      const bad = cidrs.findIndex((c) => !isValidCIDR(c));
      if (bad >= 0) {
        // netutils.IsDualStackCIDRStrings' error, as ValidateNode wraps it.
        errs.push(
          internalError(
            path,
            `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${bad}]: <nil> (invalid CIDR address: ${cidrs[bad]})`,
          ),
        );
      }
      if (bad >= 0 || cidrs.length > 2 || families[0] === families[1]) {
        errs.push(
          invalid(path, new GoLiteral(goStringSlice(cidrs)), 'may specify no more than one CIDR for each IP family'),
        );
      }
      const seen = new Set<string>();
      cidrs.forEach((c, i) => {
        if (seen.has(c)) errs.push(duplicate(path.index(i), c));
        seen.add(c);
      });
    }
  }
  return errs;
}

/** ValidateNodeUpdate (less ObjectMeta). */
export function validateNodeUpdate(node: KubeObject, old: KubeObject): ErrorList {
  const n = obj((node as Obj).spec);
  const o = obj((old as Obj).spec);
  const errs = validateNodeResources(node as Obj);
  const seen = new Set<string>();
  arr(obj((node as Obj).status).addresses).forEach((raw, i) => {
    const a = obj(raw);
    const key = `${str(a.type)}/${str(a.address)}`;
    if (seen.has(key)) {
      errs.push(
        duplicate(
          FieldPath.root('status', 'addresses').index(i),
          new GoLiteral(`core.NodeAddress{Type:${goQuote(str(a.type))}, Address:${goQuote(str(a.address))}}`),
        ),
      );
    }
    seen.add(key);
  });
  const oldCidrs = arr(o.podCIDRs).map(str);
  const newCidrs = arr(n.podCIDRs).map(str);
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== newCidrs.length) errs.push(forbidden(FieldPath.root('spec', 'podCIDRs'), cidrMsg));
    else
      oldCidrs.forEach((c, i) => {
        if (c !== newCidrs[i]) errs.push(forbidden(FieldPath.root('spec', 'podCIDRs'), cidrMsg));
      });
  }
  if (str(o.providerID) !== '' && str(o.providerID) !== str(n.providerID)) {
    errs.push(
      forbidden(FieldPath.root('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'),
    );
  }
  const taints = arr(n.taints);
  if (taints.length > 0) errs.push(...validateNodeTaints(taints));
  if (str(n.externalID) !== str(o.externalID))
    errs.push(forbidden(FieldPath.root('spec', 'externalID'), 'may not be updated'));
  return errs;
}

// --- Endpoints ---

function validateEndpointAddress(a: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const ip = str(a.ip);
  if (parseIPSloppy(ip) === undefined) errs.push(invalid(path.child('ip'), ip, INVALID_IP_MSG));
  const hostname = str(a.hostname);
  if (hostname.length > 0) errs.push(...dns1123Label(hostname, path.child('hostname')));
  if (typeof a.nodeName === 'string') {
    for (const m of isDNS1123Subdomain(a.nodeName)) errs.push(invalid(path.child('nodeName'), a.nodeName, m));
  }
  for (const m of specialIPMessages(ip)) errs.push(invalid(path.child('ip'), ip, m));
  return errs;
}

/** validateEndpointPort (also used by discovery's EndpointSlice ports). */
function validateEndpointPort(p: Obj, requireName: boolean, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const name = str(p.name);
  if (requireName && name.length === 0) errs.push(required(path.child('name'), ''));
  else if (name.length !== 0) errs.push(...dns1123Label(name, path.child('name')));
  const port = num(p.port) ?? 0;
  for (const m of isValidPortNum(port)) errs.push(invalid(path.child('port'), port, m));
  const protocol = str(p.protocol) || 'TCP';
  if (!PORT_PROTOCOLS.includes(protocol)) errs.push(notSupported(path.child('protocol'), protocol, PORT_PROTOCOLS));
  if (typeof p.appProtocol === 'string') errs.push(...qualifiedName(p.appProtocol, path.child('appProtocol')));
  return errs;
}

/** ValidateEndpoints (less ObjectMeta): each subset's addresses and ports. */
export function validateEndpoints(ep: KubeObject): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.root('subsets');
  arr((ep as Obj).subsets).forEach((raw, i) => {
    const ss = obj(raw);
    const p = path.index(i);
    const addresses = arr(ss.addresses);
    const notReady = arr(ss.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) {
      errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    }
    addresses.forEach((a, j) => {
      errs.push(...validateEndpointAddress(obj(a), p.child('addresses').index(j)));
    });
    notReady.forEach((a, j) => {
      errs.push(...validateEndpointAddress(obj(a), p.child('notReadyAddresses').index(j)));
    });
    const ports = arr(ss.ports);
    ports.forEach((port, j) => {
      errs.push(...validateEndpointPort(obj(port), ports.length > 1, p.child('ports').index(j)));
    });
  });
  return errs;
}

// --- LimitRange ---

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

function validateLimitRangeResourceName(type: string, name: string, path: FieldPath): ErrorList {
  const errs = validateResourceName(name, path);
  if (type === 'Pod' || type === 'Container') {
    if (!name.includes('/')) {
      if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) {
        errs.push(invalid(path, resourceNameValue(name), 'must be a standard resource for containers'));
      }
    } else if (!(!name.includes('/') || name.includes('kubernetes.io/')) && !isIntegerResourceName(name)) {
      errs.push(invalid(path, resourceNameValue(name), "doesn't follow extended resource name standard"));
    }
  }
  return errs;
}

/**
 * SetDefaults_LimitRangeItem: a Container item's default limit falls back to its max, its default
 * request to the default limit, then to its min.
 */
function limitRangeItemDefaults(item: Obj): Obj {
  if (item.type !== 'Container') return item;
  const out: Obj = { ...item };
  const def: Obj = { ...obj(item.default) };
  for (const [k, v] of Object.entries(obj(item.max))) if (!Object.hasOwn(def, k)) def[k] = v;
  const defReq: Obj = { ...obj(item.defaultRequest) };
  for (const [k, v] of Object.entries(def)) if (!Object.hasOwn(defReq, k)) defReq[k] = v;
  for (const [k, v] of Object.entries(obj(item.min))) if (!Object.hasOwn(defReq, k)) defReq[k] = v;
  out.default = def;
  out.defaultRequest = defReq;
  return out;
}

/** ValidateLimitRange (less ObjectMeta). */
export function validateLimitRange(lr: KubeObject): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.root('spec', 'limits');
  const types = new Set<string>();
  arr(obj((lr as Obj).spec).limits).forEach((raw, i) => {
    const limit = limitRangeItemDefaults(obj(raw));
    const p = path.index(i);
    const type = str(limit.type);
    const typeErrs = isQualifiedName(type).map((m) => invalid(p.child('type'), type, m));
    if (typeErrs.length === 0 && !type.includes('/') && !['Pod', 'Container', 'PersistentVolumeClaim'].includes(type)) {
      typeErrs.push(invalid(p.child('type'), type, 'must be a standard limit type or fully qualified'));
    }
    errs.push(...typeErrs);
    if (types.has(type)) errs.push(duplicate(p.child('type'), type));
    types.add(type);
    const keys = new Set<string>();
    const maps: Record<string, Map<string, { q: Quantity; text: unknown }>> = {};
    const read = (field: string): void => {
      const m = new Map<string, { q: Quantity; text: unknown }>();
      for (const [k, v] of Object.entries(obj(limit[field]))) {
        errs.push(...validateLimitRangeResourceName(type, k, p.child(field).key(k)));
        keys.add(k);
        const q = parseQuantity(v);
        if ('error' in q) errs.push(invalid(p.child(field).key(k), v, q.error));
        else m.set(k, { q, text: v });
      }
      maps[field] = m;
    };
    read('max');
    read('min');
    if (type === 'Pod') {
      if (Object.keys(obj(limit.default)).length > 0) {
        errs.push(forbidden(p.child('default'), "may not be specified when `type` is 'Pod'"));
      }
      if (Object.keys(obj(limit.defaultRequest)).length > 0) {
        errs.push(forbidden(p.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
      }
      maps.default = new Map();
      maps.defaultRequest = new Map();
    } else {
      read('default');
      read('defaultRequest');
    }
    if (
      type === 'PersistentVolumeClaim' &&
      !Object.hasOwn(obj(limit.min), 'storage') &&
      !Object.hasOwn(obj(limit.max), 'storage')
    ) {
      errs.push(
        required(p.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'),
      );
    }
    read('maxLimitRequestRatio');
    const S = (x: { q: Quantity }): string => quantityString(x.q);
    const V = (x: { q: Quantity; text: unknown }): GoLiteral => quantityGoValue(x.text, x.q);
    for (const k of keys) {
      const min = maps.min?.get(k);
      const max = maps.max?.get(k);
      const def = maps.default?.get(k);
      const defReq = maps.defaultRequest?.get(k);
      const ratio = maps.maxLimitRequestRatio?.get(k);
      if (min && max && compareQuantity(min.q, max.q) > 0) {
        errs.push(invalid(p.child('min').key(k), V(min), `min value ${S(min)} is greater than max value ${S(max)}`));
      }
      if (defReq && min && compareQuantity(min.q, defReq.q) > 0) {
        errs.push(
          invalid(
            p.child('defaultRequest').key(k),
            V(defReq),
            `min value ${S(min)} is greater than default request value ${S(defReq)}`,
          ),
        );
      }
      if (defReq && max && compareQuantity(defReq.q, max.q) > 0) {
        errs.push(
          invalid(
            p.child('defaultRequest').key(k),
            V(defReq),
            `default request value ${S(defReq)} is greater than max value ${S(max)}`,
          ),
        );
      }
      if (defReq && def && compareQuantity(defReq.q, def.q) > 0) {
        errs.push(
          invalid(
            p.child('defaultRequest').key(k),
            V(defReq),
            `default request value ${S(defReq)} is greater than default limit value ${S(def)}`,
          ),
        );
      }
      if (def && min && compareQuantity(min.q, def.q) > 0) {
        errs.push(
          invalid(p.child('default').key(k), V(min), `min value ${S(min)} is greater than default value ${S(def)}`),
        );
      }
      if (def && max && compareQuantity(def.q, max.q) > 0) {
        errs.push(
          invalid(p.child('default').key(k), V(max), `default value ${S(def)} is greater than max value ${S(max)}`),
        );
      }
      if (ratio && compareQuantity(ratio.q, { num: 1n, den: 1n, format: 'DecimalSI' }) < 0) {
        errs.push(invalid(p.child('maxLimitRequestRatio').key(k), V(ratio), `ratio ${S(ratio)} is less than 1`));
      }
      if (ratio && min && max) {
        const r = Number(ratio.q.num) / Number(ratio.q.den);
        const limit2 = Number(max.q.num * min.q.den) / Number(min.q.num * max.q.den);
        if (r > limit2) {
          errs.push(
            invalid(
              p.child('maxLimitRequestRatio').key(k),
              V(ratio),
              `ratio ${S(ratio)} is greater than max/min = ${limit2.toFixed(6)}`,
            ),
          );
        }
      }
      const overcommit = (!k.includes('/') || k.includes('kubernetes.io/')) && !k.startsWith('hugepages-');
      if (!overcommit && def && defReq && compareQuantity(def.q, defReq.q) !== 0) {
        errs.push(
          invalid(
            p.child('defaultRequest').key(k),
            V(defReq),
            `default value ${S(def)} must equal to defaultRequest value ${S(defReq)} in ${k}`,
          ),
        );
      }
    }
  });
  return errs;
}

// --- ResourceQuota ---

function validateQuotaResources(hard: Obj, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  for (const [k, v] of Object.entries(hard)) {
    const p = path.key(k);
    errs.push(...validateResourceName(k, p));
    if (
      !k.includes('/') &&
      !STANDARD_QUOTA_RESOURCES.has(k) &&
      !k.startsWith('hugepages-') &&
      !k.startsWith('requests.hugepages-')
    ) {
      errs.push(invalid(p, resourceNameValue(k), INVALID_QUOTA_RESOURCE));
    }
    errs.push(...validateQuantityValue(k, v, p));
  }
  return errs;
}

const isStandardQuotaResource = (k: string): boolean =>
  STANDARD_QUOTA_RESOURCES.has(k) || k.startsWith('hugepages-') || k.startsWith('requests.hugepages-');
const scopeValidFor = (scope: string, resource: string): boolean =>
  scope === 'BestEffort' ? resource === 'pods' : QUOTA_SCOPES.has(scope) ? POD_QUOTA_RESOURCES.has(resource) : true;

/** ValidateResourceQuotaSpec. */
function validateResourceQuotaSpec(spec: Obj): ErrorList {
  const path = FieldPath.root('spec');
  const hard = obj(spec.hard);
  const errs = validateQuotaResources(hard, path.child('hard'));
  const hardNames = Object.keys(hard).sort();
  const scopes = arr(spec.scopes).map(str);
  if (scopes.length > 0) {
    const scopesValue = new GoLiteral(`[]core.ResourceQuotaScope{${scopes.map((s) => goQuote(s)).join(', ')}}`);
    const sp = path.child('scopes');
    for (const scope of scopes) {
      if (!QUOTA_SCOPES.has(scope)) errs.push(invalid(sp, scopesValue, 'unsupported scope'));
      for (const k of hardNames) {
        if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) {
          errs.push(invalid(sp, scopesValue, 'unsupported scope applied to resource'));
        }
      }
    }
    const set = new Set(scopes);
    if ((set.has('BestEffort') && set.has('NotBestEffort')) || (set.has('Terminating') && set.has('NotTerminating'))) {
      errs.push(invalid(sp, scopesValue, 'conflicting scopes'));
    }
  }
  if (isObj(spec.scopeSelector)) {
    const fp = path.child('scopeSelector', 'matchExpressions');
    const seen = new Set<string>();
    for (const raw of arr(spec.scopeSelector.matchExpressions)) {
      const req = obj(raw);
      const scope = str(req.scopeName);
      const operator = str(req.operator);
      const values = arr(req.values).map(str);
      if (!QUOTA_SCOPES.has(scope)) errs.push(invalid(fp.child('scopeName'), scope, 'unsupported scope'));
      for (const k of hardNames) {
        if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) {
          errs.push(
            invalid(fp, new GoLiteral(JSON.stringify(spec.scopeSelector)), 'unsupported scope applied to resource'),
          );
        }
      }
      if (
        ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(scope) &&
        operator !== 'Exists'
      ) {
        errs.push(
          invalid(
            fp.child('operator'),
            operator,
            "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
          ),
        );
      }
      if (operator === 'In' || operator === 'NotIn') {
        if (values.length === 0) {
          errs.push(
            required(
              fp.child('values'),
              "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            ),
          );
        }
      } else if (operator === 'Exists' || operator === 'DoesNotExist') {
        if (values.length !== 0) {
          errs.push(
            invalid(
              fp.child('values'),
              new GoLiteral(goStringSlice(values)),
              "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ),
          );
        }
      } else {
        errs.push(invalid(fp.child('operator'), operator, 'not a valid selector operator'));
      }
      seen.add(scope);
    }
    if (
      (seen.has('BestEffort') && seen.has('NotBestEffort')) ||
      (seen.has('Terminating') && seen.has('NotTerminating'))
    ) {
      errs.push(
        invalid(
          fp,
          new GoLiteral(`[]core.ResourceQuotaScope{${scopes.map((s) => goQuote(s)).join(', ')}}`),
          'conflicting scopes',
        ),
      );
    }
  }
  return errs;
}

/** ValidateResourceQuota (less ObjectMeta): spec, and the status quantities. */
export function validateResourceQuota(rq: KubeObject): ErrorList {
  const o = rq as Obj;
  const status = obj(o.status);
  return [
    ...validateResourceQuotaSpec(obj(o.spec)),
    ...validateQuotaResources(obj(status.hard), FieldPath.root('status', 'hard')),
    ...validateQuotaResources(obj(status.used), FieldPath.root('status', 'used')),
  ];
}

/** ValidateResourceQuotaUpdate (less ObjectMeta): spec valid, scopes immutable. */
export function validateResourceQuotaUpdate(rq: KubeObject, old: KubeObject): ErrorList {
  const n = obj((rq as Obj).spec);
  const errs = validateResourceQuotaSpec(n);
  const ns = [...new Set(arr(n.scopes).map(str))].sort();
  const os = [...new Set(arr(obj((old as Obj).spec).scopes).map(str))].sort();
  if (!jsonEqual(ns, os)) {
    const scopes = arr(n.scopes).map(str);
    errs.push(
      invalid(
        FieldPath.root('spec', 'scopes'),
        new GoLiteral(
          n.scopes === undefined
            ? '[]core.ResourceQuotaScope(nil)'
            : `[]core.ResourceQuotaScope{${scopes.map((s) => goQuote(s)).join(', ')}}`,
        ),
        FIELD_IMMUTABLE,
      ),
    );
  }
  return errs;
}

// --- ServiceAccount ---

/** ValidateServiceAccount checks only metadata, which the apiserver does for every kind. */
export function validateServiceAccount(_sa: KubeObject): ErrorList {
  return [];
}

// --- Event ---

/** ValidateEventCreate for core/v1 (legacyValidateEvent only, as for requests in v1). */
export function validateEvent(ev: KubeObject): ErrorList {
  const o = ev as Obj;
  const errs: ErrorList = [];
  const namespace = ev.metadata?.namespace ?? '';
  const involvedNs = str(obj(o.involvedObject).namespace);
  const nsPath = FieldPath.root('involvedObject', 'namespace');
  const eventTime = o.eventTime;
  if (eventTime === undefined || eventTime === null || eventTime === '') {
    if (involvedNs.length === 0) {
      if (namespace !== '' && namespace !== 'default')
        errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
    } else if (namespace !== involvedNs) {
      errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (involvedNs.length === 0 && namespace !== 'default' && namespace !== 'kube-system') {
      errs.push(invalid(nsPath, involvedNs, 'does not match event.namespace'));
    }
    const rc = str(o.reportingComponent);
    if (rc.length === 0) errs.push(required(FieldPath.root('reportingComponent'), ''));
    errs.push(...qualifiedName(rc, FieldPath.root('reportingComponent')));
    const ri = str(o.reportingInstance);
    if (ri.length === 0) errs.push(required(FieldPath.root('reportingInstance'), ''));
    if (ri.length > REPORTING_INSTANCE_LENGTH_LIMIT) {
      errs.push(
        invalid(
          FieldPath.root('reportingInstance'),
          '',
          `can have at most ${REPORTING_INSTANCE_LENGTH_LIMIT} characters`,
        ),
      );
    }
    const action = str(o.action);
    if (action.length === 0) errs.push(required(FieldPath.root('action'), ''));
    if (action.length > ACTION_LENGTH_LIMIT) {
      errs.push(invalid(FieldPath.root('action'), '', `can have at most ${ACTION_LENGTH_LIMIT} characters`));
    }
    const reason = str(o.reason);
    if (reason.length === 0) errs.push(required(FieldPath.root('reason'), ''));
    if (reason.length > REASON_LENGTH_LIMIT) {
      errs.push(invalid(FieldPath.root('reason'), '', `can have at most ${REASON_LENGTH_LIMIT} characters`));
    }
    if (str(o.message).length > NOTE_LENGTH_LIMIT) {
      errs.push(invalid(FieldPath.root('message'), '', `can have at most ${NOTE_LENGTH_LIMIT} characters`));
    }
  }
  for (const m of isDNS1123Subdomain(namespace)) errs.push(invalid(FieldPath.root('namespace'), namespace, m));
  return errs;
}
