/**
 * The service evaluator (pkg/quota/v1/evaluator/core/services.go, v1.32): `services`,
 * `count/services`, `services.nodeports` (one per port of a NodePort or LoadBalancer service; a
 * LoadBalancer with allocateLoadBalancerNodePorts=false counts only ports with an explicit
 * nodePort) and `services.loadbalancers`. CREATE and UPDATE (the type can change).
 */
import { type Evaluator, genericMatches, objectCountName } from './evaluator.js';
import { isObj, objAt } from './pod-resources.js';
import { decimal, intersection, type ResourceList } from './resource-list.js';

type Obj = Record<string, unknown>;

const SERVICE_COUNT = objectCountName('', 'services');
// services.go serviceResources.
const SERVICE_RESOURCES = [SERVICE_COUNT, 'services', 'services.nodeports', 'services.loadbalancers'];

/** GetQuotaServiceType: NodePort, LoadBalancer or '' for the types quota does not charge extra. */
export function quotaServiceType(svc: Obj): string {
  const type = objAt(svc, 'spec').type;
  return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
}

export function serviceUsage(svc: Obj): ResourceList {
  const spec = objAt(svc, 'spec');
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  const out: ResourceList = new Map([
    [SERVICE_COUNT, decimal(1)],
    ['services', decimal(1)],
    ['services.loadbalancers', decimal(0)],
    ['services.nodeports', decimal(0)],
  ]);
  if (spec.type === 'NodePort') out.set('services.nodeports', decimal(ports.length));
  if (spec.type === 'LoadBalancer') {
    // ServiceLBNodePortControl (GA): without node ports only the explicitly requested ones count.
    const withNodePorts = ports.filter((p) => isObj(p) && typeof p.nodePort === 'number' && p.nodePort !== 0).length;
    out.set('services.nodeports', decimal(spec.allocateLoadBalancerNodePorts === false ? withNodePorts : ports.length));
    out.set('services.loadbalancers', decimal(1));
  }
  return out;
}

export function serviceEvaluator(): Evaluator {
  const evaluator: Evaluator = {
    group: '',
    resource: 'services',
    constraints: () => undefined,
    handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
    matches: (quota, obj) => genericMatches(evaluator, quota, obj),
    matchingResources: (input) => intersection(input, SERVICE_RESOURCES),
    matchesScope: () => false,
    usage: serviceUsage,
  };
  return evaluator;
}
