/**
 * Bad requests against the apiserver handler, in process: one table, each case a request with the
 * exact code, reason, message (and causes) kube-apiserver 1.32 answers with, and the proof that
 * nothing was written (every key under /registry/ and the store revision, before and after). Then
 * the protection filters (429, 504, 413, nesting depth), prototype keys in bodies and patches, and
 * a few of the same over HTTPS through `kubewasm up`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusCause } from '../../ts/api/meta.js';
import { storageAuthorizer } from '../../ts/apiserver/auth/testing/storage-authorizer.js';
import { parseTokenFile } from '../../ts/apiserver/authn/tokens.js';
import { createApiServer } from '../../ts/apiserver/server.js';
import { type TestServer, TOKEN, testRequest, testServer } from '../../ts/apiserver/testing/test-server.js';
import { VirtualClock } from '../../ts/sim/clock.js';
import { WasmStorage } from '../../ts/storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../ts/wasm/node.js';
import { snapshot } from '../testing/bad-requests.js';
import { UpCluster } from '../testing/up.js';

const NS = '/api/v1/namespaces';
const CM = `${NS}/team-a/configmaps`;
const PODS = `${NS}/team-a/pods`;
const DEP = '/apis/apps/v1/namespaces/team-a/deployments';

const STRICT = '?fieldValidation=Strict';
const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
const YAML = { 'Content-Type': 'application/yaml' };

/** The RFC 1123 subdomain text of validation.IsDNS1123Subdomain. */
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
/** The label/annotation key name-part text of validation.IsQualifiedName. */
const QUALIFIED_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
/** validation.IsValidLabelValue's text. */
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
/** The text of resource.ErrFormatWrong (apimachinery pkg/api/resource/quantity.go). */
const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** The Go type DefaultMetaFactory.Interpret decodes into (runtime/serializer/json/meta.go). */
const FIND_KIND =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const OPTIMISTIC_LOCK = 'the object has been modified; please apply your changes to the latest version and try again';

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: 'b' },
  ...extra,
});

const deployment = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...spec,
  },
});

const pod = (name: string, container: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...container }] },
});

/** `{"a":{"a":…1…}}` nested `depth` objects deep. */
const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{"a":1${'}'.repeat(depth)}`;

/** The objects each case starts from, besides the namespaces default and team-a. */
interface Fixture extends TestServer {
  cm1: { uid: string; resourceVersion: string };
}

async function fixture(): Promise<Fixture> {
  const server = await testServer();
  const made = await server.json('POST', CM, cm('cm1'));
  if (made.status !== 201) throw new Error(`fixture: ${JSON.stringify(made.body)}`);
  const meta = made.body.metadata as { uid: string; resourceVersion: string };
  const web = await server.json('POST', DEP, deployment('web'));
  if (web.status !== 201) throw new Error(`fixture: ${JSON.stringify(web.body)}`);
  return { ...server, cm1: { uid: meta.uid, resourceVersion: meta.resourceVersion } };
}

/** One bad request: what is sent and the Status kube-apiserver answers with. */
interface BadRequest {
  name: string;
  method: string;
  path: string;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown | ((f: Fixture) => unknown);
  headers?: Record<string, string>;
  /** Omits the bearer token, or sends this one. */
  token?: string | null;
  code: number;
  reason: string;
  message: string | RegExp | ((f: Fixture) => string);
  causes?: StatusCause[];
  details?: Record<string, unknown>;
}

const big = (n: number): string => 'x'.repeat(n);

/** A continue token in the storage's format (storage.EncodeContinue): base64url of {v, rv, start}. */
const continueToken = (rv: number, after: string): string =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${after}\u0000` })).toString('base64url');

