/**
 * authorization.k8s.io/v1 access reviews — SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview, SelfSubjectRulesReview: create only, never stored, answered with the
 * request's object and its status filled in by the authorizer, as the REST storages of
 * pkg/registry/authorization/{subjectaccessreview,localsubjectaccessreview,selfsubjectaccessreview,
 * selfsubjectrulesreview}/rest.go (Kubernetes v1.32) do, validated as
 * pkg/apis/authorization/validation/validation.go does.
 *
 *   POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews            (kubectl auth can-i)
 *   {"spec":{"resourceAttributes":{"namespace":"default","verb":"create","resource":"pods"}}}
 *   → 201 {…, "status":{"allowed":true,"reason":"RBAC: allowed by …"}}
 */

import { type ErrorList, FieldPath, forbidden, invalid, required } from '../../api/field-errors.js';
import { parseFieldSelector } from '../../api/fields/selector.js';
import { GoLiteral, goQuote } from '../../api/go-format.js';
import { parseToRequirements, Requirement } from '../../api/labels/selector.js';
import type { LabelSelectorRequirement, ObjectMeta } from '../../api/meta.js';
import { newBadRequest, newInvalid, newMethodNotAllowed, newPathNotFound } from '../../api/status.js';
import { validateLabelSelectorRequirement } from '../../api/validation/labels.js';
import { ensureObjectNamespaceMatchesRequestNamespace } from '../../api/validation/request-namespace.js';
import { metaOf } from '../decode/type-meta.js';
import { decodeCreateBody } from '../endpoints/create.js';
import { jsonResponse } from '../endpoints/response.js';
import type { ResourceInfo } from '../registry/resources.js';
import type { Attributes, UserInfo } from './attributes.js';
import type { AuthorizationResult, Authorizer, SubjectRules } from './authorizer.js';

// k8s.io/api authorization/v1 register.go: GroupName, SchemeGroupVersion.
export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
export const AUTHORIZATION_VERSION = 'v1';

/** The four review kinds (k8s.io/api authorization/v1 types.go). */
export type AccessReviewKind =
  | 'SubjectAccessReview'
  | 'LocalSubjectAccessReview'
  | 'SelfSubjectAccessReview'
  | 'SelfSubjectRulesReview';

// pkg/registry/authorization/rest/storage_authorization.go: the resources of authorization.k8s.io/v1.
const KIND_OF_RESOURCE: Readonly<Record<string, AccessReviewKind>> = {
  subjectaccessreviews: 'SubjectAccessReview',
  selfsubjectaccessreviews: 'SelfSubjectAccessReview',
  localsubjectaccessreviews: 'LocalSubjectAccessReview',
  selfsubjectrulesreviews: 'SelfSubjectRulesReview',
};

/** The review kind a resource-table entry serves, or undefined when it is no access review. */
export function accessReviewKind(
  info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>,
): AccessReviewKind | undefined {
  if (info.group !== AUTHORIZATION_GROUP || info.version !== AUTHORIZATION_VERSION) return undefined;
  return Object.hasOwn(KIND_OF_RESOURCE, info.resource) ? KIND_OF_RESOURCE[info.resource] : undefined;
}

// ---- The API types (k8s.io/api authorization/v1 types.go), as JSON. ----

export interface FieldSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface FieldSelectorAttributes {
  rawSelector?: string;
  requirements?: FieldSelectorRequirement[];
}

export interface LabelSelectorAttributes {
  rawSelector?: string;
  requirements?: LabelSelectorRequirement[];
}

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: FieldSelectorAttributes;
  labelSelector?: LabelSelectorAttributes;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** SubjectAccessReviewSpec; SelfSubjectAccessReviewSpec is its first two fields. */
export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[] | null>;
  uid?: string;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  incomplete: boolean;
  evaluationError?: string;
}

/** What the reviews ask of the authorizer (authorizer.go's Authorize and RulesFor). */
export type AccessReviewAuthorizer = Pick<Authorizer, 'authorize' | 'rulesFor'>;

// ---- Reading the request body (the Go structs' decoding of already type-checked JSON). ----

type Obj = Record<string, unknown>;

