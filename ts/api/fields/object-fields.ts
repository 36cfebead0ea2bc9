/**
 * Which field labels each kind can be selected by, and their values for one object.
 *
 * Two Kubernetes tables meet here: the field-label conversion funcs registered per group/version/
 * kind (k8s.io/kubernetes pkg/apis/<group>/<version>/conversion.go at v1.32; every other kind gets
 * runtime.DefaultMetaV1FieldSelectorConversion) decide which labels a request may use, and the
 * registries' SelectableFields (pkg/registry/.../strategy.go) compute the values an object has.
 */
import type { KubeObject } from '../meta.js';
import { type FieldSelector, FieldSelectorError, type Fields } from './selector.js';

export interface GroupVersionKind {
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
}

interface Rule {
  /** Accepted label → the label it is matched as. */
  labels: Readonly<Record<string, string>>;
  /** The error for any other label. */
  unsupported: (label: string) => string;
}

const notSupported = (label: string) => `field label not supported: ${label}`;

function rule(labels: readonly string[], renames: Readonly<Record<string, string>> = {}): Rule {
  const map: Record<string, string> = {};
  for (const l of labels) map[l] = l;
  return { labels: { ...map, ...renames }, unsupported: notSupported };
}

/** runtime.DefaultMetaV1FieldSelectorConversion. */
const DEFAULT_RULE: Rule = {
  labels: { 'metadata.name': 'metadata.name', 'metadata.namespace': 'metadata.namespace' },
  unsupported: (label) => `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

const CORE_EVENT_LABELS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
  'metadata.namespace',
  'metadata.name',
];

/** The registered conversion funcs, by `group/version/Kind`. */
const RULES: ReadonlyMap<string, Rule> = new Map([
  [
    '/v1/Pod',
    rule(
      [
        'metadata.name',
        'metadata.namespace',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'spec.hostNetwork',
        'status.phase',
        'status.podIP',
        'status.podIPs',
        'status.nominatedNodeName',
      ],
      // Old v1 clients send spec.host.
      { 'spec.host': 'spec.nodeName' },
    ),
  ],
  ['/v1/Node', rule(['metadata.name', 'spec.unschedulable'])],
  ['/v1/ReplicationController', rule(['metadata.name', 'metadata.namespace', 'status.replicas'])],
  ['/v1/Event', rule(CORE_EVENT_LABELS)],
  ['/v1/Namespace', rule(['status.phase', 'metadata.name'])],
  ['/v1/Secret', rule(['type', 'metadata.namespace', 'metadata.name'])],
  ['/v1/Service', rule(['metadata.namespace', 'metadata.name', 'spec.clusterIP', 'spec.type'])],
  ['batch/v1/Job', rule(['metadata.name', 'metadata.namespace', 'status.successful'])],
  ['certificates.k8s.io/v1/CertificateSigningRequest', rule(['metadata.name', 'spec.signerName'])],
  [
    'events.k8s.io/v1/Event',
    rule([], {
      reason: 'reason',
      'regarding.kind': 'involvedObject.kind',
      'regarding.namespace': 'involvedObject.namespace',
      'regarding.name': 'involvedObject.name',
      'regarding.uid': 'involvedObject.uid',
      'regarding.apiVersion': 'involvedObject.apiVersion',
      'regarding.resourceVersion': 'involvedObject.resourceVersion',
      'regarding.fieldPath': 'involvedObject.fieldPath',
      reportingController: 'reportingComponent',
      type: 'type',
      'metadata.namespace': 'metadata.namespace',
      'metadata.name': 'metadata.name',
    }),
  ],
]);

function ruleFor(gvk: GroupVersionKind): Rule {
  return RULES.get(`${gvk.group}/${gvk.version}/${gvk.kind}`) ?? DEFAULT_RULE;
}

/** The field labels a kind accepts in a field selector. */
export function supportedFieldLabels(gvk: GroupVersionKind): string[] {
  return Object.keys(ruleFor(gvk).labels);
}

/**
 * Scheme.ConvertFieldLabel: the label as matched, or FieldSelectorError with Kubernetes' text
 * (`field label not supported: spec.foo`, or for kinds without a table
 * `"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"`).
 */
export function convertFieldLabel(
  gvk: GroupVersionKind,
  label: string,
  value: string,
): { field: string; value: string } {
  const r = ruleFor(gvk);
  const field = Object.hasOwn(r.labels, label) ? r.labels[label] : undefined;
  if (field === undefined) throw new FieldSelectorError(r.unsupported(label));
  return { field, value };
}

/** What the list handler does to a parsed field selector before matching (400 BadRequest on error). */
export function convertFieldSelector(gvk: GroupVersionKind, selector: FieldSelector): FieldSelector {
  return selector.transform((label, value) => convertFieldLabel(gvk, label, value));
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function int(v: unknown): string {
  return typeof v === 'number' ? String(Math.trunc(v)) : '0';
}

/** The kinds with their own SelectableFields, by `group/Kind` (every version shares them). */
const SPECIFIC: ReadonlyMap<string, { namespaced: boolean; fields: (o: Obj) => Record<string, string> }> = new Map([
  [
    '/Pod',
    {
      namespaced: true,
      fields: (o) => {
        const spec = obj(o.spec);
        const status = obj(o.status);
        const podIPs = Array.isArray(status.podIPs) ? status.podIPs : [];
        const podIP = podIPs.length > 0 ? str(obj(podIPs[0]).ip) : str(status.podIP);
        return {
          'spec.nodeName': str(spec.nodeName),
          'spec.restartPolicy': str(spec.restartPolicy),
          'spec.schedulerName': str(spec.schedulerName),
          'spec.serviceAccountName': str(spec.serviceAccountName),
          'spec.hostNetwork': spec.hostNetwork === true ? 'true' : 'false',
          'status.phase': str(status.phase),
          'status.podIP': podIP,
          'status.nominatedNodeName': str(status.nominatedNodeName),
        };
      },
    },
  ],
  [
    '/Node',
    {
      namespaced: false,
      fields: (o) => ({ 'spec.unschedulable': obj(o.spec).unschedulable === true ? 'true' : 'false' }),
    },
  ],
  ['/ReplicationController', { namespaced: true, fields: (o) => ({ 'status.replicas': int(obj(o.status).replicas) }) }],
  ['apps/ReplicaSet', { namespaced: true, fields: (o) => ({ 'status.replicas': int(obj(o.status).replicas) }) }],
  ['batch/Job', { namespaced: true, fields: (o) => ({ 'status.successful': int(obj(o.status).succeeded) }) }],
  ['/Secret', { namespaced: true, fields: (o) => ({ type: str(o.type) }) }],
  [
    '/Service',
    {
      namespaced: true,
      fields: (o) => ({ 'spec.clusterIP': str(obj(o.spec).clusterIP), 'spec.type': str(obj(o.spec).type) }),
    },
  ],
  // "name" is a bug kept for backward compatibility.
  [
    '/Namespace',
    { namespaced: false, fields: (o) => ({ 'status.phase': str(obj(o.status).phase), name: metaName(o) }) },
  ],
  ['/PersistentVolume', { namespaced: false, fields: (o) => ({ name: metaName(o) }) }],
  ['/PersistentVolumeClaim', { namespaced: true, fields: (o) => ({ name: metaName(o) }) }],
  [
    'certificates.k8s.io/CertificateSigningRequest',
    { namespaced: false, fields: (o) => ({ 'spec.signerName': str(obj(o.spec).signerName) }) },
  ],
  ['/Event', { namespaced: true, fields: (o) => coreEventFields(o) }],
  ['events.k8s.io/Event', { namespaced: true, fields: (o) => eventsV1Fields(o) }],
]);

function metaName(o: Obj): string {
  return str(obj(o.metadata).name);
}

function coreEventFields(o: Obj): Record<string, string> {
  const involved = obj(o.involvedObject);
  const source = str(obj(o.source).component) || str(o.reportingComponent);
  return {
    'involvedObject.kind': str(involved.kind),
    'involvedObject.namespace': str(involved.namespace),
    'involvedObject.name': str(involved.name),
    'involvedObject.uid': str(involved.uid),
    'involvedObject.apiVersion': str(involved.apiVersion),
    'involvedObject.resourceVersion': str(involved.resourceVersion),
    'involvedObject.fieldPath': str(involved.fieldPath),
    reason: str(o.reason),
    reportingComponent: str(o.reportingComponent),
    source,
    type: str(o.type),
  };
}

/** An events.k8s.io/v1 Event holds the same data under other names (regarding, reportingController). */
function eventsV1Fields(o: Obj): Record<string, string> {
  return coreEventFields({
    involvedObject: o.regarding,
    source: o.deprecatedSource,
    reportingComponent: o.reportingController,
    reason: o.reason,
    type: o.type,
  });
}

/**
 * The selectable fields of an object (SelectableFields / ToSelectableFields): `metadata.name`,
 * `metadata.namespace` for namespaced kinds, and the kind's own fields as strings.
 * `namespaced` applies to kinds without their own table.
 */
export function objectFields(
  gvk: Pick<GroupVersionKind, 'group' | 'kind'>,
  object: KubeObject,
  namespaced = true,
): Fields {
  const o = object as Obj;
  const specific = SPECIFIC.get(`${gvk.group}/${gvk.kind}`);
  const meta = obj(o.metadata);
  const out: Record<string, string> = { 'metadata.name': str(meta.name) };
  if (specific?.namespaced ?? namespaced) out['metadata.namespace'] = str(meta.namespace);
  if (specific !== undefined) Object.assign(out, specific.fields(o));
  return out;
}

/** Whether `object` matches a field selector already converted for its kind. */
export function matchesFieldSelector(
  selector: FieldSelector,
  gvk: Pick<GroupVersionKind, 'group' | 'kind'>,
  object: KubeObject,
  namespaced = true,
): boolean {
  return selector.empty() || selector.matches(objectFields(gvk, object, namespaced));
}