const CASES: BadRequest[] = [
  // --- malformed JSON and YAML -------------------------------------------------------------
  {
    name: 'truncated JSON',
    method: 'POST',
    path: CM,
    body: '{"metadata":',
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"metadata":)',
  },
  {
    name: 'trailing comma in JSON',
    method: 'POST',
    path: CM,
    body: '{"metadata":{"name":"trailing"},}',
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'}\' looking for beginning of object key string ({"metadata":{"name":"trailing" ...)',
  },
  {
    name: 'JSON array instead of an object',
    method: 'POST',
    path: CM,
    body: '[]',
    code: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${FIND_KIND} (5b5d)`,
  },
  {
    name: 'JSON string instead of an object',
    method: 'POST',
    path: CM,
    body: '"cm"',
    code: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${FIND_KIND} (22636d22)`,
  },
  {
    name: 'kind that is not a string',
    method: 'POST',
    path: CM,
    body: '{"kind":5}',
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
  },
  {
    name: 'empty body on create',
    method: 'POST',
    path: CM,
    body: '',
    code: 400,
    reason: 'BadRequest',
    message:
      "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
  },
  {
    name: 'garbage after the object',
    method: 'PUT',
    path: `${CM}/cm1`,
    body: '{"metadata":{"name":"cm1"}}x',
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'x\' after top-level value ({"metadata":{"name":"cm1"}}x)',
  },
  {
    name: 'control character in a JSON string',
    method: 'POST',
    path: CM,
    body: '{"data":{"a":"\u0001"}}',
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'\\x01\' in string literal ({"data":{"a":"\u0001"}})',
  },
  {
    name: 'malformed YAML',
    method: 'POST',
    path: CM,
    body: 'metadata:\n  name: y\n bad: indent\n',
    headers: YAML,
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): yaml: line 3: All mapping items must start at the same column (6d657461646174613a0a20206e616d653a20790a206261643a20696e6465 ...)',
  },
  {
    name: 'unterminated YAML quote',
    method: 'POST',
    path: CM,
    body: 'metadata:\n  name: "y\n',
    headers: YAML,
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): yaml: line 3: Missing closing "quote (6d657461646174613a0a20206e616d653a2022790a)',
  },
  {
    name: 'YAML sequence instead of a mapping',
    method: 'POST',
    path: CM,
    body: '- a\n- b\n',
    headers: YAML,
    code: 400,
    reason: 'BadRequest',
    message: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${FIND_KIND} (2d20610a2d20620a)`,
  },

  // --- wrong kind or apiVersion, and the URL ----------------------------------------------
  {
    name: 'deployment sent as extensions/v1beta1',
    method: 'POST',
    path: DEP,
    body: { ...deployment('old'), apiVersion: 'extensions/v1beta1' },
    code: 400,
    reason: 'BadRequest',
    message: 'the API version in the data (extensions/v1beta1) does not match the expected API version (apps/v1)',
  },
  {
    // handlers/create.go transformDecodeError: the body decodes as a v1 Secret, then cannot convert.
    name: 'a Secret posted to configmaps',
    method: 'POST',
    path: CM,
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } },
    code: 400,
    reason: 'BadRequest',
    message:
      'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
  },
  {
    name: 'a Deployment posted to configmaps',
    method: 'POST',
    path: CM,
    body: deployment('d1'),
    code: 400,
    reason: 'BadRequest',
    message:
      'Deployment in version "v1" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion',
  },
  {
    name: 'name in the body differs from the URL',
    method: 'PUT',
    path: `${CM}/cm1`,
    body: cm('other'),
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (other) does not match the name on the URL (cm1)',
  },

  // --- names ---------------------------------------------------------------------------------
  {
    name: 'name longer than 253 characters',
    method: 'POST',
    path: CM,
    body: cm('a'.repeat(254)),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "${'a'.repeat(254)}" is invalid: metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
    causes: [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
        field: 'metadata.name',
      },
    ],
  },
  {
    name: 'uppercase name',
    method: 'POST',
    path: CM,
    body: cm('Web'),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "Web" is invalid: metadata.name: Invalid value: "Web": ${DNS1123_SUBDOMAIN}`,
    causes: [
      { reason: 'FieldValueInvalid', message: `Invalid value: "Web": ${DNS1123_SUBDOMAIN}`, field: 'metadata.name' },
    ],
  },
  {
    name: 'no name and no generateName',
    method: 'POST',
    path: CM,
    body: { data: {} },
    code: 422,
    reason: 'Invalid',
    message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    causes: [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ],
  },
  {
    name: 'uppercase generateName',
    method: 'POST',
    path: CM,
    body: { metadata: { generateName: 'Gen-' } },
    code: 422,
    reason: 'Invalid',
    message: new RegExp(
      `^ConfigMap "Gen-[a-z0-9]{5}" is invalid: \\[metadata\\.generateName: Invalid value: "Gen-": ${escapeRegExp(DNS1123_SUBDOMAIN)}, metadata\\.name: Invalid value: "Gen-[a-z0-9]{5}": ${escapeRegExp(DNS1123_SUBDOMAIN)}\\]$`,
    ),
  },
  {
    name: 'namespace name with an underscore',
    method: 'POST',
    path: NS,
    body: { metadata: { name: 'team_b' } },
    code: 422,
    reason: 'Invalid',
    message:
      "Namespace \"team_b\" is invalid: metadata.name: Invalid value: \"team_b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  },

  // --- labels and annotations ----------------------------------------------------------------
  {
    name: 'label key with a space',
    method: 'POST',
    path: CM,
    body: cm('l1', { metadata: { name: 'l1', labels: { 'bad key': 'v' } } }),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "l1" is invalid: metadata.labels: Invalid value: "bad key": ${QUALIFIED_NAME}`,
    causes: [
      { reason: 'FieldValueInvalid', message: `Invalid value: "bad key": ${QUALIFIED_NAME}`, field: 'metadata.labels' },
    ],
  },
  {
    name: 'label value longer than 63 characters',
    method: 'POST',
    path: CM,
    body: cm('l2', { metadata: { name: 'l2', labels: { app: 'v'.repeat(64) } } }),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "l2" is invalid: metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
  },
  {
    name: 'label value with a space',
    method: 'POST',
    path: CM,
    body: cm('l3', { metadata: { name: 'l3', labels: { app: 'a b' } } }),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "l3" is invalid: metadata.labels: Invalid value: "a b": ${LABEL_VALUE}`,
  },
  {
    name: 'label key with an uppercase prefix',
    method: 'POST',
    path: CM,
    body: cm('l4', { metadata: { name: 'l4', labels: { 'Example.com/app': 'v' } } }),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "l4" is invalid: metadata.labels: Invalid value: "Example.com/app": prefix part ${DNS1123_SUBDOMAIN}`,
  },
  {
    name: 'label key __proto__',
    method: 'POST',
    path: CM,
    body: '{"metadata":{"name":"l5","labels":{"__proto__":"v"}}}',
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "l5" is invalid: metadata.labels: Invalid value: "__proto__": ${QUALIFIED_NAME}`,
  },
  {
    name: 'annotation key starting with a dash',
    method: 'POST',
    path: CM,
    body: cm('a1', { metadata: { name: 'a1', annotations: { '-note': 'x' } } }),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "a1" is invalid: metadata.annotations: Invalid value: "-note": ${QUALIFIED_NAME}`,
  },
  {
    name: 'annotations over 256 KiB',
    method: 'POST',
    path: CM,
    body: cm('a2', { metadata: { name: 'a2', annotations: { note: big(256 * 1024) } } }),
    code: 422,
    reason: 'Invalid',
    message: 'ConfigMap "a2" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes',
    causes: [
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 262144 bytes',
        field: 'metadata.annotations',
      },
    ],
  },

  // --- values of the spec --------------------------------------------------------------------
  {
    name: 'quantity that does not parse',
    method: 'POST',
    path: PODS,
    body: pod('q1', { resources: { limits: { cpu: 'lots' } } }),
    code: 400,
    reason: 'BadRequest',
    message: `Pod in version "v1" cannot be handled as a Pod: ${QUANTITY_FORMAT}`,
  },
  {
    name: 'replicas of the wrong type',
    method: 'POST',
    path: DEP,
    body: deployment('t1', { replicas: 'three' }),
    code: 400,
    reason: 'BadRequest',
    message:
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  },
  {
    name: 'negative replicas',
    method: 'POST',
    path: DEP,
    body: deployment('neg', { replicas: -1 }),
    code: 422,
    reason: 'Invalid',
    message: 'Deployment.apps "neg" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    causes: [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: must be greater than or equal to 0',
        field: 'spec.replicas',
      },
    ],
  },
  {
    name: 'ConfigMap key with a space',
    method: 'POST',
    path: CM,
    body: cm('k1', { data: { 'a b': 'x' } }),
    code: 422,
    reason: 'Invalid',
    message:
      "ConfigMap \"k1\" is invalid: data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
  },

  // --- unknown and duplicate fields (fieldValidation=Strict) ---------------------------------
  {
    name: 'unknown top-level field',
    method: 'POST',
    path: `${CM}${STRICT}`,
    body: { ...cm('u1'), dta: { a: 'b' } },
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dta"',
  },
  {
    name: 'unknown metadata field',
    method: 'POST',
    path: `${CM}${STRICT}`,
    body: { ...cm('u2'), metadata: { name: 'u2', lables: {} } },
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.lables"',
  },
  {
    name: 'unknown field in a container',
    method: 'POST',
    path: `${DEP}${STRICT}`,
    body: (() => {
      const d = deployment('u3');
      (d.spec.template.spec.containers[0] as Record<string, unknown>).imagePullPolice = 'Always';
      return d;
    })(),
    code: 400,
    reason: 'BadRequest',
    message:
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolice"',
  },
  {
    name: 'duplicate top-level field',
    method: 'POST',
    path: `${CM}${STRICT}`,
    body: '{"metadata":{"name":"d1"},"data":{"a":"1"},"data":{"a":"2"}}',
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"',
  },
  {
    name: 'duplicate nested field',
    method: 'POST',
    path: `${CM}${STRICT}`,
    body: '{"metadata":{"name":"d2","name":"d3"}}',
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name"',
  },
  {
    name: '__proto__ as a top-level field',
    method: 'POST',
    path: `${CM}${STRICT}`,
    body: '{"metadata":{"name":"p1"},"__proto__":{"polluted":1}}',
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "__proto__"',
  },
  {
    name: 'constructor in metadata',
    method: 'POST',
    path: `${CM}${STRICT}`,
    body: '{"metadata":{"name":"p2","constructor":{"prototype":{"polluted":1}}}}',
    code: 400,
    reason: 'BadRequest',
    message:
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.constructor"',
  },

  // --- sizes and depth -------------------------------------------------------------------------
  {
    name: 'body over 3 MiB',
    method: 'POST',
    path: CM,
    body: JSON.stringify(cm('huge', { data: { a: big(3 * 1024 * 1024) } })),
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: limit is 3145728',
  },
  {
    name: 'patch over 3 MiB',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: MERGE_PATCH,
    body: JSON.stringify({ data: { a: big(3 * 1024 * 1024) } }),
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: limit is 3145728',
  },
  {
    name: 'JSON nested deeper than the limit',
    method: 'POST',
    path: CM,
    body: nestedJson(1001),
    code: 400,
    reason: 'BadRequest',
    message:
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'{\' exceeded max depth ({"a":{"a":{"a":{"a":{"a":{"a": ...)',
  },
  {
    name: 'JSON patch nested deeper than the limit',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: `[{"op":"add","path":"/data/x","value":${nestedJson(1000)}}]`,
    code: 400,
    reason: 'BadRequest',
    message: "invalid character '{' exceeded max depth",
  },
  {
    name: 'merge patch nested deeper than the limit',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: MERGE_PATCH,
    body: nestedJson(1001),
    code: 400,
    reason: 'BadRequest',
    message: 'Invalid JSON Patch',
  },
  {
    name: 'YAML nested deeper than the limit',
    method: 'POST',
    path: CM,
    headers: YAML,
    body: `a: ${'['.repeat(1001)}${']'.repeat(1001)}\n`,
    code: 400,
    reason: 'BadRequest',
    message:
      /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: exceeded max depth of 1000 \(613a205b5b5b/,
  },

  // --- conflicts and preconditions -------------------------------------------------------------
  {
    name: 'update with a stale resourceVersion',
    method: 'PUT',
    path: `${CM}/cm1`,
    body: { ...cm('cm1'), metadata: { name: 'cm1', resourceVersion: '1' } },
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on configmaps "cm1": ${OPTIMISTIC_LOCK}`,
    details: { name: 'cm1', kind: 'configmaps' },
  },
  {
    name: 'merge patch with a stale resourceVersion',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: MERGE_PATCH,
    body: { metadata: { resourceVersion: '1' }, data: { a: 'c' } },
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on configmaps "cm1": ${OPTIMISTIC_LOCK}`,
  },
  {
    name: 'delete with a uid precondition that does not match',
    method: 'DELETE',
    path: `${CM}/cm1`,
    body: { preconditions: { uid: 'not-the-uid' } },
    code: 409,
    reason: 'Conflict',
    // rest.BeforeDelete checks the preconditions first, naming the Kind (registry/rest/delete.go).
    message: (f) =>
      `Operation cannot be fulfilled on ConfigMap "cm1": the UID in the precondition (not-the-uid) does not match the UID in record (${f.cm1.uid}). The object might have been deleted and then recreated`,
    details: { name: 'cm1', kind: 'ConfigMap' },
  },
  {
    name: 'delete with a resourceVersion precondition that does not match',
    method: 'DELETE',
    path: `${CM}/cm1`,
    body: { preconditions: { resourceVersion: '1' } },
    code: 409,
    reason: 'Conflict',
    message: (f) =>
      `Operation cannot be fulfilled on ConfigMap "cm1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${f.cm1.resourceVersion}). The object might have been modified`,
  },

  // --- namespaces ------------------------------------------------------------------------------
  {
    name: 'create in a namespace that does not exist',
    method: 'POST',
    path: `${NS}/nope/configmaps`,
    body: cm('n1'),
    code: 404,
    reason: 'NotFound',
    message: 'namespaces "nope" not found',
  },
  {
    name: 'namespace in the body differs from the URL',
    method: 'POST',
    path: CM,
    body: { ...cm('n2'), metadata: { name: 'n2', namespace: 'default' } },
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'namespace in an update body differs from the URL',
    method: 'PUT',
    path: `${CM}/cm1`,
    body: { ...cm('cm1'), metadata: { name: 'cm1', namespace: 'default' } },
    code: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'namespaced create without a namespace',
    method: 'POST',
    path: '/api/v1/configmaps',
    body: cm('n3'),
    code: 405,
    reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource',
    details: {},
  },
  {
    name: "delete of every namespace's collection",
    method: 'DELETE',
    path: '/api/v1/configmaps',
    code: 405,
    reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource',
  },

  // --- list options ------------------------------------------------------------------------------
  {
    name: 'label selector without an operator',
    method: 'GET',
    path: `${CM}?labelSelector=${encodeURIComponent('a b')}`,
    code: 400,
    reason: 'BadRequest',
    message: "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
  },
  {
    name: 'label selector with an invalid key',
    method: 'GET',
    path: `${CM}?labelSelector=${encodeURIComponent('-a=b')}`,
    code: 400,
    reason: 'BadRequest',
    message: `unable to parse requirement: <nil>: Invalid value: "-a": ${QUALIFIED_NAME}`,
  },
  {
    name: 'field selector on a field configmaps do not have',
    method: 'GET',
    path: `${CM}?fieldSelector=${encodeURIComponent('spec.nodeName=n1')}`,
    code: 400,
    reason: 'BadRequest',
    message: '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
  },
  {
    name: 'field selector on a field pods do not support',
    method: 'GET',
    path: `${PODS}?fieldSelector=${encodeURIComponent('spec.hostname=h')}`,
    code: 400,
    reason: 'BadRequest',
    message: 'field label not supported: spec.hostname',
  },
  {
    name: 'field selector without an operator',
    method: 'GET',
    path: `${CM}?fieldSelector=metadata.name`,
    code: 400,
    reason: 'BadRequest',
    message: "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
  },
  {
    name: 'resourceVersionMatch without resourceVersion',
    method: 'GET',
    path: `${CM}?resourceVersionMatch=NotOlderThan`,
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    causes: [
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        field: 'resourceVersionMatch',
      },
    ],
  },
  {
    name: 'resourceVersionMatch=Exact with resourceVersion 0',
    method: 'GET',
    path: `${CM}?resourceVersion=0&resourceVersionMatch=Exact`,
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
  },
  {
    name: 'resourceVersionMatch that does not exist',
    method: 'GET',
    path: `${CM}?resourceVersion=1&resourceVersionMatch=Newest`,
    code: 422,
    reason: 'Invalid',
    message:
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
  },
  {
    // etcd3 store GetList: a valid token, then the resourceVersion is refused.
    name: 'continue with a resourceVersion',
    method: 'GET',
    path: `${CM}?limit=1&continue=${continueToken(3, 'cm1')}&resourceVersion=5`,
    code: 400,
    reason: 'BadRequest',
    message: 'specifying resource version is not allowed when using continue',
  },
  {
    // storage.ValidateListOptions: DecodeContinue's error behind "invalid continue token".
    name: 'continue token that is not base64',
    method: 'GET',
    path: `${CM}?limit=1&continue=!!`,
    code: 400,
    reason: 'BadRequest',
    message: 'invalid continue token: continue key is not valid: illegal base64 data at input byte 0',
  },
  {
    name: 'limit that is not an integer',
    method: 'GET',
    path: `${CM}?limit=ten`,
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "ten": invalid syntax',
  },
  {
    name: 'limit beyond int64',
    method: 'GET',
    path: `${CM}?limit=99999999999999999999`,
    code: 400,
    reason: 'BadRequest',
    message: 'strconv.ParseInt: parsing "99999999999999999999": value out of range',
  },
  {
    name: 'resourceVersion that is not a number',
    method: 'GET',
    path: `${CM}/cm1?resourceVersion=abc`,
    code: 400,
    reason: 'BadRequest',
    message: 'invalid resource version: "abc"',
  },

  // --- patches ---------------------------------------------------------------------------------
  {
    name: 'JSON patch with an unknown op',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: [{ op: 'jump', path: '/data/a' }],
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
  },
  {
    name: 'JSON patch test op that fails',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: [
      { op: 'test', path: '/data/a', value: 'not-b' },
      { op: 'replace', path: '/data/a', value: 'c' },
    ],
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
  },
  {
    name: 'JSON patch removing a path that is not there',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: [{ op: 'remove', path: '/data/missing' }],
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
  },
  {
    name: 'JSON patch that is an object',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: { op: 'add', path: '/data/x', value: 'y' },
    code: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
  },
  {
    name: 'JSON patch that does not parse',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: '[{"op":"add",',
    code: 400,
    reason: 'BadRequest',
    message: 'unexpected end of JSON input',
  },
  {
    name: 'merge patch that does not parse',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: MERGE_PATCH,
    body: '{"data":',
    code: 400,
    reason: 'BadRequest',
    message: 'Invalid JSON Patch',
  },
  {
    name: 'strategic merge patch that does not parse',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: SMP,
    body: '{"data":',
    code: 400,
    reason: 'BadRequest',
    message: 'invalid JSON document',
  },
  {
    name: 'JSON patch over 10000 operations',
    method: 'PATCH',
    path: `${CM}/cm1`,
    headers: JSON_PATCH,
    body: Array.from({ length: 10001 }, () => ({ op: 'test', path: '/data/a', value: 'b' })),
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
  },
  {
    name: 'patch changing an immutable ConfigMap',
    method: 'PATCH',
    path: `${CM}/frozen`,
    headers: MERGE_PATCH,
    body: { data: { a: 'changed' } },
    code: 422,
    reason: 'Invalid',
    message: 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
  },
  {
    name: 'patch changing a Deployment selector',
    method: 'PATCH',
    path: `${DEP}/web`,
    headers: SMP,
    body: {
      spec: { selector: { matchLabels: { app: 'other' } }, template: { metadata: { labels: { app: 'other' } } } },
    },
    code: 422,
    reason: 'Invalid',
    message: /^Deployment\.apps "web" is invalid: spec\.selector: Invalid value: .*: field is immutable$/,
  },
  {
    name: 'patch changing a Secret type',
    method: 'PATCH',
    path: `${NS}/team-a/secrets/s1`,
    headers: MERGE_PATCH,
    body: { type: 'kubernetes.io/tls' },
    code: 422,
    reason: 'Invalid',
    message: 'Secret "s1" is invalid: type: Invalid value: "kubernetes.io/tls": field is immutable',
  },

  // --- options -----------------------------------------------------------------------------------
  {
    name: 'dryRun with an unknown value',
    method: 'POST',
    path: `${CM}?dryRun=Some`,
    body: cm('dr'),
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
  },
  {
    // handlers/create.go validates CreateOptions before it decodes the body.
    name: 'dryRun with an unknown value and a body that does not parse',
    method: 'POST',
    path: `${CM}?dryRun=Some`,
    body: '{',
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
  },
  {
    name: 'fieldValidation with an unknown value',
    method: 'POST',
    path: `${CM}?fieldValidation=Loose`,
    body: cm('fv'),
    code: 422,
    reason: 'Invalid',
    message:
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
  },
  {
    name: 'timeout that is not a duration',
    method: 'GET',
    path: `${CM}?timeout=soon`,
    code: 400,
    reason: 'BadRequest',
    message: 'invalid timeout specified in the request URL - time: invalid duration "soon"',
  },
  {
    name: 'timeout without a unit',
    method: 'GET',
    path: `${CM}?timeout=5`,
    code: 400,
    reason: 'BadRequest',
    message: 'invalid timeout specified in the request URL - time: missing unit in duration "5"',
  },

  // --- credentials, media types, methods, paths ----------------------------------------------------
  {
    name: 'no credentials',
    method: 'GET',
    path: CM,
    token: null,
    code: 401,
    reason: 'Unauthorized',
    message: 'Unauthorized',
  },
  {
    name: 'unknown bearer token',
    method: 'POST',
    path: CM,
    body: cm('t2'),
    token: 'not-a-token',
    code: 401,
    reason: 'Unauthorized',
    message: 'Unauthorized',
  },
  {
    name: 'body in a media type the apiserver does not read',
    method: 'POST',
    path: CM,
    body: '<configmap/>',
    headers: { 'Content-Type': 'application/xml' },
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  },
  {
    name: 'POST to a named object',
    method: 'POST',
    path: `${CM}/cm1`,
    body: cm('cm1'),
    code: 405,
    reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource',
  },
  {
    name: 'PUT to a collection',
    method: 'PUT',
    path: CM,
    body: cm('cm1'),
    code: 405,
    reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource',
  },
  {
    name: 'resource that is not served',
    method: 'GET',
    path: `${NS}/team-a/widgets`,
    code: 404,
    reason: 'NotFound',
    message: 'the server could not find the requested resource',
  },
  {
    name: 'group version that is not served',
    method: 'GET',
    path: '/apis/apps/v1beta9/namespaces/team-a/deployments',
    code: 404,
    reason: 'NotFound',
    message: 'the server could not find the requested resource',
  },
  {
    name: 'object that does not exist',
    method: 'GET',
    path: `${DEP}/nope`,
    code: 404,
    reason: 'NotFound',
    message: 'deployments.apps "nope" not found',
    details: { name: 'nope', group: 'apps', kind: 'deployments' },
  },
  {
    name: 'delete of an object that does not exist',
    method: 'DELETE',
    path: `${CM}/nope`,
    code: 404,
    reason: 'NotFound',
    message: 'configmaps "nope" not found',
  },
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Sends one case's request. */
async function send(f: Fixture, c: BadRequest): Promise<Response> {
  const body = typeof c.body === 'function' ? (c.body as (f: Fixture) => unknown)(f) : c.body;
  const token = c.token === null ? undefined : (c.token ?? TOKEN);
  return f.api.handle(testRequest(c.method, c.path, { token, body, headers: c.headers }));
}

