/**
 * Printers of the coordination, discovery, policy, scheduling and rbac kinds
 * (pkg/printers/internalversion/printers.go, v1.32): printLease, printEndpointSlice,
 * printPodDisruptionBudget, printPriorityClass, printRoleBinding, printClusterRoleBinding.
 */
import { AGE, arr, col, intOrString, type Layout, type Obj, obj, str, wide } from './column.js';

/** listWithMoreString: up to `max` entries, then `+ N more...`; `<unset>` when empty. */
function listWithMore(all: string[], max = 3): string {
  if (all.length > max) return `${all.slice(0, max).join(',')} + ${all.length - max} more...`;
  return all.length === 0 ? '<unset>' : all.join(',');
}

/** formatDiscoveryPorts: the port number, else its name, else `*`. */
function sliceports(o: Obj): string {
  return listWithMore(
    arr(o.ports)
      .map(obj)
      .map((p) => (typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*')),
  );
}

/** formatDiscoveryEndpoints: every address of every endpoint. */
function sliceEndpoints(o: Obj): string {
  return listWithMore(
    arr(o.endpoints)
      .map(obj)
      .flatMap((e) => arr(e.addresses).map(String)),
  );
}

/** rbac.SubjectsStrings, joined with ", " as printRoleBinding prints them. */
function subjects(o: Obj, kind: 'User' | 'Group' | 'ServiceAccount'): string {
  return arr(o.subjects)
    .map(obj)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(s.namespace)}/${str(s.name)}` : str(s.name)))
    .join(', ');
}

function bindingLayout(what: 'roleBinding' | 'clusterRoleBinding'): Layout {
  return [
    col(
      'Role',
      'string',
      'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.',
      (o) => {
        const ref = obj(o.roleRef);
        return `${str(ref.kind)}/${str(ref.name)}`;
      },
    ),
    AGE,
    wide('Users', 'string', `Users in the ${what}`, (o) => subjects(o, 'User')),
    wide('Groups', 'string', `Groups in the ${what}`, (o) => subjects(o, 'Group')),
    wide('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, (o) => subjects(o, 'ServiceAccount')),
  ];
}

export const CLUSTER_LAYOUTS: Record<string, Layout> = {
  'coordination.k8s.io/Lease': [
    col('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.', (o) =>
      str(obj(o.spec).holderIdentity),
    ),
    AGE,
  ],
  'discovery.k8s.io/EndpointSlice': [
    col('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice.', (o) =>
      str(o.addressType),
    ),
    col(
      'Ports',
      'string',
      'ports specifies the list of network ports exposed by each endpoint in this slice.',
      sliceports,
    ),
    col('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.', sliceEndpoints),
    AGE,
  ],
  'policy/PodDisruptionBudget': [
    col('Min Available', 'string', 'The minimum number of pods that must be available.', (o) => {
      const v = obj(o.spec).minAvailable;
      return v === undefined || v === null ? 'N/A' : intOrString(v);
    }),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.', (o) => {
      const v = obj(o.spec).maxUnavailable;
      return v === undefined || v === null ? 'N/A' : intOrString(v);
    }),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.', (o) => {
      const v = obj(o.status).disruptionsAllowed;
      return typeof v === 'number' ? v : 0;
    }),
    AGE,
  ],
  'scheduling.k8s.io/PriorityClass': [
    col('Value', 'integer', 'value represents the integer value of this priority class.', (o) =>
      typeof o.value === 'number' ? o.value : 0,
    ),
    col(
      'Global-Default',
      'boolean',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.',
      (o) => o.globalDefault === true,
    ),
    AGE,
    // Priority 0 in printers.go although printPriorityClass fills it only for wide output (the
    // server always prints wide), so plain `kubectl get pc` shows it.
    col('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority.', (o) =>
      str(o.preemptionPolicy),
    ),
  ],
  'rbac.authorization.k8s.io/RoleBinding': bindingLayout('roleBinding'),
  'rbac.authorization.k8s.io/ClusterRoleBinding': bindingLayout('clusterRoleBinding'),
};

/**
 * Kinds without a printer: rest.NewDefaultTableConvertor (k8s.io/apiserver pkg/registry/rest/
 * table.go) prints Name and `Created At` (RFC 3339), e.g. roles, clusterroles, limitranges.
 */
export const DEFAULT_CONVERTOR_KINDS: ReadonlySet<string> = new Set([
  '/LimitRange',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/ClusterRole',
  // apiextensions-apiserver registers no printer for CustomResourceDefinitions.
  'apiextensions.k8s.io/CustomResourceDefinition',
]);