function isRecord(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** An object with its empty strings and empty lists left out, as omitempty writes it. */
function omitEmpty<T extends object>(o: T): T {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as T;
}

function readFieldSelector(v: unknown): FieldSelectorAttributes | undefined {
  if (!isRecord(v)) return undefined;
  const requirements = Array.isArray(v.requirements)
    ? v.requirements.filter(isRecord).map((r) =>
        omitEmpty<FieldSelectorRequirement>({
          key: str(r.key),
          operator: str(r.operator),
          values: strings(r.values),
        }),
      )
    : [];
  return omitEmpty({ rawSelector: str(v.rawSelector), requirements });
}

function readLabelSelector(v: unknown): LabelSelectorAttributes | undefined {
  if (!isRecord(v)) return undefined;
  const requirements = Array.isArray(v.requirements)
    ? v.requirements.filter(isRecord).map((r) =>
        omitEmpty<LabelSelectorRequirement>({
          key: str(r.key),
          operator: str(r.operator),
          values: strings(r.values),
        }),
      )
    : [];
  return omitEmpty({ rawSelector: str(v.rawSelector), requirements });
}

function readResourceAttributes(v: unknown): ResourceAttributes | undefined {
  if (!isRecord(v)) return undefined;
  const fieldSelector = readFieldSelector(v.fieldSelector);
  const labelSelector = readLabelSelector(v.labelSelector);
  return omitEmpty<ResourceAttributes>({
    namespace: str(v.namespace),
    verb: str(v.verb),
    group: str(v.group),
    version: str(v.version),
    resource: str(v.resource),
    subresource: str(v.subresource),
    name: str(v.name),
    ...(fieldSelector === undefined ? {} : { fieldSelector }),
    ...(labelSelector === undefined ? {} : { labelSelector }),
  });
}

function readNonResourceAttributes(v: unknown): NonResourceAttributes | undefined {
  if (!isRecord(v)) return undefined;
  return omitEmpty<NonResourceAttributes>({ path: str(v.path), verb: str(v.verb) });
}

/** The spec as the Go struct holds it: nulls are nil pointers, unknown fields gone. */
function readSpec(v: unknown, self: boolean): SubjectAccessReviewSpec {
  if (!isRecord(v)) return {};
  const resourceAttributes = readResourceAttributes(v.resourceAttributes);
  const nonResourceAttributes = readNonResourceAttributes(v.nonResourceAttributes);
  const spec: SubjectAccessReviewSpec = {
    ...(resourceAttributes === undefined ? {} : { resourceAttributes }),
    ...(nonResourceAttributes === undefined ? {} : { nonResourceAttributes }),
  };
  if (self) return spec;
  const extra: Record<string, string[] | null> = {};
  if (isRecord(v.extra)) {
    for (const [k, vals] of Object.entries(v.extra)) extra[k] = vals === null ? null : strings(vals);
  }
  return omitEmpty<SubjectAccessReviewSpec>({
    ...spec,
    user: str(v.user),
    groups: strings(v.groups),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
    uid: str(v.uid),
  });
}

// ---- Validation (pkg/apis/authorization/validation/validation.go, v1.32). ----

/** `%#v` of the internal NonResourceAttributes, as field.Invalid prints a non-nil pointer's value. */
function nonResourceLiteral(a: NonResourceAttributes | undefined): unknown {
  if (a === undefined) return null;
  return new GoLiteral(
    `authorization.NonResourceAttributes{Path:${goQuote(a.path ?? '')}, Verb:${goQuote(a.verb ?? '')}}`,
  );
}

function goStringMap(m: Readonly<Record<string, string>> | undefined): string {
  if (m === undefined) return 'map[string]string(nil)';
  // fmt prints map keys sorted.
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(m[k] ?? '')}`).join(', ')}}`;
}

