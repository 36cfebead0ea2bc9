/**
 * CustomResourceDefinition validation (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go, v1.32): the name `<plural>.<group>`, the group,
 * scope, names, versions (unique, exactly one storage version, a structural schema each),
 * subresources (the scale paths), printer columns, conversion, storedVersions, the api-approved
 * annotation of protected groups and preserveUnknownFields. Conversion webhooks are not served
 * here: strategy Webhook is refused (Forbidden). selectableFields are not validated.
 */
import { type ErrorList, FieldPath, forbidden, invalid, notSupported, required } from '../../api/field-errors.js';
import { GoLiteral, goQuote } from '../../api/go-format.js';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceSubresources,
} from '../../api/types/apiextensions/v1.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../api/validation/names.js';
import { validateImmutableField } from '../../api/validation/object-meta.js';
import { isCondition } from './conditions.js';
import { validateStructural } from './schema-api.js';
import type { Crd, Unchecked } from './types.js';

const SPEC = FieldPath.root('spec');

// printerColumnDatatypes and customResourceColumnDefinitionFormats, as sets.List() sorts them.
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** ValidateCustomResourceDefinition beyond ObjectMeta's generic checks (the generic store runs those). */
export function validateCrd(crd: Crd): ErrorList {
  const spec: Unchecked<CustomResourceDefinitionSpec> = crd.spec ?? {};
  const errs: ErrorList = [];
  const name = crd.metadata?.name ?? '';
  if (name !== '') {
    const msgs = isDNS1123Subdomain(name);
    if (name !== `${str(spec.names?.plural)}.${str(spec.group)}`) msgs.push('must be spec.names.plural+"."+spec.group');
    for (const m of msgs) errs.push(invalid(FieldPath.root('metadata', 'name'), name, m));
  }
  errs.push(...validateSpec(spec, SPEC, true));
  errs.push(...validateNames(crd.status?.acceptedNames ?? {}, FieldPath.root('status', 'acceptedNames')));
  errs.push(...validateStoredVersions(crd));
  errs.push(...validateApiApproval(crd, undefined));
  errs.push(...validatePreserveUnknownFields(crd, undefined));
  return errs;
}

