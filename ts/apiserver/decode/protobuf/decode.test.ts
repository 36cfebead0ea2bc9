import { describe, expect, it } from 'vitest';
import type { StatusError } from '../../../api/status.js';
import { protobufBodyToJson } from './decode.js';

// A tiny protobuf writer for the test inputs.
const enc = new TextEncoder();
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}
const bytesField = (num: number, b: Uint8Array | number[]): number[] => [
  ...varint((num << 3) | 2),
  ...varint(b.length),
  ...b,
];
const str = (num: number, s: string) => bytesField(num, enc.encode(s));
const entry = (num: number, k: string, v: string) => bytesField(num, [...str(1, k), ...str(2, v)]);

function envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  return new Uint8Array([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytesField(1, [...str(1, apiVersion), ...str(2, kind)]),
    ...bytesField(2, raw),
  ]);
}

describe('protobuf request bodies', () => {
  it('decodes a ConfigMap as kubectl create configmap sends it', () => {
    // gogo-protobuf writes empty strings for non-pointer fields: they must not appear in the JSON.
    const meta = [
      ...str(1, 'cm1'),
      ...str(2, ''),
      ...str(3, 'team-a'),
      ...entry(11, 'app', 'web'),
      ...bytesField(8, []),
    ];
    const raw = [...bytesField(1, meta), ...entry(2, 'a', 'b'), ...entry(2, 'c', 'd')];
    expect(JSON.parse(protobufBodyToJson(envelope('v1', 'ConfigMap', raw)))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm1', namespace: 'team-a', labels: { app: 'web' } },
      data: { a: 'b', c: 'd' },
    });
  });

  it('decodes Secret bytes as base64 and Namespace specs', () => {
    const secret = [
      ...bytesField(1, str(1, 's')),
      ...bytesField(2, [...str(1, 'k'), ...bytesField(2, [0xff, 0x00])]),
      ...str(3, 'Opaque'),
    ];
    expect(JSON.parse(protobufBodyToJson(envelope('v1', 'Secret', secret)))).toMatchObject({
      data: { k: '/wA=' },
      type: 'Opaque',
    });
    const ns = [...bytesField(1, str(1, 'team-a')), ...bytesField(2, [])];
    expect(JSON.parse(protobufBodyToJson(envelope('v1', 'Namespace', ns)))).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
      spec: {},
    });
  });

  // The bodies kubectl 1.32.4 sent for `create deployment d1 --image=nginx --port=80 --replicas=2`
  // and `create service clusterip s1 --tcp=80:8080`.
  const KUBECTL_DEPLOYMENT =
    'azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50ErQBCh0KAmQxEgAaACIAKgAyADgAQgBaCQoDYXBwEgJkMRKEAQgCEgsKCQoDYXBwEgJkMRprChsKABIAGgAiACoAMgA4AEIAWgkKA2FwcBICZDESTBIuCgVuZ2lueBIFbmdpbngqADIKCgAQABhQIgAqAEIAagByAIABAIgBAJABAKIBABoAMgBCAEoAUgBYAGAAaACCAQCKAQCaAQDCAQAiAgoAKAA4ABoMCAAQABgAIAAoADgAGgAiAA==';
  const KUBECTL_SERVICE =
    'azhzAAoNCgJ2MRIHU2VydmljZRJmCh0KAnMxEgAaACIAKgAyADgAQgBaCQoDYXBwEgJzMRJBChsKBzgwLTgwODASA1RDUBhQIgcIABCQPxoAKAASCQoDYXBwEgJzMRoAIglDbHVzdGVySVA6AEIAUgBaAGAAaAAaAgoAGgAiAA==';
  const fromBase64 = (b: string) => Uint8Array.from(atob(b), (c) => c.charCodeAt(0));

  it('decodes the Deployment and Service kubectl create sends, as kubectl -o json would print them', () => {
    expect(JSON.parse(protobufBodyToJson(fromBase64(KUBECTL_DEPLOYMENT)))).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd1', labels: { app: 'd1' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'd1' } },
        template: {
          metadata: { labels: { app: 'd1' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    });
    expect(JSON.parse(protobufBodyToJson(fromBase64(KUBECTL_SERVICE)))).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's1', labels: { app: 's1' } },
      spec: {
        ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
        selector: { app: 's1' },
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
  });

  it('keeps a zero the client set on a pointer field (replicas: 0)', () => {
    const spec = [0x08, 0x00]; // DeploymentSpec.replicas = 0
    const body = envelope('apps/v1', 'Deployment', [...bytesField(1, str(1, 'd')), ...bytesField(2, spec)]);
    expect(JSON.parse(protobufBodyToJson(body)).spec).toEqual({ replicas: 0 });
  });

  it('answers 415 for kinds without a schema, a missing magic or a broken message', () => {
    const code = (body: Uint8Array) => {
      try {
        protobufBodyToJson(body);
      } catch (err) {
        return (err as StatusError).code;
      }
      return 0;
    };
    expect(code(envelope('apps/v1', 'StatefulSet', []))).toBe(415);
    expect(code(envelope('v1', 'Deployment', []))).toBe(415);
    expect(code(envelope('v1', 'ObjectMeta', []))).toBe(415);
    expect(code(new TextEncoder().encode('{}'))).toBe(415);
    expect(code(envelope('v1', 'ConfigMap', [0x0a, 0x05, 0x01]))).toBe(415);
    // managedFields (ObjectMeta field 17) is not decoded: refused, not dropped.
    expect(code(envelope('v1', 'ConfigMap', bytesField(1, bytesField(17, []))))).toBe(415);
  });
});
