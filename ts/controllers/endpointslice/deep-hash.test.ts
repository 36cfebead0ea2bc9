// The md5 and spew texts behind Kubernetes' port and subset orders. The expected digests were
// printed by Go (go-spew v1.1.2-0.20180830191138-d8f796af33cc with dump.ForHash's config, k8s.io/api
// v0.32.4 types, crypto/md5) for the same values.
import { describe, expect, it } from 'vitest';
import { dumpCorePort, dumpSlicePort, dumpSubset, md5Hex } from './deep-hash.js';

describe('md5Hex', () => {
  it('matches crypto/md5 (RFC 1321 vectors, multi-block UTF-8)', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Hex('The quick brown fox jumps over the lazy dog')).toBe('9e107d9d372bb6826bd81d3542a419d6');
    expect(md5Hex('(string)')).toBe('f0f2cb3a4dbd5d0a1cb80ad6f596265a');
    expect(md5Hex(`(string)${'é'.repeat(100)}`)).toBe('2947509152461d926ce8db8f3a374cf1');
  });
});

describe('dump.ForHash texts', () => {
  it('of discovery/v1 EndpointPorts (pointers; nil ones <nil>)', () => {
    expect(dumpSlicePort({ name: 'http', port: 80, protocol: 'TCP' })).toBe(
      '(v1.EndpointPort){Name:(*string)http Protocol:(*v1.Protocol)TCP Port:(*int32)80 AppProtocol:(*string)<nil>}',
    );
    expect(md5Hex(dumpSlicePort({ name: 'http', port: 80, protocol: 'TCP' }))).toBe('57c8eae9440659a9feb9a3a0979e7279');
    expect(md5Hex(dumpSlicePort({ name: '', port: 8080, protocol: 'UDP', appProtocol: 'h2c' }))).toBe(
      'bb2481686b6143ec3485970d7fef1ff1',
    );
    expect(md5Hex(dumpSlicePort({}))).toBe('b69560f5ba6cdbe404f478cc9c5dfcbf');
  });

  it('of core/v1 EndpointPorts', () => {
    expect(md5Hex(dumpCorePort({ name: 'http', port: 80, protocol: 'TCP' }))).toBe('a0afc9289a5b862f31961966cd661a6e');
    expect(md5Hex(dumpCorePort({ port: 443, protocol: 'TCP', appProtocol: 'https' }))).toBe(
      '0185b0fc6e19034f2d6c480f3e920fa0',
    );
  });

  it('of EndpointSubsets (nil lists <nil>, empty ones [])', () => {
    const full = {
      addresses: [
        {
          ip: '1.2.3.4',
          hostname: 'h',
          nodeName: 'node-1',
          targetRef: { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u' },
        },
      ],
      ports: [{ name: 'a"b', port: 1, protocol: 'UDP' as const }],
    };
    expect(md5Hex(dumpSubset(full))).toBe('efbe3543a76f40be0d9a4c38bc75d2ee');
    expect(md5Hex(dumpSubset({ notReadyAddresses: [{ ip: '::1', nodeName: '' }] }))).toBe(
      '7f130715529633a7277e0d66efc0e5be',
    );
    expect(md5Hex(dumpSubset({ addresses: [{ ip: '10.0.0.1' }], ports: [] }))).toBe('dc8d644053056355d51d15c48bf352de');
  });
});
