import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldValidation } from '../../api/meta.js';
import { StatusError } from '../../api/status.js';
import { loadOpenApiData } from '../openapi/data.js';
import { findResource, type ResourceInfo } from '../registry/resources.js';
import { checkUnknownFields, withPatchSource, withRawJson } from './field-validation.js';

beforeAll(async () => {
  await loadOpenApiData();
});

const DEPLOYMENTS = findResource('apps', 'v1', 'deployments') as ResourceInfo;
const CONFIGMAPS = findResource('', 'v1', 'configmaps') as ResourceInfo;
const PODS = findResource('', 'v1', 'pods') as ResourceInfo;
const SERVICES = findResource('', 'v1', 'services') as ResourceInfo;
const SECRETS = findResource('', 'v1', 'secrets') as ResourceInfo;

/** Runs the check on request text; the thrown Status message, or the warnings. */
function check(info: ResourceInfo, text: string, policy: FieldValidation = 'Strict'): string | string[] {
  try {
    return checkUnknownFields(info, withRawJson(JSON.parse(text) as Record<string, unknown>, text), policy);
  } catch (err) {
    if (err instanceof StatusError) return `${err.status.code} ${err.status.reason}: ${err.status.message}`;
    throw err;
  }
}

function deployment(spec: string): string {
  return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":${spec}}`;
}

const TEMPLATE = '{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}';

describe('strict decoding', () => {
  it('accepts a valid deployment', () => {
    const text = deployment(`{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":${TEMPLATE}}`);
    expect(check(DEPLOYMENTS, text)).toEqual([]);
  });

  it('reports unknown fields at any depth with their full path', () => {
    const text = deployment(
      '{"replicas":2,"template":{"spec":{"containers":[{"name":"a","image":"x"},{"name":"c","imagee":"nginx"}]}},"foo":1}',
    );
    expect(check(DEPLOYMENTS, text)).toBe(
      '400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ' +
        'unknown field "spec.template.spec.containers[1].imagee", unknown field "spec.foo"',
    );
    expect(check(DEPLOYMENTS, text, 'Warn')).toEqual([
      'unknown field "spec.template.spec.containers[1].imagee"',
      'unknown field "spec.foo"',
    ]);
    expect(check(DEPLOYMENTS, text, 'Ignore')).toEqual([]);
  });

  it('reports top-level and metadata fields, case-sensitively, each path once', () => {
    const text = '{"apiVersion":"v1","kind":"ConfigMap","Data":{},"metadata":{"name":"a","nme":"b","nme":"c"}}';
    expect(check(CONFIGMAPS, text, 'Warn')).toEqual(['unknown field "Data"', 'unknown field "metadata.nme"']);
  });

  it('reports duplicate fields in structs and maps (JSON.parse would drop them)', () => {
    const text = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","name":"b"},"data":{"k":"1","k":"2"}}';
    expect(check(CONFIGMAPS, text)).toBe(
      '400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: ' +
        'duplicate field "metadata.name", duplicate field "data.k"',
    );
  });

  it('finds duplicates JSON.parse collapsed after checkTypeMeta added as many keys', () => {
    const text = '{"metadata":{"name":"d1"},"data":{"a":"1"},"data":{"a":"2"}}';
    const body = withRawJson(JSON.parse(text) as Record<string, unknown>, text);
    Object.assign(body, { apiVersion: 'v1', kind: 'ConfigMap' });
    expect(() => checkUnknownFields(CONFIGMAPS, body, 'Strict')).toThrow(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"',
    );
  });

  it('drops the fields Warn and Ignore let through, as decoding into the Go struct does', () => {
    for (const policy of ['Warn', 'Ignore'] as const) {
      const body = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', labels: { keep: 'me' }, colour: 'red' },
        spec: { containers: [{ name: 'c', imagee: 'x', resources: { limits: { cpu: '1' } } }] },
        extra: true,
      };
      checkUnknownFields(PODS, body, policy);
      expect(body).toEqual({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', labels: { keep: 'me' } },
        spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] },
      });
    }
  });

  it('checks an in-memory body (no text) for unknown fields', () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', x: 1 }] },
    };
    expect(checkUnknownFields(PODS, body, 'Warn')).toEqual(['unknown field "spec.containers[0].x"']);
  });
});

