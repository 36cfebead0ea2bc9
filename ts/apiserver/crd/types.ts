/**
 * The CustomResourceDefinition as the CRD code reads it — apiextensions/v1's generated type
 * (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go, v1.32), every field
 * checked before use —, what serving custom resources takes from it, the CRD cleanup finalizer,
 * and the JSON object test the CRD code shares.
 */
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceSubresourceScale,
} from '../../api/types/apiextensions/v1.js';
import type { JSONSchemaProps } from './schema-api.js';

/** The finalizer the CRD carries while its instances are deleted (apiextensions CustomResourceCleanupFinalizer). */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * An apiextensions/v1 object as this code reads it, from a request or from storage: any field may
 * be absent, as Go reads a zero value for it (the code checks, never trusts) — except inside an
 * openAPIV3Schema, which the schema library (./schema/) takes as it is and checks itself.
 */
export type Unchecked<T> = T extends readonly (infer E)[]
  ? Unchecked<E>[]
  : T extends object
    ? 'x-kubernetes-validations' extends keyof T
      ? T
      : { [K in keyof T]?: Unchecked<T[K]> }
    : T;

/** A CustomResourceDefinition (ts/api/types/apiextensions/v1.ts) as the CRD code reads it; its metadata as validated. */
export type Crd = Omit<Unchecked<CustomResourceDefinition>, 'metadata'> & Pick<CustomResourceDefinition, 'metadata'>;

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
  scale?: Unchecked<CustomResourceSubresourceScale>;
  /** additionalPrinterColumns, or the default Age column when there are none. */
  columns: readonly Unchecked<CustomResourceColumnDefinition>[];
  /** The CRD's Terminating condition is True: creates are refused (405). */
  terminating: boolean;
  /** The version's deprecation warning, when deprecated. */
  warning?: string;
}