function goStrings(list: readonly string[] | undefined): string {
  return list === undefined ? '[]string(nil)' : `[]string{${list.map(goQuote).join(', ')}}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * time.Time's GoString for a metav1.Time: zero as Go's zero time; a decoded one is in time.Local
 * (metav1.Time.UnmarshalJSON calls Local()).
 */
function goTime(value: string | null | undefined): string {
  const t = value === null || value === undefined || value === '' ? undefined : new Date(value);
  if (t === undefined || Number.isNaN(t.getTime())) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  return `time.Date(${t.getUTCFullYear()}, time.${MONTHS[t.getUTCMonth()]}, ${t.getUTCDate()}, ${t.getUTCHours()}, ${t.getUTCMinutes()}, ${t.getUTCSeconds()}, ${t.getUTCMilliseconds() * 1_000_000}, time.Local)`;
}

/**
 * `%#v` of a metav1.ObjectMeta (the bad value of `metadata: Invalid value: …: must be empty`).
 * Pointer fields print as Go prints them only when nil: a set one shows `(*T)(…)`, Go's form
 * without the address Go would print, which no other process can know.
 */
function objectMetaLiteral(meta: ObjectMeta): GoLiteral {
  const m = meta as Obj;
  const owners = Array.isArray(m.ownerReferences)
    ? `[]v1.OwnerReference{${m.ownerReferences
        .filter(isRecord)
        .map(
          (o) =>
            `v1.OwnerReference{APIVersion:${goQuote(str(o.apiVersion))}, Kind:${goQuote(str(o.kind))}, Name:${goQuote(str(o.name))}, UID:${goQuote(str(o.uid))}, Controller:${o.controller === undefined ? '(*bool)(nil)' : '(*bool)(…)'}, BlockOwnerDeletion:${o.blockOwnerDeletion === undefined ? '(*bool)(nil)' : '(*bool)(…)'}}`,
        )
        .join(', ')}}`
    : '[]v1.OwnerReference(nil)';
  const deletion = typeof m.deletionTimestamp === 'string' ? goTime(m.deletionTimestamp) : '<nil>';
  const grace = m.deletionGracePeriodSeconds === undefined ? '(*int64)(nil)' : '(*int64)(…)';
  const generation = typeof m.generation === 'number' ? m.generation : 0;
  return new GoLiteral(
    `v1.ObjectMeta{Name:${goQuote(str(m.name))}, GenerateName:${goQuote(str(m.generateName))}, ` +
      `Namespace:${goQuote(str(m.namespace))}, SelfLink:${goQuote(str(m.selfLink))}, UID:${goQuote(str(m.uid))}, ` +
      `ResourceVersion:${goQuote(str(m.resourceVersion))}, Generation:${generation}, ` +
      `CreationTimestamp:${goTime(m.creationTimestamp as string | null | undefined)}, DeletionTimestamp:${deletion}, ` +
      `DeletionGracePeriodSeconds:${grace}, ` +
      `Labels:${goStringMap(isRecord(m.labels) ? (m.labels as Record<string, string>) : undefined)}, ` +
      `Annotations:${goStringMap(isRecord(m.annotations) ? (m.annotations as Record<string, string>) : undefined)}, ` +
      `OwnerReferences:${owners}, Finalizers:${goStrings(Array.isArray(m.finalizers) ? strings(m.finalizers) : undefined)}, ` +
      'ManagedFields:[]v1.ManagedFieldsEntry(nil)}',
  );
}

/** Whether an ObjectMeta is the zero value once managedFields (and for Local reviews the namespace) are ignored. */
function metaIsEmpty(meta: ObjectMeta, ignoreNamespace: boolean): boolean {
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'managedFields' || (ignoreNamespace && k === 'namespace')) continue;
    // Zero values decode to the zero struct: "", 0, null, {} and [] leave ObjectMeta empty.
    if (v === undefined || v === null || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isRecord(v) && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}

/** Field and label selector attributes alike: a raw selector or requirements, exactly one of them. */
function validateRawOrRequirements(
  s: { rawSelector?: string; requirements?: readonly unknown[] },
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const raw = s.rawSelector ?? '';
  const count = s.requirements?.length ?? 0;
  if (raw.length > 0 && count > 0) {
    errs.push(invalid(path.child('rawSelector'), raw, 'may not specified at the same time as requirements'));
  }
  if (raw.length === 0 && count === 0) {
    errs.push(
      required(
        path.child('requirements'),
        `when ${path.toString()} is specified, requirements or rawSelector is required`,
      ),
    );
  }
  return errs;
}

function validateFieldSelectorAttributes(s: FieldSelectorAttributes | undefined, path: FieldPath): ErrorList {
  if (s === undefined) return [];
  const errs = validateRawOrRequirements(s, path);
  const reqs = s.requirements ?? [];
  // metav1validation.ValidateFieldSelectorRequirement with AllowUnknownOperatorInRequirement.
  reqs.forEach((r, i) => {
    const p = path.child('requirements').index(i);
    if (r.key.length === 0) errs.push(required(p.child('key'), 'must be specified'));
    const values = r.values ?? [];
    if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 0) {
      errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    }
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length > 0) {
      errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
  });
  return errs;
}