describe('type errors', () => {
  it('names the Go struct field and type', () => {
    expect(check(DEPLOYMENTS, deployment('{"replicas":"two"}'))).toBe(
      '400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: ' +
        'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(check(DEPLOYMENTS, deployment('{"replicas":1.5}'), 'Ignore')).toBe(
      '400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: ' +
        'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(check(DEPLOYMENTS, deployment('{"template":{"spec":{"containers":{"name":"c"}}}}'))).toBe(
      '400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: ' +
        'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container',
    );
    expect(check(DEPLOYMENTS, deployment('"x"'))).toBe(
      '400 BadRequest: Deployment in version "v1" cannot be handled as a Deployment: ' +
        'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec',
    );
  });

  it('names the Go types the schemas cannot tell (named string, slice and map types)', () => {
    const pod = (spec: string, meta = '') =>
      `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"${meta}},"spec":${spec}}`;
    const prefix = '400 BadRequest: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal ';
    expect(check(PODS, pod('{"restartPolicy":5}'))).toBe(
      `${prefix}number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy`,
    );
    expect(check(PODS, pod('{}', ',"uid":5'))).toBe(
      `${prefix}number into Go struct field ObjectMeta.metadata.uid of type types.UID`,
    );
    expect(check(PODS, pod('{"containers":[{"name":"c","securityContext":{"capabilities":{"add":[1]}}}]}'))).toBe(
      `${prefix}number into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type v1.Capability`,
    );
    expect(check(PODS, pod('{"containers":[{"name":"c","resources":{"limits":"x"}}]}'))).toBe(
      `${prefix}string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList`,
    );
  });

  it('keeps the first type error and drops strict errors, as Go does', () => {
    const text =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":5}},"zz":1,"immutable":"y"}';
    expect(check(CONFIGMAPS, text, 'Warn')).toBe(
      '400 BadRequest: ConfigMap in version "v1" cannot be handled as a ConfigMap: ' +
        'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    );
  });

  it('decodes IntOrString, Quantity and Time as their UnmarshalJSON methods', () => {
    const svc = (port: string) =>
      `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":${port}}]}}`;
    expect(check(SERVICES, svc('"http"'))).toEqual([]);
    expect(check(SERVICES, svc('8080'))).toEqual([]);
    expect(check(SERVICES, svc('true'))).toBe(
      '400 BadRequest: Service in version "v1" cannot be handled as a Service: ' +
        'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
    const pod = (cpu: string) =>
      `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":${cpu}}}}]}}`;
    expect(check(PODS, pod('"500m"'))).toEqual([]);
    expect(check(PODS, pod('2'))).toEqual([]);
    expect(check(PODS, pod('"lots"'))).toBe(
      '400 BadRequest: Pod in version "v1" cannot be handled as a Pod: ' +
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(check(PODS, '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","creationTimestamp":5}}')).toBe(
      '400 BadRequest: Pod in version "v1" cannot be handled as a Pod: ' +
        'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
    );
  });

  it('checks []byte fields as base64', () => {
    const secret = (v: string) => `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":${v}}}`;
    expect(check(SECRETS, secret('"aGk="'))).toEqual([]);
    expect(check(SECRETS, secret('"a!cd"'))).toBe(
      '400 BadRequest: Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 1',
    );
  });
});

describe('time fields', () => {
  it('is the decoding error of a metav1.Time field', () => {
    expect(check(PODS, '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","creationTimestamp":"soon"}}')).toBe(
      '400 BadRequest: Pod in version "v1" cannot be handled as a Pod: ' +
        'parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"',
    );
  });
});

describe('patches (handlers/patch.go)', () => {
  const SMP = 'application/strategic-merge-patch+json';
  const MERGE = 'application/merge-patch+json';
  const JSON_PATCH = 'application/json-patch+json';

  /** The Status of a patched object's check, or its warnings. */
  function checkPatch(
    info: ResourceInfo,
    patched: Record<string, unknown>,
    type: string,
    patch: string,
    policy: FieldValidation = 'Strict',
  ): { code: number; reason: string; message: string } | string[] {
    try {
      return checkUnknownFields(info, withPatchSource(patched, type, patch), policy);
    } catch (err) {
      if (err instanceof StatusError) {
        return { code: err.status.code ?? 0, reason: err.status.reason ?? '', message: err.status.message ?? '' };
      }
      throw err;
    }
  }

  const cm = (extra: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c' },
    data: { k: '2' },
    ...extra,
  });

  it('reports a strategic merge patch unknown field as 422 Invalid on the patch map', () => {
    const patch = '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","foo":1}]}}}}';
    const patched = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'nginx', image: 'x', foo: 1 }] } } },
    };
    expect(checkPatch(DEPLOYMENTS, patched, SMP, patch)).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        ' "" is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[containers:[map[foo:1 name:nginx]]]]]]": ' +
        'strict decoding error: unknown field "spec.template.spec.containers[0].foo"',
    });
    expect(checkPatch(DEPLOYMENTS, patched, SMP, patch, 'Warn')).toEqual([
      'unknown field "spec.template.spec.containers[0].foo"',
    ]);
    expect(checkPatch(DEPLOYMENTS, patched, SMP, patch, 'Ignore')).toEqual([]);
  });

  it('gives the unstructured converter error for a strategic merge patch type error', () => {
    const patched = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 'two' } };
    expect(checkPatch(DEPLOYMENTS, patched, SMP, '{"spec":{"replicas":"two"}}', 'Ignore')).toEqual({
      code: 422,
      reason: 'Invalid',
      message: ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:two]]": unrecognized type: int32',
    });
  });

  it('names the Go type in the converter error of a strategic merge patch', () => {
    const patched = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { restartPolicy: 5 } };
    expect(checkPatch(PODS, patched, SMP, '{"spec":{"restartPolicy":5}}')).toMatchObject({
      code: 422,
      message:
        ' "" is invalid: patch: Invalid value: "map[spec:map[restartPolicy:5]]": cannot convert int64 to v1.RestartPolicy',
    });
  });

  it('finds duplicates in a merge patch and unknown fields in the patched JSON', () => {
    const patch = '{"data":{"k":"1","k":"2"},"extra":1}';
    expect(checkPatch(CONFIGMAPS, cm({ extra: 1 }), MERGE, patch, 'Warn')).toEqual([
      'duplicate field "data.k"',
      'unknown field "extra"',
    ]);
    expect(checkPatch(CONFIGMAPS, cm({ extra: 1 }), MERGE, patch)).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"k\\":\\"2\\"},\\"extra\\":1,' +
        '\\"kind\\":\\"ConfigMap\\",\\"metadata\\":{\\"name\\":\\"c\\"}}": strict decoding error: ' +
        'duplicate field "data.k", unknown field "extra"',
    });
  });

  it('checks JSON patch operations strictly, prefixed "json patch"', () => {
    const patch = '[{"op":"add","path":"/data/x","value":"1","extra":true}]';
    expect(checkPatch(CONFIGMAPS, cm({}), JSON_PATCH, patch, 'Warn')).toEqual(['json patch unknown field "[0].extra"']);
    expect(checkPatch(CONFIGMAPS, cm({}), JSON_PATCH, '[{"op":1}]', 'Warn')).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
    });
  });

  it('reports a JSON decoding error of the merged object on the patched JSON', () => {
    const patched = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, immutable: 'yes' };
    const res = checkPatch(CONFIGMAPS, patched, MERGE, '{"immutable":"yes"}', 'Ignore');
    expect(res).toMatchObject({ code: 422, reason: 'Invalid' });
    expect((res as { message: string }).message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal string into Go struct field ConfigMap\.immutable of type bool$/,
    );
  });
});
