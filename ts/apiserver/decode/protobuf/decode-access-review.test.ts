import { describe, expect, it } from 'vitest';
import { protobufBodyToJson } from './decode.js';

/** Bytes from kubectl -v=8's hex dump columns (`6b 38 73 00 …`). */
const bytes = (dump: string): Uint8Array =>
  new Uint8Array(
    dump
      .trim()
      .split(/\s+/)
      .map((b) => Number.parseInt(b, 16)),
  );

// Request bodies kubectl v1.32.4 sent (captured with -v=8) to `kubewasm up`.
describe('protobuf bodies of kubectl auth can-i', () => {
  it('kubectl auth can-i create pods: a SelfSubjectAccessReview with resourceAttributes', () => {
    const body = bytes(`
      6b 38 73 00 0a 32 0a 17  61 75 74 68 6f 72 69 7a  61 74 69 6f 6e 2e 6b 38  73 2e 69 6f 2f 76 31 12
      17 53 65 6c 66 53 75 62  6a 65 63 74 41 63 63 65  73 73 52 65 76 69 65 77  12 3f 0a 10 0a 00 12 00
      1a 00 22 00 2a 00 32 00  38 00 42 00 12 21 0a 1f  0a 07 64 65 66 61 75 6c  74 12 06 63 72 65 61 74
      65 1a 00 22 00 2a 04 70  6f 64 73 32 00 3a 00 1a  08 08 00 12 00 1a 00 20  00 1a 00 22 00`);
    expect(JSON.parse(protobufBodyToJson(body))).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
      status: {},
    });
  });

  it('kubectl auth can-i list secrets -n kube-system --subresource=x', () => {
    const body = bytes(`
      6b 38 73 00 0a 32 0a 17  61 75 74 68 6f 72 69 7a  61 74 69 6f 6e 2e 6b 38  73 2e 69 6f 2f 76 31 12
      17 53 65 6c 66 53 75 62  6a 65 63 74 41 63 63 65  73 73 52 65 76 69 65 77  12 45 0a 10 0a 00 12 00
      1a 00 22 00 2a 00 32 00  38 00 42 00 12 27 0a 25  0a 0b 6b 75 62 65 2d 73  79 73 74 65 6d 12 04 6c
      69 73 74 1a 00 22 00 2a  07 73 65 63 72 65 74 73  32 01 78 3a 00 1a 08 08  00 12 00 1a 00 20 00 1a
      00 22 00`);
    expect(JSON.parse(protobufBodyToJson(body)).spec).toEqual({
      resourceAttributes: { namespace: 'kube-system', verb: 'list', resource: 'secrets', subresource: 'x' },
    });
  });

  it('kubectl auth can-i get /healthz: nonResourceAttributes', () => {
    const body = bytes(`
      6b 38 73 00 0a 32 0a 17  61 75 74 68 6f 72 69 7a  61 74 69 6f 6e 2e 6b 38  73 2e 69 6f 2f 76 31 12
      17 53 65 6c 66 53 75 62  6a 65 63 74 41 63 63 65  73 73 52 65 76 69 65 77  12 2f 0a 10 0a 00 12 00
      1a 00 22 00 2a 00 32 00  38 00 42 00 12 11 12 0f  0a 08 2f 68 65 61 6c 74  68 7a 12 03 67 65 74 1a
      08 08 00 12 00 1a 00 20  00 1a 00 22 00`);
    expect(JSON.parse(protobufBodyToJson(body)).spec).toEqual({
      nonResourceAttributes: { path: '/healthz', verb: 'get' },
    });
  });

  it('kubectl auth can-i --list: a SelfSubjectRulesReview for the namespace', () => {
    const body = bytes(`
      6b 38 73 00 0a 31 0a 17  61 75 74 68 6f 72 69 7a  61 74 69 6f 6e 2e 6b 38  73 2e 69 6f 2f 76 31 12
      16 53 65 6c 66 53 75 62  6a 65 63 74 52 75 6c 65  73 52 65 76 69 65 77 12  23 0a 10 0a 00 12 00 1a
      00 22 00 2a 00 32 00 38  00 42 00 12 09 0a 07 64  65 66 61 75 6c 74 1a 04  18 00 22 00 1a 00 22 00`);
    expect(JSON.parse(protobufBodyToJson(body))).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'default' },
      status: {},
    });
  });

  it('reads a SubjectAccessReview, and refuses one carrying extra (not described) with 415', () => {
    const envelope = (raw: number[]): Uint8Array => {
      const typeMeta = [...new TextEncoder().encode('authorization.k8s.io/v1')];
      const kind = [...new TextEncoder().encode('SubjectAccessReview')];
      const tm = [0x0a, typeMeta.length, ...typeMeta, 0x12, kind.length, ...kind];
      return new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, tm.length, ...tm, 0x12, raw.length, ...raw]);
    };
    // SubjectAccessReview{spec{user:"u", groups:["g"]}}.
    const plain = envelope([0x12, 0x06, 0x1a, 0x01, 0x75, 0x22, 0x01, 0x67]);
    expect(JSON.parse(protobufBodyToJson(plain)).spec).toEqual({ user: 'u', groups: ['g'] });
    // SubjectAccessReview{spec{user:"u", extra{"k": ["vv"]}}}: field 5 of the spec.
    const extra = envelope([
      0x12, 0x0e, 0x1a, 0x01, 0x75, 0x2a, 0x09, 0x0a, 0x01, 0x6b, 0x12, 0x04, 0x0a, 0x02, 0x76, 0x76,
    ]);
    expect(() => protobufBodyToJson(extra)).toThrow(
      expect.objectContaining({ status: expect.objectContaining({ code: 415 }) }),
    );
  });
});
