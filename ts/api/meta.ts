/**
 * The wire types of meta.k8s.io/v1 (k8s.io/apimachinery/pkg/apis/meta/v1/types.go at v0.32),
 * as their JSON looks: optional where Go has `omitempty`, Time as RFC 3339 strings, int64 as number.
 */

/** TypeMeta: `{"kind":"Pod","apiVersion":"v1"}`. */
export interface TypeMeta {
  kind?: string;
  apiVersion?: string;
}

/** metav1.Time on the wire: RFC 3339, second precision (`2024-05-01T12:00:00Z`). */
export type Time = string;
/** metav1.MicroTime on the wire: RFC 3339 with microseconds. */
export type MicroTime = string;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export type ManagedFieldsOperationType = 'Apply' | 'Update';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: ManagedFieldsOperationType | string;
  apiVersion?: string;
  time?: Time;
  fieldsType?: string;
  /** FieldsV1: a JSON trie of `f:<name>`, `k:<keys>`, `v:<value>`, `i:<index>` and `.` entries. */
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  /** Deprecated, never set by the server since 1.20. */
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: Time | null;
  deletionTimestamp?: Time | null;
  deletionGracePeriodSeconds?: number | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** ObjectMeta's JSON fields in the order Go declares them (k8s.io/apimachinery/pkg/apis/meta/v1 types.go). */
export const OBJECT_META_FIELDS: readonly string[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Any API object: TypeMeta plus metadata, everything else left open. */
export interface KubeObject extends TypeMeta {
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** Any list: `items` is always present on the wire (`[]`, never null). */
export interface KubeList<T = KubeObject> extends TypeMeta {
  metadata: ListMeta;
  items: T[];
}

// Finalizers with meaning to the garbage collector (metav1 types.go).
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

export type StatusReason =
  | ''
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StorageReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

export type CauseType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid'
  | 'UnexpectedServerResponse'
  | 'FieldManagerConflict'
  | 'ResourceVersionTooLarge';

export interface StatusCause {
  /** CauseType; the JSON name is `reason`. */
  reason?: CauseType | string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource (plural) for most reasons, the Kind for Invalid. */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** metav1.Status: `metadata` is always present (`{}`) on the wire. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code?: number;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface FieldSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export type DeletionPropagation = 'Orphan' | 'Background' | 'Foreground';

/** The `fieldValidation` directives of a write (metav1.FieldValidationIgnore/Warn/Strict, types.go). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DeleteOptions extends TypeMeta {
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  /** Deprecated in favour of propagationPolicy. */
  orphanDependents?: boolean;
  propagationPolicy?: DeletionPropagation;
  dryRun?: string[];
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One line of a watch stream; an ERROR event carries a Status. */
export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T | Status;
}

/** The annotation on the BOOKMARK that ends a watch-list's initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type: string, integer, number, boolean, date. */
  type: string;
  /** OpenAPI format; `name` marks the column holding the object name. */
  format: string;
  description: string;
  /** 0 = always shown; > 0 only with `-o wide`. */
  priority: number;
}

export interface TableRowCondition {
  type: 'Completed' | string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  /** PartialObjectMetadata (includeObject=Metadata, the default), the object, or absent. */
  object?: KubeObject;
}

/** meta.k8s.io/v1 Table: `columnDefinitions` and `rows` are always present. */
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export type IncludeObjectPolicy = 'None' | 'Metadata' | 'Object';

export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ObjectMeta;
}

export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

/** metav1.Condition, the standard status condition. */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: Time;
  reason: string;
  message: string;
}
