/**
 * The naming controller's decision (k8s.io/apiextensions-apiserver pkg/controller/status/
 * naming_controller.go calculateNamesAndConditions, v1.32): which requested names a CRD may have
 * given the names the other CRDs of its group have accepted, the NamesAccepted condition, and the
 * Established condition it starts with ("Installing" until the establishing controller sets it).
 */
import { goQuote } from '../../api/go-format.js';
import type {
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
} from '../../api/types/apiextensions/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import { findCondition } from './conditions.js';
import type { Crd, Unchecked } from './types.js';

/** equalToAcceptedOrFresh. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted) return undefined;
  if (!used.has(requested)) return undefined;
  return `${goQuote(requested)} is already in use`;
}

/** getAcceptedNamesForGroup: the resource names and kinds the group's CRDs (this one included) have accepted. */
export function acceptedNamesOfGroup(
  all: Iterable<Crd>,
  group: string,
): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of all) {
    if (crd.spec?.group !== group) continue;
    const a = crd.status?.acceptedNames ?? {};
    resources.add(a.plural ?? '');
    resources.add(a.singular ?? '');
    for (const s of a.shortNames ?? []) resources.add(s);
    kinds.add(a.kind ?? '');
    kinds.add(a.listKind ?? '');
  }
  return { resources, kinds };
}

export interface NamingResult {
  names: CustomResourceDefinitionNames;
  namesAccepted: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
  established: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
}

/** calculateNamesAndConditions. */
export function calculateNames(crd: Crd, all: Iterable<Crd>): NamingResult {
  const { resources, kinds } = acceptedNamesOfGroup(all, crd.spec?.group ?? '');
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const names: Unchecked<CustomResourceDefinitionNames> = structuredClone(accepted);
  let failed: { reason: string; message: string } | undefined;
  const check = (reason: string, err: string | undefined, accept: () => void) => {
    if (err !== undefined) failed = { reason, message: err };
    else accept();
  };
  check('PluralConflict', conflict(requested.plural ?? '', accepted.plural ?? '', resources), () => {
    names.plural = requested.plural ?? '';
  });
  check('SingularConflict', conflict(requested.singular ?? '', accepted.singular ?? '', resources), () => {
    if ((requested.singular ?? '') !== '') names.singular = requested.singular as string;
    else delete names.singular;
  });
  if (JSON.stringify(requested.shortNames ?? []) !== JSON.stringify(accepted.shortNames ?? [])) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const s of requested.shortNames ?? []) {
      if (mine.has(s)) continue;
      // Our own accepted plural/singular is in `resources`: not a conflict with ourselves.
      if (s === accepted.plural || s === accepted.singular) continue;
      const err = conflict(s, '', resources);
      if (err !== undefined) errs.push(err);
    }
    // utilerrors.NewAggregate: one message as is, several as `[a, b]`.
    const err = errs.length === 0 ? undefined : errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
    check('ShortNamesConflict', err, () => {
      if ((requested.shortNames ?? []).length > 0) names.shortNames = [...(requested.shortNames ?? [])];
      else delete names.shortNames;
    });
  }
  check('KindConflict', conflict(requested.kind ?? '', accepted.kind ?? '', kinds), () => {
    names.kind = requested.kind ?? '';
  });
  check('ListKindConflict', conflict(requested.listKind ?? '', accepted.listKind ?? '', kinds), () => {
    if ((requested.listKind ?? '') !== '') names.listKind = requested.listKind as string;
    else delete names.listKind;
  });
  if ((requested.categories ?? []).length > 0) names.categories = [...(requested.categories ?? [])];
  else delete names.categories;

  const namesAccepted: NamingResult['namesAccepted'] =
    failed === undefined
      ? { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }
      : { type: 'NamesAccepted', status: 'False', ...failed };
  const old = findCondition(crd, 'Established');
  // The stored condition as Go reads it: a missing status is "".
  let established: NamingResult['established'] =
    old === undefined
      ? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }
      : { ...old, type: 'Established', status: old.status ?? '' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = {
      type: 'Established',
      status: 'False',
      reason: 'Installing',
      message: 'the initial names have been accepted',
    };
  }
  return { names: orderedNames(names), namesAccepted, established };
}

/** CustomResourceDefinitionNames in Go's field order (plural and kind always written). */
export function orderedNames(n: DeepReadonly<Unchecked<CustomResourceDefinitionNames>>): CustomResourceDefinitionNames {
  return {
    plural: n.plural ?? '',
    ...(n.singular ? { singular: n.singular } : {}),
    ...(n.shortNames && n.shortNames.length > 0 ? { shortNames: [...n.shortNames] } : {}),
    kind: n.kind ?? '',
    ...(n.listKind ? { listKind: n.listKind } : {}),
    ...(n.categories && n.categories.length > 0 ? { categories: [...n.categories] } : {}),
  };
}

/** Whether spec.names and status.acceptedNames are the same (the sync's early exit). */
export function namesEqual(
  a: DeepReadonly<Unchecked<CustomResourceDefinitionNames>>,
  b: DeepReadonly<Unchecked<CustomResourceDefinitionNames>>,
): boolean {
  return JSON.stringify(orderedNames(a)) === JSON.stringify(orderedNames(b));
}
