/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as this server reads it
 * (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go, v1.32): the fields the
 * validation, the controllers and the serving of custom resources use.
 */
import type { KubeObject } from '../../api/meta.js';
import type { JSONSchemaProps } from './schema-api.js';

/** The finalizer the CRD carries while its instances are deleted (apiextensions CustomResourceCleanupFinalizer). */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export interface CrdNames {
  plural?: string;
  singular?: string;
  shortNames?: string[];
  kind?: string;
  listKind?: string;
  categories?: string[];
}

export interface CrdColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CrdScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CrdSubresources {
  status?: Record<string, unknown> | null;
  scale?: CrdScale | null;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps } | null;
  subresources?: CrdSubresources | null;
  additionalPrinterColumns?: CrdColumn[];
  selectableFields?: { jsonPath?: string }[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdSpec {
  group?: string;
  names?: CrdNames;
  scope?: string;
  versions?: CrdVersion[];
  conversion?: { strategy?: string; webhook?: unknown } | null;
  preserveUnknownFields?: boolean;
}

export interface CrdStatus {
  conditions?: CrdCondition[];
  acceptedNames?: CrdNames;
  storedVersions?: string[];
}

export interface Crd extends KubeObject {
  spec?: CrdSpec;
  status?: CrdStatus;
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What serving a custom resource takes from its CRD. */
export interface CustomResourceServing {
  /** The CRD's name (`widgets.example.com`). */
  crdName: string;
  /** The version objects are stored in (written with this apiVersion). */
  storageVersion: string;
  /** The list kind (`WidgetList`, or the CRD's own listKind). */
  listKind: string;
  /** The version's openAPIV3Schema. */
  schema: JSONSchemaProps | undefined;
  scale?: CrdScale;
  /** additionalPrinterColumns, or the default Age column when there are none. */
  columns: readonly CrdColumn[];
  /** The CRD's Terminating condition is True: creates are refused (405). */
  terminating: boolean;
  /** The version's deprecation warning, when deprecated. */
  warning?: string;
}