function validateLabelSelectorAttributes(s: LabelSelectorAttributes | undefined, path: FieldPath): ErrorList {
  if (s === undefined) return [];
  const errs = validateRawOrRequirements(s, path);
  const reqs = s.requirements ?? [];
  reqs.forEach((r, i) => {
    errs.push(
      ...validateLabelSelectorRequirement(
        r,
        { allowUnknownOperatorInRequirement: true },
        path.child('requirements').index(i),
      ),
    );
  });
  return errs;
}

function validateResourceAttributes(a: ResourceAttributes | undefined): ErrorList {
  if (a === undefined) return [];
  // field.NewPath("spec.resourceAttributes"): one element named with the dot.
  const path = FieldPath.root('spec.resourceAttributes');
  return [
    ...validateFieldSelectorAttributes(a.fieldSelector, path.child('fieldSelector')),
    ...validateLabelSelectorAttributes(a.labelSelector, path.child('labelSelector')),
  ];
}

/** ValidateSubjectAccessReviewSpec (self: ValidateSelfSubjectAccessReviewSpec, without the user check). */
function validateSpec(spec: SubjectAccessReviewSpec, self: boolean): ErrorList {
  const path = FieldPath.root('spec');
  const errs: ErrorList = [];
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    errs.push(
      invalid(
        path.child('nonResourceAttributes'),
        nonResourceLiteral(spec.nonResourceAttributes),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    errs.push(
      invalid(
        path.child('resourceAttributes'),
        nonResourceLiteral(spec.nonResourceAttributes),
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  if (!self && (spec.user ?? '') === '' && (spec.groups ?? []).length === 0) {
    errs.push(invalid(path.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  }
  errs.push(...validateResourceAttributes(spec.resourceAttributes));
  return errs;
}

/** The validation of each kind: the spec, then the metadata rules. */
function validateReview(kind: AccessReviewKind, spec: SubjectAccessReviewSpec, meta: ObjectMeta): ErrorList {
  const errs = validateSpec(spec, kind === 'SelfSubjectAccessReview');
  if (kind === 'LocalSubjectAccessReview') {
    if (!metaIsEmpty(meta, true)) {
      errs.push(invalid(FieldPath.root('metadata'), objectMetaLiteral(meta), 'must be empty except for namespace'));
    }
    const namespace = meta.namespace ?? '';
    if (spec.resourceAttributes !== undefined && (spec.resourceAttributes.namespace ?? '') !== namespace) {
      errs.push(
        invalid(
          FieldPath.root('spec.resourceAttributes.namespace'),
          spec.resourceAttributes.namespace ?? '',
          'must match metadata.namespace',
        ),
      );
    }
    if (spec.nonResourceAttributes !== undefined) {
      errs.push(
        invalid(
          FieldPath.root('spec.nonResourceAttributes'),
          nonResourceLiteral(spec.nonResourceAttributes),
          'disallowed on this kind of request',
        ),
      );
    }
  } else if (!metaIsEmpty(meta, false)) {
    errs.push(invalid(FieldPath.root('metadata'), objectMetaLiteral(meta), 'must be empty'));
  }
  return errs;
}

// ---- Authorization attributes and the status (pkg/registry/authorization/util/helpers.go). ----

/** ResourceAttributesFrom / NonResourceAttributesFrom: the attributes the review asks about. */
export function reviewAttributes(user: UserInfo, spec: SubjectAccessReviewSpec): Attributes {
  const r = spec.resourceAttributes;
  if (r !== undefined) {
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      path: '',
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      // matchAllVersionIfEmpty.
      apiVersion: (r.version ?? '') === '' ? '*' : (r.version as string),
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return {
    user,
    verb: n.verb ?? '',
    resourceRequest: false,
    path: n.path ?? '',
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** How a selector parsed: requirements kept, and whether some failed (GetFieldSelector/GetLabelSelector). */
interface SelectorParse {
  requirements: number;
  failed: boolean;
}

/** ResourceAttributesFrom's field selector: the raw form parsed, or fieldSelectorAsSelector over requirements. */
function parseFieldSelectorAttributes(s: FieldSelectorAttributes): SelectorParse {
  const reqs = s.requirements ?? [];
  if (reqs.length > 0) {
    let kept = 0;
    let failed = false;
    for (const r of reqs) {
      const values = r.values ?? [];
      // Only In and NotIn with one value translate (= and !=); everything else is an error.
      if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 1) kept++;
      else failed = true;
    }
    return { requirements: kept, failed };
  }
  if ((s.rawSelector ?? '') !== '') {
    try {
      return { requirements: parseFieldSelector(s.rawSelector as string).requirements.length, failed: false };
    } catch {
      return { requirements: 0, failed: true };
    }
  }
  return { requirements: 0, failed: false };
}

// metav1 LabelSelectorOperator → selection.Operator (helpers.go labelSelectorOpToSelectionOp).
const LABEL_OPERATORS: Readonly<Record<string, string>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/** The label selector as labels.Parse or labelSelectorAsSelector reads it. */
function parseLabelSelectorAttributes(s: LabelSelectorAttributes): SelectorParse {
  const reqs = s.requirements ?? [];
  if (reqs.length > 0) {
    let kept = 0;
    let failed = false;
    for (const r of reqs) {
      const op = Object.hasOwn(LABEL_OPERATORS, r.operator) ? LABEL_OPERATORS[r.operator] : undefined;
      if (op === undefined) {
        failed = true;
        continue;
      }
      try {
        Requirement.create(r.key, op, r.values !== undefined && r.values.length > 0 ? r.values : null);
        kept++;
      } catch {
        failed = true;
      }
    }
    return { requirements: kept, failed };
  }
  if ((s.rawSelector ?? '') !== '') {
    try {
      return { requirements: parseToRequirements(s.rawSelector as string).length, failed: false };
    } catch {
      return { requirements: 0, failed: true };
    }
  }
  return { requirements: 0, failed: false };
}

/** BuildEvaluationError: the authorizer's error, then what the selectors' parse errors made it ignore. */
function evaluationError(authorizerError: string | undefined, spec: SubjectAccessReviewSpec): string {
  const out: string[] = [];
  if (authorizerError !== undefined && authorizerError !== '') out.push(authorizerError);
  const r = spec.resourceAttributes;
  if (r?.fieldSelector !== undefined) {
    const p = parseFieldSelectorAttributes(r.fieldSelector);
    if (p.failed) {
      out.push(
        `spec.resourceAttributes.fieldSelector ${p.requirements > 0 ? 'partially ignored' : 'ignored'} due to parse error`,
      );
    }
  }
  if (r?.labelSelector !== undefined) {
    const p = parseLabelSelectorAttributes(r.labelSelector);
    if (p.failed) {
      out.push(
        `spec.resourceAttributes.labelSelector ${p.requirements > 0 ? 'partially ignored' : 'ignored'} due to parse error`,
      );
    }
  }
  return out.join('; ');
}

/** The review status as the REST storages fill it (Allowed, Denied, Reason, EvaluationError). */
function accessStatus(answer: AuthorizationResult, spec: SubjectAccessReviewSpec): SubjectAccessReviewStatus {
  // The RBAC chain reports no evaluation error of its own: only the selectors' parse errors remain.
  const evaluation = evaluationError(undefined, spec);
  return omitEmpty<SubjectAccessReviewStatus>({
    allowed: answer.decision === 'allow',
    ...(answer.decision === 'deny' ? { denied: true } : {}),
    reason: answer.reason,
    evaluationError: evaluation,
  });
}

/**
 * getResourceRules / getNonResourceRules: the resolver's rules as the API's. The two lists and
 * `incomplete` have no omitempty (made with make(): `[]` when empty); a rule's verbs neither.
 */
function rulesStatus(rules: SubjectRules): SubjectRulesReviewStatus {
  const status: SubjectRulesReviewStatus = {
    resourceRules: rules.resourceRules.map((r) => ({
      verbs: [...r.verbs],
      ...omitEmpty({
        apiGroups: [...(r.apiGroups ?? [])],
        resources: [...(r.resources ?? [])],
        resourceNames: [...(r.resourceNames ?? [])],
      }),
    })),
    nonResourceRules: rules.nonResourceRules.map((r) => ({
      verbs: [...r.verbs],
      ...omitEmpty({ nonResourceURLs: [...(r.nonResourceURLs ?? [])] }),
    })),
    incomplete: rules.incomplete,
  };
  if (rules.evaluationError !== '') status.evaluationError = rules.evaluationError;
  return status;
}

// ---- The handler. ----

/** What the router passes: the resource, the URL's namespace and name, the query. */
export interface AccessReviewRequest {
  info: ResourceInfo;
  namespace: string;
  name: string;
  query: URLSearchParams;
}

/** The answered object: kind and apiVersion first, metadata as the review left it, then spec and status. */
function answer(
  kind: AccessReviewKind,
  meta: ObjectMeta,
  spec: object,
  status: object,
  warnings: readonly string[],
): Response {
  const obj = {
    kind,
    apiVersion: `${AUTHORIZATION_GROUP}/${AUTHORIZATION_VERSION}`,
    // Go's zero metav1.Time marshals as null; the reviews never get a creation time.
    metadata: {
      ...(meta.namespace === undefined || meta.namespace === '' ? {} : { namespace: meta.namespace }),
      creationTimestamp: null,
    },
    spec,
    status,
  };
  return jsonResponse(201, obj, { warnings: [...warnings] });
}

/**
 * A POST of one of the four reviews (create.go's handler, then the kind's REST Create): 201 with the
 * object and its status; 405 for any other method; 400/422 as Kubernetes answers a bad review.
 * `user` is the authenticated (or impersonated) requester the Self* reviews ask about.
 */
export async function handleAccessReview(
  authorizer: AccessReviewAuthorizer,
  req: AccessReviewRequest,
  method: string,
  user: UserInfo | undefined,
  bodyText: string,
): Promise<Response> {
  const kind = accessReviewKind(req.info);
  if (kind === undefined) throw newPathNotFound();
  if (req.name !== '') throw newPathNotFound();
  if (req.info.namespaced && req.namespace === '') throw newPathNotFound();
  if (method !== 'POST') throw newMethodNotAllowed();

  const { body, warnings } = decodeCreateBody(req.info, req.query, bodyText);
  const meta = metaOf(body);
  ensureObjectNamespaceMatchesRequestNamespace(req.info.namespaced ? req.namespace : '', meta);

  if (kind === 'SelfSubjectRulesReview') {
    // selfsubjectrulesreview/rest.go: no validation; the answer is a new object with only a status.
    if (user === undefined) throw newBadRequest('no user present on request');
    const namespace = isRecord(body.spec) ? str(body.spec.namespace) : '';
    if (namespace === '') throw newBadRequest('no namespace on request');
    const rules = await authorizer.rulesFor(user, namespace);
    return answer(kind, {}, {}, rulesStatus(rules), warnings);
  }
  const spec = readSpec(body.spec, kind === 'SelfSubjectAccessReview');
  // The internal object's Kind is empty after conversion: the 422 names only the group.
  const errs = validateReview(kind, spec, meta);
  if (errs.length > 0) throw newInvalid({ group: AUTHORIZATION_GROUP, kind: '' }, '', errs);
  let subject: UserInfo;
  if (kind === 'SelfSubjectAccessReview') {
    if (user === undefined) throw newBadRequest('no user present on request');
    subject = user;
  } else {
    // AuthorizationAttributesFrom: exactly the user the spec names, no groups added.
    subject = { name: spec.user ?? '', uid: spec.uid ?? '', groups: [...(spec.groups ?? [])] };
  }
  const decision = await authorizer.authorize(reviewAttributes(subject, spec));
  return answer(kind, meta, spec, accessStatus(decision, spec), warnings);
}
