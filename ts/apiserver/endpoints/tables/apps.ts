/**
 * apps/v1 printers (pkg/printers/internalversion/printers.go, v1.32): printDeployment,
 * printReplicaSet, printDaemonSet, printStatefulSet, printControllerRevision. The server always prints the wide cells;
 * kubectl hides priority-1 columns unless `-o wide`.
 */
import {
  AGE,
  arr,
  col,
  formatLabelSelector,
  formatLabels,
  type Layout,
  num,
  obj,
  str,
  templateColumns,
  templateSpec,
} from './column.js';

const replicas = (o: Record<string, unknown>): number => {
  const r = obj(o.spec).replicas;
  return typeof r === 'number' ? r : 1;
};
const status = (o: Record<string, unknown>) => obj(o.status);
const selector = (description: string) => ({
  description,
  cell: (o: Record<string, unknown>) => formatLabelSelector(obj(o.spec).selector),
});

export const APPS_LAYOUTS: Record<string, Layout> = {
  'apps/Deployment': [
    col(
      'Ready',
      'string',
      'Number of the pod with ready state',
      (o) => `${num(status(o).readyReplicas)}/${replicas(o)}`,
    ),
    col(
      'Up-to-date',
      'string',
      'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      (o) => num(status(o).updatedReplicas),
    ),
    col(
      'Available',
      'string',
      'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      (o) => num(status(o).availableReplicas),
    ),
    AGE,
    // printDeployment prints an invalid selector as <invalid> and an empty one as "".
    ...templateColumns(templateSpec, {
      description: 'Label selector for pods.',
      cell: (o) => {
        const s = formatLabelSelector(obj(o.spec).selector);
        return s === '<error>' ? '<invalid>' : s === '<none>' ? '' : s;
      },
    }),
  ],
  'apps/ReplicaSet': [
    col('Desired', 'integer', 'Replicas is the number of desired replicas.', (o) => replicas(o)),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas.', (o) =>
      num(status(o).replicas),
    ),
    col('Ready', 'integer', 'The number of ready replicas for this replica set.', (o) => num(status(o).readyReplicas)),
    AGE,
    ...templateColumns(
      templateSpec,
      selector('Selector is a label query over pods that should match the replica count.'),
    ),
  ],
  'apps/DaemonSet': [
    col(
      'Desired',
      'integer',
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).',
      (o) => num(status(o).desiredNumberScheduled),
    ),
    col(
      'Current',
      'integer',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
      (o) => num(status(o).currentNumberScheduled),
    ),
    col(
      'Ready',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
      (o) => num(status(o).numberReady),
    ),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod', (o) =>
      num(status(o).updatedNumberScheduled),
    ),
    col(
      'Available',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      (o) => num(status(o).numberAvailable),
    ),
    col(
      'Node Selector',
      'string',
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node.",
      (o) => formatLabels(obj(templateSpec(o)).nodeSelector),
    ),
    AGE,
    ...templateColumns(templateSpec, selector('A label query over pods that are managed by the daemon set.')),
  ],
  // printControllerRevision: the controller as formatResourceName(gvk.GroupKind(), name, withKind).
  'apps/ControllerRevision': [
    col('Controller', 'string', 'Controller of the object', (o) => {
      const ref = arr(obj(o.metadata).ownerReferences)
        .map(obj)
        .find((r) => r.controller === true);
      if (ref === undefined) return '<none>';
      const apiVersion = str(ref.apiVersion);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = str(ref.kind);
      const groupKind = group === '' ? kind : `${kind}.${group}`;
      return groupKind === '' ? str(ref.name) : `${groupKind.toLowerCase()}/${str(ref.name)}`;
    }),
    col('Revision', 'string', 'Revision indicates the revision of the state represented by Data.', (o) =>
      num(o.revision),
    ),
    AGE,
  ],
  'apps/StatefulSet': [
    col(
      'Ready',
      'string',
      'Number of the pod with ready state',
      (o) => `${num(status(o).readyReplicas)}/${replicas(o)}`,
    ),
    AGE,
    ...templateColumns(templateSpec),
  ],
};
