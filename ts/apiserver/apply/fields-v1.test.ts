/**
 * FieldsV1 against managed fields real clusters wrote: the encoding round-trips byte for byte, and
 * creates compute the same sets kube-apiserver did for the same objects.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiData } from '../openapi/data.js';
import { recordUpdate } from './field-manager.js';
import { FieldSet } from './field-set.js';
import { FieldsV1Error, fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import { fieldElement, keyElement, pathString, valueElement } from './path.js';
import { builtinScope } from './scope.js';

// A StatefulSet and a Service created by kubectl on a 1.2x cluster (their managedFields as served).
const STATEFULSET_FIELDS =
  '{"f:spec":{"f:podManagementPolicy":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:serviceName":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"iab\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}},"f:updateStrategy":{"f:rollingUpdate":{".":{},"f:partition":{}},"f:type":{}}}}';
const SERVICE_FIELDS =
  '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:internalTrafficPolicy":{},"f:ipFamilies":{},"f:ipFamilyPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}';
// cert-manager's entries: a struct owned with its fields (`.` beside children), an owner reference by uid.
const CERT_FIELDS =
  '{"f:metadata":{"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"1f74d220-0d1c-4904-83a0-4a8e26867c34\\"}":{}}},"f:spec":{".":{},"f:dnsNames":{},"f:issuerRef":{".":{},"f:group":{},"f:kind":{},"f:name":{}},"f:secretName":{},"f:usages":{}}}';

describe('FieldsV1', () => {
  it.each([STATEFULSET_FIELDS, SERVICE_FIELDS, CERT_FIELDS])('round-trips real managed fields exactly (%#)', (text) => {
    const set = fromFieldsV1(JSON.parse(text));
    expect(JSON.stringify(toFieldsV1(set))).toBe(text);
  });

  it('writes elements in structured-merge-diff order: fields, keys, values, indexes; "." first', () => {
    const set = FieldSet.of(
      [fieldElement('b')],
      [fieldElement('a'), valueElement('y')],
      [fieldElement('a'), valueElement('x')],
      [fieldElement('a'), valueElement(2)],
      [fieldElement('a')],
      [
        fieldElement('l'),
        keyElement([
          ['port', 80],
          ['protocol', 'TCP'],
        ]),
      ],
      [fieldElement('l'), keyElement([['name', 'z']])],
    );
    expect(JSON.stringify(toFieldsV1(set))).toBe(
      '{"f:a":{".":{},"v:2":{},"v:\\"x\\"":{},"v:\\"y\\"":{}},"f:b":{},"f:l":{"k:{\\"name\\":\\"z\\"}":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{}}}',
    );
  });

  it('names paths as conflicts print them', () => {
    expect(
      pathString([
        fieldElement('spec'),
        fieldElement('containers'),
        keyElement([['name', 'c']]),
        fieldElement('image'),
      ]),
    ).toBe('.spec.containers[name="c"].image');
    expect(
      pathString([
        fieldElement('ports'),
        keyElement([
          ['protocol', 'TCP'],
          ['containerPort', 80],
        ]),
      ]),
    ).toBe('.ports[containerPort=80,protocol="TCP"]');
    expect(pathString([fieldElement('finalizers'), valueElement('x')])).toBe('.finalizers[="x"]');
  });

  it('refuses keys of no known form', () => {
    expect(() => fromFieldsV1({ 'x:y': {} })).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1([])).toThrow(FieldsV1Error);
    expect(() => fromFieldsV1({ 'f:a': 1 })).toThrow(FieldsV1Error);
  });
});

describe('a create records what kube-apiserver recorded', () => {
  beforeAll(() => loadOpenApiData());

  it('a StatefulSet (defaulted as stored): the same FieldsV1 as the cluster wrote', () => {
    const sts = {
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      metadata: {
        name: 'iab',
        namespace: 'default',
        uid: 'u',
        generation: 1,
        creationTimestamp: '2022-05-10T12:27:12Z',
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'iab' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'iab' } },
          spec: {
            containers: [
              {
                name: 'iab',
                image: 'nginx',
                ports: [{ name: 'iab', containerPort: 80, protocol: 'TCP' }],
                resources: {},
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'Always',
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 10,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        serviceName: 'iab',
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
      },
      status: { replicas: 0, availableReplicas: 0 },
    };
    const scope = builtinScope(
      { group: 'apps', version: 'v1', kind: 'StatefulSet', statusOnSubresource: true } as never,
      '',
    );
    if (scope === undefined) throw new Error('no scope');
    recordUpdate(scope, undefined, sts as never, 'kubectl', '2022-05-10T12:27:12Z');
    const [entry] = (sts.metadata as { managedFields?: { fieldsV1: unknown }[] }).managedFields ?? [];
    expect(JSON.stringify(entry?.fieldsV1)).toBe(STATEFULSET_FIELDS);
  });

  it('a Service: an atomic selector map is one leaf', () => {
    const svc = {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'iab', namespace: 'default', labels: { app: 'iab' } },
      spec: {
        ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
        selector: { app: 'iab' },
        type: 'ClusterIP',
        sessionAffinity: 'None',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        internalTrafficPolicy: 'Cluster',
      },
      status: { loadBalancer: {} },
    };
    const scope = builtinScope({ group: '', version: 'v1', kind: 'Service', statusOnSubresource: true } as never, '');
    if (scope === undefined) throw new Error('no scope');
    recordUpdate(scope, undefined, svc as never, 'kubectl', '2022-05-10T12:27:12Z');
    const [entry] = (svc.metadata as { managedFields?: { fieldsV1: unknown }[] }).managedFields ?? [];
    expect(JSON.stringify(entry?.fieldsV1)).toBe(SERVICE_FIELDS);
  });
});
