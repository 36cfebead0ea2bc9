/**
 * core/v1 Service (k8s.io/kubernetes pkg/apis/core/validation/validation.go v1.32: ValidateService,
 * validateServicePort, ValidateServiceClusterIPsRelatedFields, the traffic policy checks,
 * ValidateServiceUpdate).
 *
 * Read with the v1 defaults (type ClusterIP, sessionAffinity None, a port's protocol TCP and
 * targetPort = port, externalTrafficPolicy Cluster where it applies, internalTrafficPolicy Cluster,
 * allocateLoadBalancerNodePorts true, the ClientIP timeout 10800) and the registry's clusterIP /
 * clusterIPs normalization. This apiserver allocates no cluster IPs, so the IP family fields are
 * checked only when set.
 */
import {
  duplicate,
  type ErrorList,
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  required,
} from '../../field-errors.js';
import { GoLiteral, goQuote } from '../../go-format.js';
import type { KubeObject } from '../../meta.js';
import { isValidPortNum } from '../formats.js';
import { validateLabels } from '../labels.js';
import { INVALID_CIDR_MSG, INVALID_IP_MSG, isIPv6String, isValidCIDR, parseIPSloppy, specialIPMessages } from './ip.js';
import { validatePortNumOrName } from './pod.js';
import {
  arr,
  dns1123Label,
  dns1123Subdomain,
  goStringSlice,
  intOrString,
  isObj,
  num,
  type Obj,
  obj,
  qualifiedName,
  str,
  strMap,
} from './util.js';

// validation.go: supportedServiceType, supportedSessionAffinityType, supportedPortProtocols,
// supportedServiceIPFamily, supportedServiceIPFamilyPolicy, validExternalTrafficPolicies,
// supportedServiceInternalTrafficPolicy (sets.List order).
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
/** ports.KubeletPort. */
const KUBELET_PORT = 10250;
/** core.MaxClientIPServiceAffinitySeconds; the v1 default is DefaultClientIPServiceAffinitySeconds. */
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;
/** core.AnnotationLoadBalancerSourceRangesKey. */
const LB_SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

const SPEC = FieldPath.root('spec');

/** The spec as validation sees it: v1 defaults and normalized clusterIPs. */
interface ServiceView {
  spec: Obj;
  type: string;
  clusterIPs: string[];
  ports: Obj[];
}

function view(svc: KubeObject): ServiceView {
  const spec = obj((svc as Obj).spec);
  const type = str(spec.type) || 'ClusterIP';
  let clusterIPs = arr(spec.clusterIPs).map(str);
  const clusterIP = str(spec.clusterIP);
  if (clusterIPs.length === 0 && clusterIP !== '') clusterIPs = [clusterIP];
  return { spec, type, clusterIPs, ports: arr(spec.ports).map(obj) };
}

const isHeadless = (v: ServiceView): boolean => v.clusterIPs.length === 1 && v.clusterIPs[0] === 'None';
const externallyAccessible = (v: ServiceView): boolean =>
  v.type === 'LoadBalancer' || v.type === 'NodePort' || (v.type === 'ClusterIP' && arr(v.spec.externalIPs).length > 0);
/** SetDefaults_Service: Cluster for an externally accessible service. */
const externalTrafficPolicy = (v: ServiceView): string =>
  str(v.spec.externalTrafficPolicy) || (externallyAccessible(v) ? 'Cluster' : '');
const needsHealthCheck = (v: ServiceView): boolean => v.type === 'LoadBalancer' && externalTrafficPolicy(v) === 'Local';

/** The targetPort the defaulter leaves: the port when unset, 0 or "". */
function targetPortOf(p: Obj): unknown {
  const t = p.targetPort;
  return t === undefined || t === null || t === 0 || t === '' ? (num(p.port) ?? 0) : t;
}

