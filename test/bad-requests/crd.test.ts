/**
 * Bad requests for CustomResourceDefinitions and custom resources, in process: each with the exact
 * code, reason and message kube-apiserver 1.32 answers, and the proof that nothing was stored (the
 * keys under /registry/ and the store revision, before and after).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, testServer } from '../../ts/apiserver/testing/test-server.js';
import { snapshot } from '../testing/bad-requests.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read and build documents freely
type Doc = any;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/team-a/widgets';

const crd = (edit: (c: Doc) => void = () => {}): Doc => {
  const c: Doc = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'string', enum: ['small', 'large'] },
                    color: { type: 'string', pattern: '^[a-z]+$' },
                    count: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
  edit(c);
  return c;
};

const widget = (spec: Doc): Doc => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

async function expectRefused(
  ts: TestServer,
  method: string,
  path: string,
  body: unknown,
  want: { code: number; reason: string; message: string },
): Promise<void> {
  const before = await snapshot(ts.storage);
  const res = await ts.json(method, path, body);
  expect({ code: res.status, reason: res.body.reason, message: res.body.message }).toEqual(want);
  expect(await snapshot(ts.storage)).toEqual(before);
}

const INVALID_CRD = (msg: string, name = 'widgets.example.com') =>
  `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ${msg}`;

describe('bad CustomResourceDefinitions', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await testServer();
  });

  it.each([
    [
      'a name other than <plural>.<group>',
      crd((c) => {
        c.metadata.name = 'gadgets.example.com';
      }),
      INVALID_CRD(
        'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
        'gadgets.example.com',
      ),
    ],
    [
      'a version without a schema',
      crd((c) => {
        delete c.spec.versions[0].schema;
      }),
      INVALID_CRD('spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'),
    ],
    [
      'a group without a dot',
      crd((c) => {
        c.metadata.name = 'widgets.example';
        c.spec.group = 'example';
      }),
      INVALID_CRD('spec.group: Invalid value: "example": should be a domain with at least one dot', 'widgets.example'),
    ],
    [
      'an unknown scope',
      crd((c) => {
        c.spec.scope = 'Global';
      }),
      INVALID_CRD('spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'),
    ],
    [
      'a scale path outside .spec',
      crd((c) => {
        c.spec.versions[0].subresources = {
          scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '.status.replicas' },
        };
      }),
      INVALID_CRD(
        'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      ),
    ],
    [
      'a printer column of an unknown type',
      crd((c) => {
        c.spec.versions[0].additionalPrinterColumns = [{ name: 'Size', type: 'text', jsonPath: '.spec.size' }];
      }),
      INVALID_CRD(
        'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
      ),
    ],
    [
      'kind equal to listKind',
      crd((c) => {
        c.spec.names.listKind = 'Widget';
      }),
      INVALID_CRD('spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same'),
    ],
    [
      // Conversion webhooks are not served here (a deviation: Kubernetes accepts a webhook config).
      'a conversion webhook',
      crd((c) => {
        c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } };
      }),
      INVALID_CRD(
        'spec.conversion.strategy: Forbidden: conversion webhooks are not supported by this server (kubewasm)',
      ),
    ],
    [
      'an unknown conversion strategy',
      crd((c) => {
        c.spec.conversion = { strategy: 'Magic' };
      }),
      INVALID_CRD('spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'),
    ],
    [
      'a protected group without the api-approved annotation',
      crd((c) => {
        c.metadata.name = 'widgets.x.k8s.io';
        c.spec.group = 'x.k8s.io';
      }),
      INVALID_CRD(
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
        'widgets.x.k8s.io',
      ),
    ],
    [
      'a printer column path not starting with a dot',
      crd((c) => {
        c.spec.versions[0].additionalPrinterColumns = [{ name: 'Size', type: 'string', jsonPath: 'spec.size' }];
      }),
      INVALID_CRD(
        'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .',
      ),
    ],
  ])('%s: 422, nothing stored', async (_name, body, message) => {
    await expectRefused(ts, 'POST', CRDS, body, { code: 422, reason: 'Invalid', message });
  });
});

describe('a CRD without a storage version', () => {
  it('422 with both causes, nothing stored', async () => {
    const ts = await testServer();
    const before = await snapshot(ts.storage);
    const res = await ts.json(
      'POST',
      CRDS,
      crd((c) => {
        c.spec.versions[0].storage = false;
      }),
    );
    expect(res.status).toBe(422);
    const body: Doc = res.body;
    // Kubernetes prints spec.versions as Go's %#v of its internal structs (pointer addresses
    // included); the fields and details are what can be matched.
    expect(body.details.causes.map((c: Doc) => [c.reason, c.field])).toEqual([
      ['FieldValueInvalid', 'spec.versions'],
      ['FieldValueInvalid', 'status.storedVersions'],
    ]);
    expect(body.details.causes[0].message).toMatch(/: must have exactly one version marked as storage version$/);
    expect(body.details.causes[1].message).toBe('Invalid value: []string(nil): must have at least one stored version');
    expect(await snapshot(ts.storage)).toEqual(before);
  });
});

describe('custom resources that break their schema', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await testServer();
    expect((await ts.json('POST', CRDS, crd())).status).toBe(201);
    for (let i = 0; i < 400; i++) {
      const c: Doc = (await ts.json('GET', `${CRDS}/widgets.example.com`)).body;
      if ((c.status?.conditions ?? []).some((x: Doc) => x.type === 'Established' && x.status === 'True')) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  });

  const INVALID = (msg: string) => `Widget.example.com "w" is invalid: ${msg}`;

  it.each([
    [
      'a wrong type',
      widget({ size: 'small', count: 'three' }),
      INVALID('spec.count: Invalid value: "string": spec.count in body must be of type integer: "string"'),
    ],
    [
      'a value outside the enum',
      widget({ size: 'medium' }),
      INVALID('spec.size: Unsupported value: "medium": supported values: "small", "large"'),
    ],
    [
      'a pattern mismatch',
      widget({ size: 'small', color: 'Red' }),
      INVALID('spec.color: Invalid value: "Red": spec.color in body should match \'^[a-z]+$\''),
    ],
    ['a missing required field', widget({ color: 'red' }), INVALID('spec.size: Required value')],
  ])('%s: 422, nothing stored', async (_name, body, message) => {
    await expectRefused(ts, 'POST', WIDGETS, body, { code: 422, reason: 'Invalid', message });
  });

  it('an unknown field with fieldValidation=Strict: 400, nothing stored', async () => {
    await expectRefused(ts, 'POST', `${WIDGETS}?fieldValidation=Strict`, widget({ size: 'small', foo: 1 }), {
      code: 400,
      reason: 'BadRequest',
      message: 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.foo"',
    });
  });

  it('a version the CRD does not serve: 404', async () => {
    await expectRefused(ts, 'POST', '/apis/example.com/v2/namespaces/team-a/widgets', widget({ size: 'small' }), {
      code: 404,
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
    });
  });
});
