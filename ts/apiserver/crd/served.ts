/**
 * The resources a CustomResourceDefinition serves (customresource_handler.go getOrCreateServingInfoFor,
 * v1.32): one ResourceInfo per served version of an Established CRD, with what the handlers need
 * of the CRD in `custom` — the version's schema, the status and scale subresources, the printer
 * columns, and whether the CRD is being deleted (then creates are refused).
 */

import type { CustomResourceColumnDefinition } from '../../api/types/apiextensions/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { compareVersionPriority } from '../../api/version-priority.js';
import type { ResourceInfo } from '../registry/resources.js';
import { isCondition } from './conditions.js';
import { storageVersionOf } from './defaults.js';
import type { JSONSchemaProps } from './schema-api.js';
import { CREATION_TIMESTAMP_DESCRIPTION } from './table.js';
import type { Crd, CustomResourceServing, Unchecked } from './types.js';

// discovery_controller.go: the verbs of a custom resource, and of one whose CRD is terminating.
const VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const TERMINATING_VERBS = ['delete', 'deletecollection', 'get', 'list', 'watch'];

/** serveDefaultColumnsIfEmpty: an Age column of metadata.creationTimestamp. */
const DEFAULT_COLUMNS: readonly Unchecked<CustomResourceColumnDefinition>[] = [
  { name: 'Age', type: 'date', description: CREATION_TIMESTAMP_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' },
];

/** The served resources of a CRD, preferred version first; none until it is Established. */
export function servedResourcesOf(crd: DeepReadonly<Crd>): ResourceInfo[] {
  const spec = crd.spec ?? {};
  // The names served are the accepted ones (status.acceptedNames), as the handler reads them.
  const names = crd.status?.acceptedNames ?? {};
  if (!isCondition(crd, 'Established', 'True')) return [];
  const plural = names.plural ?? '';
  const kind = names.kind ?? '';
  if (plural === '' || kind === '') return [];
  const storageVersion = storageVersionOf(crd) ?? '';
  // customresource_handler.go and discovery_controller.go read the Terminating condition.
  const terminating = isCondition(crd, 'Terminating', 'True');
  const out: ResourceInfo[] = [];
  for (const v of spec.versions ?? []) {
    if (v?.served !== true || typeof v.name !== 'string') continue;
    const status = v.subresources?.status !== undefined && v.subresources.status !== null;
    const scale = v.subresources?.scale ?? undefined;
    // The schema library (./schema/) reads schemas and never writes them, but takes them mutable:
    // the informer's read-only schema is handed over as it is, not copied per rebuild.
    const schema = v.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
    const columns =
      (v.additionalPrinterColumns ?? []).length > 0 ? (v.additionalPrinterColumns ?? []) : DEFAULT_COLUMNS;
    const deprecated =
      v.deprecated === true ? (v.deprecationWarning ?? `${spec.group}/${v.name} ${kind} is deprecated`) : undefined;
    const custom: CustomResourceServing = {
      crdName: crd.metadata?.name ?? '',
      storageVersion,
      listKind: names.listKind ?? `${kind}List`,
      schema,
      columns,
      terminating,
      ...(scale === null || scale === undefined ? {} : { scale }),
      ...(deprecated === undefined ? {} : { warning: deprecated }),
    };
    out.push({
      group: spec.group ?? '',
      version: v.name,
      resource: plural,
      singular: names.singular ?? kind.toLowerCase(),
      kind,
      namespaced: spec.scope === 'Namespaced',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      // customResourceStrategy: metadata.generation is always kept.
      generation: true,
      fields: Object.keys(schema?.properties ?? {}).filter(
        (k) => k !== 'apiVersion' && k !== 'kind' && k !== 'metadata',
      ),
      statusOnSubresource: status,
      verbs: terminating ? TERMINATING_VERBS : VERBS,
      ...(scale === null || scale === undefined ? {} : { subresources: ['scale' as const] }),
      custom,
    });
  }
  return out.sort((a, b) => compareVersionPriority(a.version, b.version));
}
