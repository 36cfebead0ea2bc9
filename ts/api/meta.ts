/**
 * The wire types of meta.k8s.io/v1 (k8s.io/apimachinery/pkg/apis/meta/v1/types.go at v0.32) for
 * the rest of the tree: the generated ones of types/meta/v1.ts re-exported, and beside them what
 * the OpenAPI does not describe — TypeMeta, the open KubeObject and KubeList, the Go constants of
 * StatusReason and CauseType, WatchEvent, Table and PartialObjectMetadata.
 */
import type * as metav1 from './types/meta/v1.js';
import type { ListMeta, ObjectMeta } from './types/meta/v1.js';

export type {
  Condition,
  DeleteOptions,
  DeletionPropagation,
  FieldSelectorRequirement,
  LabelSelector,
  LabelSelectorRequirement,
  ListMeta,
  ManagedFieldsEntry,
  ManagedFieldsOperationType,
  MicroTime,
  ObjectMeta,
  OwnerReference,
  Preconditions,
  StatusCause,
  StatusDetails,
  Time,
} from './types/meta/v1.js';

/** TypeMeta: `{"kind":"Pod","apiVersion":"v1"}`. */
export interface TypeMeta {
  kind?: string;
  apiVersion?: string;
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

/** metav1.StatusReason's constants (types.go); the schema types the field as a plain string. */
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

/** metav1.CauseType's constants (types.go), for StatusCause's `reason`. */
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

/**
 * metav1.Status as kube-apiserver writes it: `kind`, `apiVersion` and `metadata` always present
 * (`metadata` is a struct, which Go's omitempty never drops), `status` and `reason` one of Go's
 * constants.
 */
export type Status = metav1.Status & {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: ListMeta;
  status?: 'Success' | 'Failure';
  reason?: StatusReason;
};

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

/** The `fieldValidation` directives of a write (metav1.FieldValidationIgnore/Warn/Strict, types.go). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