/** Extra state some cases need: an immutable ConfigMap and a Secret. */
async function prepare(f: Fixture, c: BadRequest): Promise<void> {
  if (c.path.includes('/frozen')) {
    await f.json('POST', CM, { ...cm('frozen'), immutable: true });
  }
  if (c.path.includes('/secrets/s1')) {
    await f.json('POST', `${NS}/team-a/secrets`, { metadata: { name: 's1' }, type: 'Opaque', data: {} });
  }
}

describe('bad requests through the handler', () => {
  it('has at least 60 distinct cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(`${c.code} ${c.reason}: ${c.name}`, async () => {
      const f = await fixture();
      await prepare(f, c);
      const before = await snapshot(f.storage);
      const res = await send(f, c);
      expect(res.headers.get('Content-Type')).toBe('application/json');
      const status = (await res.json()) as Record<string, unknown>;
      expect({ code: res.status, reason: status.reason }).toEqual({ code: c.code, reason: c.reason });
      expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: c.code });
      const message = typeof c.message === 'function' ? c.message(f) : c.message;
      if (typeof message === 'string') expect(status.message).toBe(message);
      else expect(status.message).toMatch(message);
      if (c.causes) expect((status.details as { causes?: unknown }).causes).toEqual(c.causes);
      if (c.details) expect(status.details).toMatchObject(c.details);
      expect(await snapshot(f.storage)).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});

