/**
 * meta.k8s.io/v1 Table responses for `kubectl get` (../shared/reference/api.md §1.3): NAME and
 * AGE for every kind plus the columns kube-apiserver's printers (pkg/printers/internalversion,
 * v1.32) show first for a few kinds. Rows carry PartialObjectMetadata.
 */
import type { KubeObject, Table, TableColumnDefinition } from '../../api/meta.js';
import { rfc3339 } from '../../api/time.js';
import { customTable } from '../crd/table.js';
import type { ResourceInfo } from '../registry/resources.js';
import { APPS_LAYOUTS } from './tables/apps.js';
import { AUTOSCALING_LAYOUTS } from './tables/autoscaling.js';
import { BATCH_LAYOUTS } from './tables/batch.js';
import { CLUSTER_LAYOUTS, DEFAULT_CONVERTOR_KINDS } from './tables/cluster.js';
import {
  AGE,
  arr,
  type Column,
  col,
  humanDuration,
  type Layout,
  NAME_DESCRIPTION,
  num,
  type Obj,
  obj,
  since,
  tableOf,
} from './tables/column.js';
import { CORE_LAYOUTS } from './tables/core.js';
import { STORAGE_FULL_LAYOUTS, STORAGE_LAYOUTS } from './tables/storage.js';

export { humanDuration };

/** The Event printer's LAST SEEN: series, then lastTimestamp, then eventTime. */
function eventLastSeen(o: Obj, now: number): string {
  const series = obj(o.series);
  if (typeof series.lastObservedTime === 'string') return since(series.lastObservedTime, now);
  if (typeof o.lastTimestamp === 'string') return since(o.lastTimestamp, now);
  return since(o.eventTime, now);
}

function podReady(o: Obj): string {
  const total = arr(obj(o.spec).containers).length;
  const ready = arr(obj(o.status).containerStatuses).filter((c) => obj(c).ready === true).length;
  return `${ready}/${total}`;
}

function podStatus(o: Obj): string {
  const status = obj(o.status);
  if (obj(o.metadata).deletionTimestamp) return 'Terminating';
  if (typeof status.reason === 'string' && status.reason !== '') return status.reason;
  return typeof status.phase === 'string' && status.phase !== '' ? status.phase : 'Pending';
}

function podRestarts(o: Obj): number {
  return arr(obj(o.status).containerStatuses).reduce<number>((n, c) => n + num(obj(c).restartCount), 0);
}

const dataCount = (o: Obj): number => Object.keys(obj(o.data)).length + Object.keys(obj(o.binaryData)).length;

/** The kind-specific columns between NAME and AGE, for kinds whose AGE comes last. */
const KIND_COLUMNS: Record<string, Column[]> = {
  '/Namespace': [
    col('Status', 'string', 'The status of the namespace', (o) => {
      const phase = obj(o.status).phase;
      return typeof phase === 'string' && phase !== '' ? phase : 'Active';
    }),
  ],
  '/ConfigMap': [col('Data', 'string', 'Number of data in the ConfigMap', dataCount)],
  '/Secret': [
    col('Type', 'string', 'The type of the secret', (o) => (typeof o.type === 'string' ? o.type : 'Opaque')),
    col('Data', 'string', 'Number of data in the secret', dataCount),
  ],
  '/ServiceAccount': [
    col(
      'Secrets',
      'string',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0),
    ),
  ],
};

