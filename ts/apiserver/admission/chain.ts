/**
 * The admission chain kube-apiserver runs on every write (k8s.io/apiserver pkg/admission/chain.go
 * chainAdmissionHandler, v1.32): `admit` calls every mutating plugin that handles the request, in
 * plugin order; `validate` calls every validating one, in the same order. The handlers call admit
 * before the kind's strategy (defaults, PrepareForCreate/Update, validation) and validate after it,
 * right before storage (registry/generic/registry/store.go createValidation/updateValidation/
 * deleteValidation). The first plugin to refuse stops the chain.
 */
import type { KubeObject } from '../../api/meta.js';
import { newForbidden, type StatusError } from '../../api/status.js';
import type { UserInfo } from '../authn/tokens.js';
import type { ResourceInfo } from '../registry/resources.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from './types.js';

export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  /** The plugins' names, in the order they run. */
  names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  /** Mutating admission: every plugin's admit, in order. */
  async admit(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      if (p.admit !== undefined && p.handles(a)) await p.admit(a);
    }
  }

  /** Validating admission: every plugin's validate, in order. */
  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      if (p.validate !== undefined && p.handles(a)) await p.validate(a);
    }
  }
}

/** What a handler knows of a write; `warnings` collects the plugins' Warning headers. */
export interface AttributesInit {
  operation: Operation;
  info: ResourceInfo;
  subresource?: string;
  namespace: string;
  name: string;
  object: Record<string, unknown> | undefined;
  oldObject: Record<string, unknown> | undefined;
  dryRun: boolean;
  user: UserInfo | undefined;
}

// user.Anonymous: a request with no user (in-process callers that skip authentication).
const ANONYMOUS: UserInfo = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };

/** admission.NewAttributesRecord: `warn` appends to `warnings` (the response's Warning headers). */
export function admissionAttributes(init: AttributesInit, warnings: string[]): AdmissionAttributes {
  return {
    operation: init.operation,
    info: init.info,
    subresource: init.subresource ?? '',
    namespace: init.namespace,
    name: init.name,
    object: init.object,
    oldObject: init.oldObject,
    dryRun: init.dryRun,
    user: init.user ?? ANONYMOUS,
    warn: (message) => {
      if (!warnings.includes(message)) warnings.push(message);
    },
  };
}

/**
 * admission.NewForbidden (k8s.io/apiserver pkg/admission/errors.go): 403 on the request's resource
 * (without the subresource), named by extractResourceName — the request's name, else the object's
 * name, else its generateName, else "Unknown".
 */
export function admissionForbidden(a: AdmissionAttributes, reason: string): StatusError {
  let name = a.name;
  if (name === '') {
    name = 'Unknown';
    const meta = (a.object as KubeObject | undefined)?.metadata;
    if (meta?.name) name = meta.name;
    else if (meta?.generateName) name = meta.generateName;
  }
  return newForbidden({ group: a.info.group, resource: a.info.resource }, name, reason);
}

/**
 * utilerrors.NewAggregate(errs).Error() (apimachinery pkg/util/errors): one message as it is, several
 * de-duplicated and joined as `[a, b]`.
 */
export function aggregateMessage(messages: readonly string[]): string {
  const seen = [...new Set(messages)];
  return seen.length === 1 ? (seen[0] as string) : `[${seen.join(', ')}]`;
}

/** What attributes are made from: the routed request (registry/generic/context.ts ResourceRequest). */
export interface RequestLike {
  info: ResourceInfo;
  namespace: string;
  name: string;
  subresource?: string;
  user?: UserInfo;
}

/**
 * The attributes of a handler's write: its request, the object and the stored one. On a create the
 * name is the object's (empty with only a generateName, as names are generated after admission).
 */
export function requestAttributes(
  req: RequestLike,
  operation: Operation,
  object: Record<string, unknown> | undefined,
  oldObject: Record<string, unknown> | undefined,
  dryRun: boolean,
  warnings: string[],
): AdmissionAttributes {
  const name = operation === 'CREATE' && req.name === '' ? ((object as KubeObject)?.metadata?.name ?? '') : req.name;
  return admissionAttributes(
    {
      operation,
      info: req.info,
      ...(req.subresource === undefined ? {} : { subresource: req.subresource }),
      namespace: req.namespace,
      name,
      object,
      oldObject,
      dryRun,
      user: req.user,
    },
    warnings,
  );
}