/** ValidateCustomResourceDefinitionUpdate: the create checks, immutable group and plural, and scope/kind once Established. */
export function validateCrdUpdate(crd: Crd, old: Crd): ErrorList {
  const spec = crd.spec ?? {};
  const oldSpec = old.spec ?? {};
  // requireOpenAPISchema: not tightened for a stored CRD that has a version without one.
  const oldHasAllSchemas = (oldSpec.versions ?? []).every((v) => v?.schema?.openAPIV3Schema);
  const errs = validateSpec(spec, SPEC, oldHasAllSchemas);
  if (isCondition(old, 'Established', 'True')) {
    errs.push(...validateImmutableField(spec.scope ?? '', oldSpec.scope ?? '', SPEC.child('scope')));
    errs.push(
      ...validateImmutableField(spec.names?.kind ?? '', oldSpec.names?.kind ?? '', SPEC.child('names', 'kind')),
    );
  }
  errs.push(...validateImmutableField(spec.group ?? '', oldSpec.group ?? '', SPEC.child('group')));
  errs.push(
    ...validateImmutableField(spec.names?.plural ?? '', oldSpec.names?.plural ?? '', SPEC.child('names', 'plural')),
  );
  errs.push(...validateNames(crd.status?.acceptedNames ?? {}, FieldPath.root('status', 'acceptedNames')));
  errs.push(...validateStoredVersions(crd));
  errs.push(...validateApiApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(crd: Crd): ErrorList {
  const path = FieldPath.root('status', 'storedVersions');
  const stored = crd.status?.storedVersions ?? [];
  if (stored.length === 0) {
    // The strategy leaves a nil slice when there is no storage version.
    return [invalid(path, new GoLiteral('[]string(nil)'), 'must have at least one stored version')];
  }
  const errs: ErrorList = [];
  const left = new Map(stored.map((v, i) => [v, i]));
  for (const v of crd.spec?.versions ?? []) {
    const vname = str(v?.name);
    const has = left.has(vname);
    if (v?.storage === true && !has) {
      errs.push(invalid(path, new GoLiteral(goStringSlice(stored)), `must have the storage version ${vname}`));
    }
    left.delete(vname);
  }
  for (const [v, i] of left) {
    errs.push(
      invalid(
        path.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

const goStringSlice = (xs: readonly string[]): string => `[]string{${xs.map((x) => goQuote(x)).join(', ')}}`;

// apihelpers.IsProtectedCommunityGroup and GetAPIApprovalState (k8s.io/apiextensions-apiserver pkg/apihelpers).
const API_APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';
const isProtectedGroup = (group: string): boolean =>
  group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');

type ApprovalState = 'approved' | 'bypassed' | 'missing' | 'invalid';

function approvalState(crd: Crd): { state: ApprovalState; reason: string } {
  const value = crd.metadata?.annotations?.[API_APPROVAL_ANNOTATION];
  if (value === undefined) {
    return {
      state: 'missing',
      reason: `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
    };
  }
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: "${value}"` };
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { state: 'approved', reason: '' };
  } catch {
    // Not a URL: invalid below.
  }
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

/** validateAPIApproval: groups under k8s.io and kubernetes.io need the api-approved annotation. */
function validateApiApproval(crd: Crd, old: Crd | undefined): ErrorList {
  if (!isProtectedGroup(str(crd.spec?.group))) return [];
  const now = approvalState(crd);
  if (old !== undefined && approvalState(old).state === now.state) return [];
  const path = FieldPath.root('metadata', 'annotations').key(API_APPROVAL_ANNOTATION);
  if (now.state === 'missing') return [required(path, now.reason)];
  if (now.state === 'invalid') return [invalid(path, crd.metadata?.annotations?.[API_APPROVAL_ANNOTATION], now.reason)];
  return [];
}

/** validatePreserveUnknownFields: v1 never turns it on. */
function validatePreserveUnknownFields(crd: Crd, old: Crd | undefined): ErrorList {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields !== true) return [];
  return [
    invalid(
      SPEC.child('preserveUnknownFields'),
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ];
}

/** Whether any schema of the spec has a default (specHasDefaults). */
function hasDefaults(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasDefaults);
  if (v === null || typeof v !== 'object') return false;
  if (Object.hasOwn(v, 'default')) return true;
  return Object.values(v).some(hasDefaults);
}

/** validateCustomResourceDefinitionSpec with v1's options (requireOpenAPISchema on create). */
function validateSpec(
  spec: Unchecked<CustomResourceDefinitionSpec>,
  path: FieldPath,
  requireSchemas: boolean,
): ErrorList {
  const errs: ErrorList = [];
  const group = str(spec.group);
  if (group === '') errs.push(required(path.child('group'), ''));
  else if (isDNS1123Subdomain(group).length > 0) {
    errs.push(invalid(path.child('group'), group, isDNS1123Subdomain(group).join(',')));
  } else if (group.split('.').length < 2) {
    errs.push(invalid(path.child('group'), group, 'should be a domain with at least one dot'));
  }
  const scope = str(spec.scope);
  if (scope === '') errs.push(required(path.child('scope'), ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') {
    errs.push(notSupported(path.child('scope'), scope, ['Cluster', 'Namespaced']));
  }

  const versions = spec.versions ?? [];
  versions.forEach((version, i) => {
    const schemaPath = path.child('versions').index(i).child('schema').child('openAPIV3Schema');
    const has = version?.schema?.openAPIV3Schema !== undefined && version.schema.openAPIV3Schema !== null;
    if (requireSchemas && !has) errs.push(required(schemaPath, 'schemas are required'));
    else if (!requireSchemas && version?.served === true && !has) {
      errs.push(required(schemaPath, 'because otherwise all fields are pruned'));
    }
  });
  if (spec.preserveUnknownFields === true && versions.some((v) => hasDefaults(v?.schema?.openAPIV3Schema))) {
    errs.push(
      invalid(path.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'),
    );
  }

  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((version, i) => {
    const vpath = path.child('versions').index(i);
    if (version?.storage === true) storageCount++;
    const vname = str(version?.name);
    if (seen.has(vname)) unique = false;
    seen.add(vname);
    const nameErrs = isDNS1035Label(vname);
    if (nameErrs.length > 0) errs.push(invalid(vpath.child('name'), vname, nameErrs.join(',')));
    errs.push(...validateDeprecationWarning(version?.deprecated === true, version?.deprecationWarning, vpath));
    const schema = version?.schema?.openAPIV3Schema;
    if (schema !== undefined && schema !== null) {
      const statusSubresource = version?.subresources?.status !== undefined && version.subresources.status !== null;
      errs.push(...validateStructural(schema, vpath.child('schema', 'openAPIV3Schema'), { statusSubresource }));
    }
    errs.push(...validateSubresources(version?.subresources, vpath.child('subresources')));
    (version?.additionalPrinterColumns ?? []).forEach((col, j) => {
      errs.push(...validateColumn(col, vpath.child('additionalPrinterColumns').index(j)));
    });
  });
  if (!unique) errs.push(invalid(path.child('versions'), versions, 'must contain unique version names'));
  if (storageCount !== 1) {
    errs.push(invalid(path.child('versions'), versions, 'must have exactly one version marked as storage version'));
  }

  const names = spec.names ?? {};
  const npath = path.child('names');
  if (str(names.plural) === '') errs.push(required(npath.child('plural'), ''));
  if (str(names.singular) === '') errs.push(required(npath.child('singular'), ''));
  if (str(names.kind) === '') errs.push(required(npath.child('kind'), ''));
  if (str(names.listKind) === '') errs.push(required(npath.child('listKind'), ''));
  errs.push(...validateNames(names, npath));
  errs.push(...validateConversion(spec, path.child('conversion')));
  return errs;
}

/** validateDeprecationWarning. */
function validateDeprecationWarning(deprecated: boolean, warning: string | undefined, vpath: FieldPath): ErrorList {
  if (warning === undefined || warning === null) return [];
  const p = vpath.child('deprecationWarning');
  if (!deprecated) return [invalid(p, warning, 'can only be set for deprecated versions')];
  const errs: ErrorList = [];
  if (new TextEncoder().encode(warning).length > 256) errs.push(invalid(p, warning, 'must be <= 256 characters long'));
  if (warning.length === 0) errs.push(invalid(p, warning, 'must not be an empty string'));
  return errs;
}

/**
 * validateCustomResourceConversion. A conversion webhook is not served by this apiserver:
 * strategy Webhook is refused (Forbidden) instead of validated and called.
 */
function validateConversion(spec: Unchecked<CustomResourceDefinitionSpec>, path: FieldPath): ErrorList {
  const conversion = spec.conversion;
  if (conversion === undefined || conversion === null) return [];
  const strategy = str(conversion.strategy);
  if (strategy === '') return [required(path.child('strategy'), '')];
  if (strategy !== 'None' && strategy !== 'Webhook') {
    return [notSupported(path.child('strategy'), strategy, ['None', 'Webhook'])];
  }
  if (strategy === 'Webhook') {
    return [forbidden(path.child('strategy'), 'conversion webhooks are not supported by this server (kubewasm)')];
  }
  const webhook = conversion.webhook;
  const errs: ErrorList = [];
  if (webhook?.clientConfig !== undefined && webhook.clientConfig !== null) {
    errs.push(forbidden(path.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
  }
  if ((webhook?.conversionReviewVersions ?? []).length > 0) {
    errs.push(
      forbidden(path.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'),
    );
  }
  return errs;
}

/** ValidateCustomResourceDefinitionNames. */
export function validateNames(names: Unchecked<CustomResourceDefinitionNames>, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const dns1035 = (field: string, value: string, p: FieldPath = path.child(field)) => {
    const msgs = isDNS1035Label(value);
    if (value !== '' && msgs.length > 0) errs.push(invalid(p, value, msgs.join(',')));
  };
  dns1035('plural', str(names.plural));
  dns1035('singular', str(names.singular));
  for (const field of ['kind', 'listKind'] as const) {
    const value = str(names[field]);
    const msgs = isDNS1035Label(value.toLowerCase());
    if (value !== '' && msgs.length > 0) {
      errs.push(
        invalid(path.child(field), value, `may have mixed case, but should otherwise match: ${msgs.join(',')}`),
      );
    }
  }
  (names.shortNames ?? []).forEach((s, i) => {
    const msgs = isDNS1035Label(str(s));
    if (msgs.length > 0) errs.push(invalid(path.child('shortNames').index(i), s, msgs.join(',')));
  });
  if (str(names.kind) !== '' && names.kind === names.listKind) {
    errs.push(invalid(path.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  }
  (names.categories ?? []).forEach((c, i) => {
    const msgs = isDNS1035Label(str(c));
    if (msgs.length > 0) errs.push(invalid(path.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}

/** validateSimpleJSONPath. */
function validateSimpleJsonPath(s: string, path: FieldPath): ErrorList {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceDefinitionSubresources: the scale paths (note Kubernetes' `scale.specReplicasPath` path element). */
function validateSubresources(
  sub: Unchecked<CustomResourceSubresources> | null | undefined,
  path: FieldPath,
): ErrorList {
  const scale = sub?.scale;
  if (scale === undefined || scale === null) return [];
  const errs: ErrorList = [];
  const check = (field: string, value: string, prefixes: string[], message: string) => {
    const p = path.child(`scale.${field}`);
    const simple = validateSimpleJsonPath(value, p);
    if (simple.length > 0) errs.push(...simple);
    else if (!prefixes.some((x) => value.startsWith(x))) errs.push(invalid(p, value, message));
  };
  const spec = str(scale.specReplicasPath);
  if (spec === '') errs.push(required(path.child('scale.specReplicasPath'), ''));
  else check('specReplicasPath', spec, ['.spec.'], 'should be a json path under .spec');
  const status = str(scale.statusReplicasPath);
  if (status === '') errs.push(required(path.child('scale.statusReplicasPath'), ''));
  else check('statusReplicasPath', status, ['.status.'], 'should be a json path under .status');
  const selector = str(scale.labelSelectorPath);
  if (selector !== '') {
    check('labelSelectorPath', selector, ['.spec.', '.status.'], 'should be a json path under either .spec or .status');
  }
  return errs;
}

/** ValidateCustomResourceColumnDefinition (its path element is the internal `JSONPath`). */
function validateColumn(col: Unchecked<CustomResourceColumnDefinition>, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (str(col.name) === '') errs.push(required(path.child('name'), ''));
  const type = str(col.type);
  const types = `must be one of ${COLUMN_TYPES.join(',')}`;
  if (type === '') errs.push(required(path.child('type'), types));
  else if (!COLUMN_TYPES.includes(type)) errs.push(invalid(path.child('type'), type, types));
  const format = str(col.format);
  if (format !== '' && !COLUMN_FORMATS.includes(format)) {
    errs.push(invalid(path.child('format'), format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  }
  const jsonPath = str(col.jsonPath);
  if (jsonPath === '') errs.push(required(path.child('JSONPath'), ''));
  else errs.push(...validateSimpleJsonPath(jsonPath, path.child('JSONPath')));
  return errs;
}