function serviceExternalIP(o: Obj): string {
  const spec = obj(o.spec);
  const external = arr(spec.externalIPs).map(String);
  switch (spec.type) {
    case 'LoadBalancer': {
      const ingress = arr(obj(obj(o.status).loadBalancer).ingress).map((i) =>
        String(obj(i).ip ?? obj(i).hostname ?? ''),
      );
      const all = [...ingress, ...external].filter((x) => x !== '');
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return typeof spec.externalName === 'string' ? spec.externalName : '<none>';
    default:
      return external.length > 0 ? external.join(',') : '<none>';
  }
}

function servicePorts(o: Obj): string {
  const ports = arr(obj(o.spec).ports).map((p) => {
    const port = obj(p);
    const protocol = typeof port.protocol === 'string' ? port.protocol : 'TCP';
    return port.nodePort
      ? `${String(port.port)}:${String(port.nodePort)}/${protocol}`
      : `${String(port.port)}/${protocol}`;
  });
  return ports.length > 0 ? ports.join(',') : '<none>';
}

const orNone = (v: unknown): string => (typeof v === 'string' && v !== '' ? v : '<none>');

/** `<true gates>/<gates>`, or <none> without readiness gates (printPod). */
function podReadinessGates(o: Obj): string {
  const gates = arr(obj(o.spec).readinessGates).map((g) => obj(g).conditionType);
  if (gates.length === 0) return '<none>';
  const conditions = arr(obj(o.status).conditions).map(obj);
  const ready = gates.filter((t) => conditions.some((c) => c.type === t && c.status === 'True')).length;
  return `${ready}/${gates.length}`;
}

function nodeStatus(o: Obj): string {
  const ready = arr(obj(o.status).conditions)
    .map(obj)
    .find((c) => c.type === 'Ready');
  const states = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (obj(o.spec).unschedulable === true) states.push('SchedulingDisabled');
  return states.join(',');
}

function nodeRoles(o: Obj): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj(obj(o.metadata).labels))) {
    if (k.startsWith('node-role.kubernetes.io/')) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && typeof v === 'string' && v !== '') roles.add(v);
  }
  const list = [...roles].filter((r) => r !== '').sort();
  return list.length > 0 ? list.join(',') : '<none>';
}

/** Per-kind columns after NAME; `AGE` marks where the age column goes (default: last). */
const LAYOUT: Record<string, Layout> = {
  ...CORE_LAYOUTS,
  ...APPS_LAYOUTS,
  ...BATCH_LAYOUTS,
  ...AUTOSCALING_LAYOUTS,
  ...CLUSTER_LAYOUTS,
  ...STORAGE_LAYOUTS,
  ...Object.fromEntries(Object.entries(KIND_COLUMNS).map(([k, cols]) => [k, [...cols, AGE]])),
  '/Service': [
    col('Type', 'string', 'The type of the service', (o) => obj(o.spec).type ?? 'ClusterIP'),
    col('Cluster-IP', 'string', 'The IP of the service', (o) => {
      const ip = obj(o.spec).clusterIP;
      return typeof ip === 'string' && ip !== '' ? ip : '<none>';
    }),
    col('External-IP', 'string', 'The external IPs of the service', serviceExternalIP),
    col('Port(s)', 'string', 'The ports of the service', servicePorts),
    AGE,
  ],
  // printPod with Wide: the priority-1 columns show with `kubectl get -o wide`.
  '/Pod': [
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.', podReady),
    col('Status', 'string', 'The aggregate status of the containers in this pod.', podStatus),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted.', podRestarts),
    AGE,
    col(
      'IP',
      'string',
      'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
      (o) => {
        const ip = obj(arr(obj(o.status).podIPs)[0]).ip;
        return typeof ip === 'string' && ip !== '' ? ip : '<none>';
      },
      '',
      1,
    ),
    col(
      'Node',
      'string',
      'NodeName indicates in which node this pod is scheduled.',
      (o) => orNone(obj(o.spec).nodeName),
      '',
      1,
    ),
    col(
      'Nominated Node',
      'string',
      'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
      (o) => orNone(obj(o.status).nominatedNodeName),
      '',
      1,
    ),
    col(
      'Readiness Gates',
      'string',
      'If specified, all readiness gates will be evaluated for pod readiness.',
      podReadinessGates,
      '',
      1,
    ),
  ],
  '/Node': [
    col('Status', 'string', 'The status of the node', nodeStatus),
    col('Roles', 'string', 'The roles of the node', nodeRoles),
    AGE,
    col(
      'Version',
      'string',
      'Kubelet Version reported by the node.',
      (o) => obj(obj(obj(o.status).nodeInfo)).kubeletVersion ?? '',
    ),
  ],
};