/** Go's `%#v` of the core.ServicePort key Kubernetes reports a duplicate port with. */
function servicePortKey(protocol: string, port: number): GoLiteral {
  return new GoLiteral(
    `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );
}

function validateServicePort(p: Obj, requireName: boolean, names: Set<string>, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const name = str(p.name);
  if (requireName && name.length === 0) {
    errs.push(required(path.child('name'), ''));
  } else if (name.length !== 0) {
    errs.push(...dns1123Label(name, path.child('name')));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
  }
  const port = num(p.port) ?? 0;
  for (const m of isValidPortNum(port)) errs.push(invalid(path.child('port'), port, m));
  const protocol = str(p.protocol) || 'TCP';
  if (!PROTOCOLS.includes(protocol)) errs.push(notSupported(path.child('protocol'), protocol, PROTOCOLS));
  const target = intOrString(targetPortOf(p));
  errs.push(...validatePortNumOrName(target?.value, path.child('targetPort')));
  if (typeof p.appProtocol === 'string') errs.push(...qualifiedName(p.appProtocol, path.child('appProtocol')));
  return errs;
}

function validateClusterIPs(v: ServiceView): ErrorList {
  if (v.type === 'ExternalName') return [];
  const errs: ErrorList = [];
  const clusterIPsPath = SPEC.child('clusterIPs');
  const clusterIP = str(v.spec.clusterIP);
  const ipsValue = new GoLiteral(goStringSlice(v.clusterIPs));
  if (clusterIP !== '' && v.clusterIPs[0] !== clusterIP) {
    errs.push(invalid(clusterIPsPath, ipsValue, 'first value must match `clusterIP`'));
  }
  const families = arr(v.spec.ipFamilies).map(str);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!IP_FAMILIES.includes(f)) errs.push(notSupported(SPEC.child('ipFamilies').index(i), f, IP_FAMILIES));
    if (seen.has(f)) errs.push(duplicate(SPEC.child('ipFamilies').index(i), f));
    seen.add(f);
  });
  if (typeof v.spec.ipFamilyPolicy === 'string' && !IP_FAMILY_POLICIES.includes(v.spec.ipFamilyPolicy)) {
    errs.push(notSupported(SPEC.child('ipFamilyPolicy'), v.spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  let invalidIPs = false;
  v.clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (v.clusterIPs.length > 1) {
        invalidIPs = true;
        errs.push(invalid(clusterIPsPath, ipsValue, "'None' must be the first and only value"));
      }
      return;
    }
    if (parseIPSloppy(ip) === undefined) {
      invalidIPs = true;
      errs.push(invalid(clusterIPsPath.index(i), ip, INVALID_IP_MSG));
    }
  });
  if (v.clusterIPs.length > 2) errs.push(invalid(clusterIPsPath, ipsValue, 'may only hold up to 2 values'));
  if (invalidIPs) return errs;
  if (v.clusterIPs.length > 1) {
    const [a = '', b = ''] = v.clusterIPs;
    if (v.clusterIPs.length !== 2 || isIPv6String(a) === isIPv6String(b)) {
      errs.push(invalid(clusterIPsPath, ipsValue, 'may specify no more than one IP for each IP family'));
    }
  }
  if (!isHeadless(v) && v.clusterIPs.length > 0 && families.length > 0) {
    v.clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) {
        errs.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      }
      if (families[i] === 'IPv6' && !isIPv6String(ip)) {
        errs.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
      }
    });
  }
  return errs;
}

/** ValidateService (less ObjectMeta). */
export function validateService(svc: KubeObject): ErrorList {
  const v = view(svc);
  const { spec, type, ports } = v;
  const errs: ErrorList = [];
  const headless = isHeadless(v);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required(SPEC.child('ports'), ''));
  switch (type) {
    case 'LoadBalancer':
      ports.forEach((p, i) => {
        if (num(p.port) === KUBELET_PORT) {
          errs.push(
            invalid(
              SPEC.child('ports').index(i),
              KUBELET_PORT,
              `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`,
            ),
          );
        }
      });
      if (headless)
        errs.push(
          invalid(SPEC.child('clusterIPs').index(0), 'None', "may not be set to 'None' for LoadBalancer services"),
        );
      break;
    case 'NodePort':
      if (headless)
        errs.push(invalid(SPEC.child('clusterIPs').index(0), 'None', "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (v.clusterIPs.length > 0)
        errs.push(forbidden(SPEC.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (arr(spec.ipFamilies).length > 0) {
        errs.push(forbidden(SPEC.child('ipFamilies'), 'may not be set for ExternalName services'));
      }
      if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
        errs.push(forbidden(SPEC.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      }
      const cname = str(spec.externalName).replace(/\.$/, '');
      if (cname.length > 0) errs.push(...dns1123Subdomain(cname, SPEC.child('externalName')));
      else errs.push(required(SPEC.child('externalName'), ''));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    errs.push(...validateServicePort(p, ports.length > 1, names, SPEC.child('ports').index(i)));
  });
  if (isObj(spec.selector)) errs.push(...validateLabels(strMap(spec.selector), SPEC.child('selector')));
  const affinity = str(spec.sessionAffinity) || 'None';
  if (!SESSION_AFFINITIES.includes(affinity)) {
    errs.push(notSupported(SPEC.child('sessionAffinity'), affinity, SESSION_AFFINITIES));
  }
  if (affinity === 'ClientIP') {
    const timeout =
      num(obj(obj(spec.sessionAffinityConfig).clientIP).timeoutSeconds) ?? DEFAULT_CLIENT_IP_AFFINITY_SECONDS;
    if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
      errs.push(
        invalid(
          SPEC.child('sessionAffinityConfig', 'clientIP', 'timeoutSeconds'),
          timeout,
          `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`,
        ),
      );
    }
  }
  // SetDefaults_Service drops sessionAffinityConfig when the affinity is None, so Kubernetes'
  // "must not be set when session affinity is None" cannot trigger.
  errs.push(...validateClusterIPs(v));
  arr(spec.externalIPs).forEach((raw, i) => {
    const ip = str(raw);
    const p = SPEC.child('externalIPs').index(i);
    if (parseIPSloppy(ip) === undefined) errs.push(invalid(p, ip, INVALID_IP_MSG));
    else for (const m of specialIPMessages(ip)) errs.push(invalid(p, ip, m));
  });
  if (!SERVICE_TYPES.includes(type)) errs.push(notSupported(SPEC.child('type'), type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if ((num(p.nodePort) ?? 0) !== 0) {
        errs.push(
          forbidden(SPEC.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"),
        );
      }
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    const nodePort = num(p.nodePort) ?? 0;
    if (nodePort === 0) return;
    const key = `${str(p.protocol) || 'TCP'}/${nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(SPEC.child('ports').index(i).child('nodePort'), nodePort));
    nodePorts.add(key);
  });
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const protocol = str(p.protocol) || 'TCP';
    const port = num(p.port) ?? 0;
    const key = `${protocol}/${port}`;
    if (seenPorts.has(key)) errs.push(duplicate(SPEC.child('ports').index(i), servicePortKey(protocol, port)));
    seenPorts.add(key);
  });
  const ranges = arr(spec.loadBalancerSourceRanges).map(str);
  const annotations = (svc.metadata?.annotations ?? {}) as Record<string, string>;
  if (ranges.length > 0) {
    // Kubernetes' path really is capitalized here.
    const p = SPEC.child('LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errs.push(forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => {
      const value = r.trim();
      if (!isValidCIDR(value)) errs.push(invalid(p.index(i), value, INVALID_CIDR_MSG));
    });
  } else if (Object.hasOwn(annotations, LB_SOURCE_RANGES_ANNOTATION)) {
    const p = FieldPath.root('metadata', 'annotations').key(LB_SOURCE_RANGES_ANNOTATION);
    if (type !== 'LoadBalancer') errs.push(forbidden(p, "may only be used when `type` is 'LoadBalancer'"));
    const val = (annotations[LB_SOURCE_RANGES_ANNOTATION] ?? '').trim();
    if (val !== '') {
      for (const c of val.split(',')) {
        const value = c.trim();
        if (!isValidCIDR(value)) errs.push(invalid(p, value, INVALID_CIDR_MSG));
      }
    }
  }
  if (
    spec.allocateLoadBalancerNodePorts !== undefined &&
    spec.allocateLoadBalancerNodePorts !== null &&
    type !== 'LoadBalancer'
  ) {
    errs.push(forbidden(SPEC.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  const etp = externalTrafficPolicy(v);
  if (!externallyAccessible(v)) {
    if (etp !== '')
      errs.push(
        invalid(SPEC.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'),
      );
  } else if (!TRAFFIC_POLICIES.includes(etp)) {
    errs.push(notSupported(SPEC.child('externalTrafficPolicy'), etp, TRAFFIC_POLICIES));
  }
  const hcnp = num(spec.healthCheckNodePort) ?? 0;
  if (!needsHealthCheck(v)) {
    if (hcnp !== 0) {
      errs.push(
        invalid(
          SPEC.child('healthCheckNodePort'),
          hcnp,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
    }
  } else if (hcnp !== 0) {
    // 0 is what the node-port allocator fills in; this apiserver allocates none.
    for (const m of isValidPortNum(hcnp)) errs.push(invalid(SPEC.child('healthCheckNodePort'), hcnp, m));
  }
  if (typeof spec.internalTrafficPolicy === 'string' && !TRAFFIC_POLICIES.includes(spec.internalTrafficPolicy)) {
    errs.push(notSupported(SPEC.child('internalTrafficPolicy'), spec.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  if (typeof spec.trafficDistribution === 'string' && spec.trafficDistribution !== 'PreferClose') {
    errs.push(notSupported(SPEC.child('trafficDistribution'), spec.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

/**
 * ValidateServiceUpdate (less ObjectMeta): set cluster IPs may not change (a new object without
 * them keeps the old ones, as the registry's patchAllocatedValues does), healthCheckNodePort is
 * immutable while needed, then the create checks.
 */
export function validateServiceUpdate(svc: KubeObject, old: KubeObject): ErrorList {
  const n = view(svc);
  const o = view(old);
  const errs: ErrorList = [];
  if (n.type !== 'ExternalName' && o.type !== 'ExternalName' && !(isHeadless(n) && isHeadless(o))) {
    if (n.clusterIPs.length === o.clusterIPs.length) {
      o.clusterIPs.forEach((ip, i) => {
        if (ip !== n.clusterIPs[i]) {
          errs.push(
            invalid(
              SPEC.child('clusterIPs').index(i),
              new GoLiteral(goStringSlice(n.clusterIPs)),
              'may not change once set',
            ),
          );
        }
      });
    }
  }
  if (needsHealthCheck(o) && needsHealthCheck(n)) {
    if ((num(n.spec.healthCheckNodePort) ?? 0) !== (num(o.spec.healthCheckNodePort) ?? 0)) {
      errs.push(forbidden(SPEC.child('healthCheckNodePort'), 'field is immutable'));
    }
  }
  errs.push(...validateService(svc));
  return errs;
}
