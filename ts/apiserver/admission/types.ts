/**
 * Admission as k8s.io/apiserver pkg/admission defines it: every write is described by its
 * Attributes; mutating plugins may change the object (Admit), validating plugins only refuse it
 * (Validate). The chain runs all mutating plugins in order, then (after the kind's own defaulting
 * and validation) all validating plugins in order — kube-apiserver's plugin order
 * (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins).
 *
 * A plugin refuses a write by throwing a StatusError (admission.NewForbidden → 403 with
 * `<resource> "<name>" is forbidden: <reason>`; quota → 403 `exceeded quota: …`).
 */

import type { UserInfo } from '../authn/tokens.js';
import type { ResourceInfo } from '../registry/resources.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** admission.Attributes: what is being written, by whom. */
export interface AdmissionAttributes {
  readonly operation: Operation;
  /** The resource written (group, version, resource, kind, scope). */
  readonly info: ResourceInfo;
  /** '' for the main resource; `status`, `binding`, `eviction`, `scale`, … */
  readonly subresource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  /** The object's name ('' on a create with only generateName). */
  readonly name: string;
  /**
   * The object being written (mutating plugins change it in place); undefined on DELETE.
   * For subresources it is the subresource's body (a Binding, an Eviction, a Scale, the whole
   * object for `status`).
   */
  readonly object: Record<string, unknown> | undefined;
  /** The stored object on UPDATE and DELETE. */
  readonly oldObject: Record<string, unknown> | undefined;
  /** dryRun=All: plugins with side effects (quota usage) must not make them. */
  readonly dryRun: boolean;
  /** The user making the request (after impersonation). */
  readonly user: UserInfo;
  /** Adds a `Warning` header to the response (PodSecurity warn mode). */
  warn(message: string): void;
}

/** One admission plugin; it implements admit, validate or both. */
export interface AdmissionPlugin {
  /** The name kube-apiserver's --enable-admission-plugins uses (e.g. `LimitRanger`). */
  readonly name: string;
  /** Whether the plugin looks at this request at all (operation, resource, subresource). */
  handles(a: AdmissionAttributes): boolean;
  /** Mutating admission: may change `a.object`. */
  admit?(a: AdmissionAttributes): Promise<void>;
  /** Validating admission: throws to refuse. */
  validate?(a: AdmissionAttributes): Promise<void>;
}