/** Kinds whose printer does not start with NAME (the Event printer). */
const FULL_LAYOUT: Record<string, Layout> = {
  ...STORAGE_FULL_LAYOUTS,
  // printScale (`kubectl get --subresource=scale`): its Name column has no `name` format.
  'autoscaling/Scale': [
    col('Name', 'string', NAME_DESCRIPTION, (o) => obj(o.metadata).name ?? ''),
    col('Desired', 'integer', 'replicas is the desired number of instances for the scaled object.', (o) =>
      num(obj(o.spec).replicas),
    ),
    col('Available', 'integer', 'replicas is the actual number of observed instances of the scaled object.', (o) =>
      num(obj(o.status).replicas),
    ),
    AGE,
  ],
  '/Event': [
    col('Last Seen', 'string', 'Time when last this event was observed.', eventLastSeen),
    col(
      'Type',
      'string',
      'Type of this event (Normal, Warning), new types could be added in the future.',
      (o) => o.type ?? '',
    ),
    col(
      'Reason',
      'string',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
      (o) => o.reason ?? '',
    ),
    col('Object', 'string', 'The object that this event is about.', (o) => {
      const io = obj(o.involvedObject);
      return `${String(io.kind ?? '').toLowerCase()}/${String(io.name ?? '')}`;
    }),
    col('Message', 'string', 'A human-readable description of the status of this operation.', (o) =>
      String(o.message ?? '').trim(),
    ),
    col('Name', 'string', 'Name must be unique within a namespace.', (o) => obj(o.metadata).name ?? '', 'name', 1),
  ],
};

const nameColumn = (): Column => col('Name', 'string', NAME_DESCRIPTION, (o) => obj(o.metadata).name ?? '', 'name');

/** rest.NewDefaultTableConvertor's columns: Name and `Created At` (the UTC creationTimestamp). */
const DEFAULT_CONVERTOR: Layout = [
  nameColumn(),
  col(
    'Created At',
    'date',
    'CreationTimestamp is a timestamp representing the server time when this object was created.',
    (o) => {
      const ms = Date.parse(String(obj(o.metadata).creationTimestamp ?? ''));
      return Number.isNaN(ms) ? '0001-01-01T00:00:00Z' : rfc3339(ms);
    },
  ),
];

function layoutFor(info: ResourceInfo): Layout {
  const key = `${info.group}/${info.kind}`;
  const full = FULL_LAYOUT[key];
  if (full !== undefined) return full;
  if (DEFAULT_CONVERTOR_KINDS.has(key)) return DEFAULT_CONVERTOR;
  return [nameColumn(), ...(LAYOUT[`${info.group}/${info.kind}`] ?? [AGE])];
}

export interface TableOptions {
  /** Wall clock now, for AGE. */
  now: number;
  /** Omit the column definitions (later watch events). */
  noHeaders?: boolean;
  resourceVersion?: string;
  continue?: string;
}

/** A Table of `objects` (one row each), as `GET` with `Accept: …;as=Table;g=meta.k8s.io` answers. */
export function toTable(info: ResourceInfo, objects: readonly KubeObject[], options: TableOptions): Table {
  // Custom resources: their CRD's printer columns (crd/table.ts).
  if (info.custom !== undefined) return customTable(info.custom.columns, objects, options);
  const layout = layoutFor(info);
  const age: TableColumnDefinition = {
    name: 'Age',
    type: 'string',
    format: '',
    description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
    priority: 0,
  };
  return tableOf(
    layout.map((c) => (c === AGE ? age : c.def)),
    objects,
    (o) => {
      const created =
        typeof o.metadata?.creationTimestamp === 'string' ? Date.parse(o.metadata.creationTimestamp) : Number.NaN;
      return layout.map((c) =>
        c === AGE
          ? Number.isNaN(created)
            ? '<unknown>'
            : humanDuration(options.now - created)
          : c.cell(o as Obj, options.now),
      );
    },
    options,
  );
}

/** Whether an Accept header asks for a meta.k8s.io/v1 Table. */
export function wantsTable(accept: string | null): boolean {
  if (accept === null) return false;
  return accept.split(',').some((part) => {
    const params = part.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io') && !params.includes('v=v1beta1');
  });
}