describe('prototype keys are data, never prototypes', () => {
  const PROTO_DATA = '{"__proto__":"x","constructor":"y","prototype":"z"}';

  async function expectStoredData(f: Fixture, res: Response): Promise<void> {
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(Object.hasOwn(body.data, '__proto__')).toBe(true);
    expect(body.data).toMatchObject({ a: 'b' });
    const got = await f.json('GET', `${CM}/cm1`);
    const data = (got.body as { data: Record<string, unknown> }).data;
    expect(Object.keys(data).sort()).toEqual(['__proto__', 'a', 'constructor', 'prototype']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }

  it('keeps ConfigMap data keys __proto__, constructor and prototype from a create', async () => {
    const f = await fixture();
    const res = await f.call('POST', CM, `{"metadata":{"name":"protos"},"data":${PROTO_DATA}}`);
    expect(res.status).toBe(201);
    const got = await f.json('GET', `${CM}/protos`);
    expect(JSON.stringify((got.body as { data: unknown }).data)).toBe(PROTO_DATA);
  });

  it('keeps them through a merge patch', async () => {
    const f = await fixture();
    await expectStoredData(f, await f.call('PATCH', `${CM}/cm1`, `{"data":${PROTO_DATA}}`, MERGE_PATCH));
  });

  it('keeps them through a strategic merge patch', async () => {
    const f = await fixture();
    await expectStoredData(f, await f.call('PATCH', `${CM}/cm1`, `{"data":${PROTO_DATA}}`, SMP));
  });

  it('keeps them through JSON patch add operations', async () => {
    const f = await fixture();
    const ops = ['__proto__', 'constructor', 'prototype'].map((k, i) => ({
      op: 'add',
      path: `/data/${k}`,
      value: 'xyz'[i],
    }));
    await expectStoredData(f, await f.call('PATCH', `${CM}/cm1`, JSON.stringify(ops), JSON_PATCH));
  });

  it('keeps them from a YAML body', async () => {
    const f = await fixture();
    // Quoted: YAML 1.1 (go-yaml v2) reads a bare y as true.
    const yaml = 'metadata:\n  name: y1\ndata:\n  __proto__: x\n  constructor: "y"\n  prototype: z\n';
    const res = await f.call('POST', CM, yaml, YAML);
    expect(res.status).toBe(201);
    const got = await f.json('GET', `${CM}/y1`);
    expect(JSON.stringify((got.body as { data: unknown }).data)).toBe(PROTO_DATA);
  });

  it('matches label selectors on own labels only (constructor is not a label of every object)', async () => {
    const f = await fixture();
    for (const selector of ['constructor', 'toString', 'constructor!=x', '!hasOwnProperty']) {
      const list = await f.json('GET', `${CM}?labelSelector=${encodeURIComponent(selector)}`);
      expect(list.status).toBe(200);
      const names = (list.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
      expect(names).toEqual(selector.startsWith('constructor!=') || selector.startsWith('!') ? ['cm1'] : []);
    }
  });

  it('folds Secret stringData key __proto__ into data', async () => {
    const f = await fixture();
    const res = await f.call(
      'POST',
      `${NS}/team-a/secrets`,
      '{"metadata":{"name":"s"},"stringData":{"__proto__":"x"}}',
    );
    expect(res.status).toBe(201);
    const got = await f.json('GET', `${NS}/team-a/secrets/s`);
    expect(JSON.stringify((got.body as { data: unknown }).data)).toBe('{"__proto__":"eA=="}');
  });

  it('reports a merge patch adding a __proto__ field as an unknown field (Warn)', async () => {
    const f = await fixture();
    const res = await f.call('PATCH', `${CM}/cm1`, '{"__proto__":{"polluted":1}}', MERGE_PATCH);
    expect(res.headers.get('Warning')).toBe('299 - "unknown field \\"__proto__\\""');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('YAML bodies', () => {
  it('reports repeated keys: Strict refuses, Warn warns and keeps the last (go-yaml v2)', async () => {
    const f = await fixture();
    const yaml = 'metadata:\n  name: yd\ndata:\n  a: "1"\n  a: "2"\n';
    const before = await snapshot(f.storage);
    const strict = await f.json('POST', `${CM}${STRICT}`, yaml, YAML);
    // kube-apiserver words it as YAMLToJSONStrict does (`line 5: key "a" already set in map`);
    // here the YAML becomes JSON first and the JSON decoder names the field.
    expect(strict).toMatchObject({
      status: 400,
      body: {
        reason: 'BadRequest',
        message:
          'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a"',
      },
    });
    expect(await snapshot(f.storage)).toEqual(before);
    const warn = await f.call('POST', CM, yaml, YAML);
    expect(warn.status).toBe(201);
    expect(warn.headers.get('Warning')).toBe('299 - "duplicate field \\"data.a\\""');
    expect(((await warn.json()) as { data: unknown }).data).toEqual({ a: '2' });
  });

  it('expands aliases, and refuses excessive aliasing', async () => {
    const f = await fixture();
    const ok = await f.call('POST', CM, 'metadata:\n  name: al\n  labels: &l {app: web}\n  annotations: *l\n', YAML);
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { metadata: unknown }).metadata).toMatchObject({
      labels: { app: 'web' },
      annotations: { app: 'web' },
    });
    const bomb = [
      'a: &a ["x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) => `${'bcdefghij'[i]}: &${'bcdefghij'[i]} [*${'abcdefghi'[i]},*${'abcdefghi'[i]}]`,
      ),
    ];
    const res = await f.json('POST', CM, `${bomb.join('\n')}\n`, YAML);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^the object provided is unrecognized \(must be of type ConfigMap\): yaml: document contains excessive aliasing \(/,
    );
  });

  it('creates and updates from application/yaml as kube-apiserver does (YAML 1.1 scalars)', async () => {
    const f = await fixture();
    const created = await f.call(
      'POST',
      CM,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\n  labels: {app: web}\ndata:\n  when: "2001-12-14"\n',
      YAML,
    );
    expect(created.status).toBe(201);
    const got = await f.json('GET', `${CM}/from-yaml`);
    expect(got.body).toMatchObject({ metadata: { labels: { app: 'web' } }, data: { when: '2001-12-14' } });
    const rv = (got.body.metadata as { resourceVersion: string }).resourceVersion;
    const updated = await f.call(
      'PUT',
      `${CM}/from-yaml`,
      `metadata:\n  name: from-yaml\n  resourceVersion: "${rv}"\ndata:\n  when: later\n`,
      YAML,
    );
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { data: unknown }).data).toEqual({ when: 'later' });
  });
});

/** An apiserver over its own store with a non-privileged user, for the protection filters. */
async function protectedServer(options: {
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  requestTimeoutMs?: number;
}) {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  const inner = new WasmStorage({ store: kubewasm.newStore(), clock });
  // Reads of the gated key wait for `open()`, so a request can be held in flight.
  let gate: Promise<void> = Promise.resolve();
  let open = (): void => {};
  const storage = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'get' && typeof v === 'function') {
        return async (key: string, ...rest: unknown[]) => {
          if (key.endsWith('/slow')) await gate;
          return (v as (...a: unknown[]) => unknown).call(target, key, ...rest);
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as WasmStorage;
  const authorizer = storageAuthorizer(storage, clock);
  const api = createApiServer({
    storage,
    clock,
    tokens: parseTokenFile('admin-token,admin,1,"system:masters"\njane-token,jane,2\n'),
    authorizer,
    ...options,
  });
  const call = (token: string, method: string, path: string, body?: unknown) =>
    api.handle(
      new Request(`https://kubewasm.test${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  for (const name of ['team-a']) await call('admin-token', 'POST', NS, { metadata: { name } });
  await call('admin-token', 'POST', CM, cm('slow'));
  // jane may do anything (RBAC), without being system:masters.
  await call('admin-token', 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    metadata: { name: 'everything' },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  });
  await call('admin-token', 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    metadata: { name: 'jane-everything' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'everything' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
  });
  await authorizer.synced();
  return {
    api,
    clock,
    call,
    hold(): void {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release(): void {
      open();
    },
  };
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('max-in-flight (maxinflight.go)', () => {
  it('answers 429 with Retry-After: 1 when the read-only budget is used, and serves again after', async () => {
    const s = await protectedServer({ maxRequestsInFlight: 1 });
    s.hold();
    const held = s.call('jane-token', 'GET', `${CM}/slow`);
    await settle();
    const refused = await s.call('jane-token', 'GET', `${CM}/slow`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('1');
    expect(await refused.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Too many requests, please try again later.',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    // Mutating requests have their own budget; system:masters is never refused.
    expect((await s.call('jane-token', 'POST', CM, cm('other'))).status).toBe(201);
    expect((await s.call('admin-token', 'GET', `${CM}/other`)).status).toBe(200);
    // A watch is long-running and holds no slot.
    const watch = await s.call('jane-token', 'GET', `${CM}?watch=true`);
    expect(watch.status).toBe(200);
    await watch.body?.cancel();
    s.release();
    expect((await held).status).toBe(200);
    expect((await s.call('jane-token', 'GET', `${CM}/slow`)).status).toBe(200);
  });

  it('limits mutating requests separately (max-mutating-requests-inflight)', async () => {
    const s = await protectedServer({ maxMutatingRequestsInFlight: 1 });
    s.hold();
    const held = s.call('jane-token', 'DELETE', `${CM}/slow`);
    await settle();
    const refused = await s.call('jane-token', 'POST', CM, cm('refused'));
    expect(refused.status).toBe(429);
    expect((await s.call('jane-token', 'GET', `${CM}/refused`)).status).toBe(404);
    expect((await s.call('jane-token', 'GET', CM)).status).toBe(200);
    s.release();
    expect((await held).status).toBe(200);
  });
});

describe('request deadline (timeout.go, request_deadline.go)', () => {
  const TIMEOUT = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Timeout: request did not complete within the allotted timeout',
    reason: 'Timeout',
    details: {},
    code: 504,
  };

  it('answers 504 after the default 60 s, and frees the slot when the handler ends', async () => {
    const s = await protectedServer({ maxRequestsInFlight: 1 });
    s.hold();
    const held = s.call('jane-token', 'GET', `${CM}/slow`);
    await settle();
    s.clock.advance(59_999);
    await settle();
    s.clock.advance(1);
    const res = await held;
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual(TIMEOUT);
    // The handler still runs, as in Go, and keeps its slot until it ends.
    expect((await s.call('jane-token', 'GET', `${CM}/slow`)).status).toBe(429);
    s.release();
    await settle();
    expect((await s.call('jane-token', 'GET', `${CM}/slow`)).status).toBe(200);
  });

  it('takes a shorter ?timeout=, never a longer one', async () => {
    const s = await protectedServer({});
    s.hold();
    const short = s.call('jane-token', 'GET', `${CM}/slow?timeout=1.5s`);
    const long = s.call('jane-token', 'GET', `${CM}/slow?timeout=2h`);
    await settle();
    s.clock.advance(1_500);
    expect((await short).status).toBe(504);
    s.clock.advance(58_500);
    expect((await long).status).toBe(504);
    s.release();
  });

  it('does not time out watches', async () => {
    const s = await protectedServer({ requestTimeoutMs: 1_000 });
    const watch = await s.call('jane-token', 'GET', `${CM}?watch=true&timeout=1s`);
    expect(watch.status).toBe(200);
    await watch.body?.cancel();
  });
});

describe('over HTTPS (kubewasm up)', () => {
  const up = new UpCluster(['--max-mutating-requests-inflight', '1']);

  beforeAll(async () => {
    // A second, unprivileged user: system:masters is never refused by max-in-flight.
    mkdirSync(up.dataDir, { recursive: true });
    writeFileSync(
      join(up.dataDir, 'tokens.csv'),
      'admin-https-token,admin,a1,"system:masters"\njane-https-token,jane,j1\n',
      { mode: 0o600 },
    );
    await up.start();
    // jane may do anything through RBAC (the bootstrap cluster-admin role) without being system:masters.
    const bound = await up.https(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      JSON.stringify({
        metadata: { name: 'jane-admin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
      }),
      { Authorization: 'Bearer admin-https-token', 'Content-Type': 'application/json' },
    );
    expect(bound.status).toBe(201);
    // The authorizer sees the binding once its watch delivers it.
    const jane = { Authorization: 'Bearer jane-https-token' };
    for (let i = 0; i < 50; i++) {
      if ((await up.https('GET', '/api/v1/namespaces/default/configmaps', undefined, jane)).status === 200) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  }, 60_000);
  afterAll(() => up.dispose());

  it('answers 401 without credentials and with an unknown token', async () => {
    for (const headers of [{}, { Authorization: 'Bearer nope' }]) {
      const res = await up.https('GET', '/api/v1/namespaces/default/configmaps', undefined, headers);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
    }
  });

  it('answers 413 for a body over 3 MiB and stores nothing', async () => {
    const body = JSON.stringify(cm('huge', { data: { a: big(3 * 1024 * 1024) } }));
    const res = await up.https('POST', '/api/v1/namespaces/default/configmaps', body, {
      ...up.auth(),
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
      code: 413,
    });
    const get = await up.https('GET', '/api/v1/namespaces/default/configmaps/huge', undefined, up.auth());
    expect(get.status).toBe(404);
  });

  it('answers 429 with Retry-After when the mutating budget is used up', async () => {
    const headers = { Authorization: 'Bearer jane-https-token', 'Content-Type': 'application/json' };
    let refused: { status: number; text: string; headers: Record<string, unknown> } | undefined;
    // Creates wait for the group-committed log, so concurrent ones overlap; retry a few rounds.
    for (let round = 0; round < 10 && refused === undefined; round++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          up.https('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify(cm(`c-${round}-${i}`)), headers),
        ),
      );
      for (const r of results) expect([201, 429]).toContain(r.status);
      refused = results.find((r) => r.status === 429);
    }
    expect(refused).toBeDefined();
    expect(refused?.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused?.text ?? '{}')).toMatchObject({
      reason: 'TooManyRequests',
      message: 'Too many requests, please try again later.',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
  }, 60_000);
});
