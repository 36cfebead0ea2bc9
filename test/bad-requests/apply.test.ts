/**
 * Server-side apply requests kube-apiserver 1.32 refuses, in process: each case the exact code,
 * reason, message (and causes) it answers with, and the proof that nothing was written — every key
 * under /registry/, its revision and the store's revision, before and after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, testServer } from '../../ts/apiserver/testing/test-server.js';
import { snapshot } from '../testing/bad-requests.js';

type Obj = Record<string, unknown>;
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const APPLY = 'application/apply-patch+yaml';

const deployment = (name: string, replicas = 1): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

interface Case {
  name: string;
  path: string;
  contentType?: string;
  body: string;
  code: number;
  reason?: string;
  message: string;
  details?: Obj;
}

const CASES: Case[] = [
  {
    name: 'an apply patch without fieldManager',
    path: `${DEPLOY}/web`,
    body: JSON.stringify(deployment('web', 3)),
    code: 422,
    reason: 'Invalid',
    message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    details: {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [
        { reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' },
      ],
    },
  },
  {
    name: 'force on a merge patch',
    path: `${DEPLOY}/web?fieldManager=me&force=true`,
    contentType: 'application/merge-patch+json',
    body: '{"spec":{"replicas":3}}',
    code: 422,
    reason: 'Invalid',
    message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    details: {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: may not be specified for non-apply patch',
          field: 'force',
        },
      ],
    },
  },
  {
    name: 'an apply body of another version (a ConfigMap to a deployment)',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' } }),
    code: 400,
    reason: 'BadRequest',
    message: 'Incorrect version specified in apply patch. Specified patch version: v1, expected: apps/v1',
  },
  {
    name: 'an apply body of another kind of the same version (a ReplicaSet to a deployment)',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({ ...deployment('web'), kind: 'ReplicaSet' }),
    code: 500,
    // Go prints the two schema.TypeRefs (pointers); the kinds are named here instead.
    message: 'failed to merge config: expected objects of the same type, but got Deployment and ReplicaSet',
  },
  {
    name: 'an apply body of a kind the version does not have',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({ ...deployment('web'), kind: 'Widget' }),
    code: 500,
    message:
      'failed to create typed patch object (/web; apps/v1, Kind=Widget): no corresponding type for apps/v1, Kind=Widget',
  },
  {
    name: 'an apply body without apiVersion, creating',
    path: `${DEPLOY}/new?fieldManager=me`,
    body: '{"kind":"Deployment","metadata":{"name":"new"}}',
    code: 400,
    reason: 'BadRequest',
    message: 'Incorrect version specified in apply patch. Specified patch version: , expected: apps/v1',
  },
  {
    name: 'malformed YAML',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n spec: [\n',
    code: 400,
    reason: 'BadRequest',
    message: expect.stringMatching(
      /^error decoding YAML: error converting YAML to JSON: yaml: line \d+: /,
    ) as unknown as string,
  },
  {
    name: 'a YAML list instead of an object',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: '- a\n- b\n',
    code: 400,
    reason: 'BadRequest',
    message:
      'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
  {
    name: 'managedFields in the applied configuration',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({
      ...deployment('web'),
      metadata: { name: 'web', managedFields: [{ manager: 'x', operation: 'Apply' }] },
    }),
    code: 400,
    reason: 'BadRequest',
    message: 'metadata.managedFields must be nil',
  },
  {
    name: 'a name other than the URL’s',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'other' } }),
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (other) does not match the name on the URL (web)',
  },
  {
    name: 'a name other than the URL’s, creating',
    path: `${DEPLOY}/absent?fieldManager=me`,
    body: JSON.stringify(deployment('other')),
    code: 400,
    reason: 'BadRequest',
    message: 'the name of the object (other) does not match the name on the URL (absent)',
  },
  {
    name: 'a field the schema does not declare',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({ ...deployment('web'), spec: { replicas: 2, bogus: true } }),
    code: 500,
    message:
      'failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.bogus: field not declared in schema',
  },
  {
    name: 'a map in a set (metadata.finalizers)',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', finalizers: [{ a: 1 }] },
    }),
    code: 500,
    message:
      "failed to create typed patch object (/web; apps/v1, Kind=Deployment): .metadata.finalizers: element 0: associative list without keys has an element that's a map type",
  },
  {
    name: 'two containers of one name',
    path: `${DEPLOY}/web?fieldManager=me`,
    body: JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'c', image: 'a' },
              { name: 'c', image: 'b' },
            ],
          },
        },
      },
    }),
    code: 500,
    message:
      'failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="c"]',
  },
  {
    name: 'a conflicting apply without force',
    path: `${DEPLOY}/web?fieldManager=other&force=false`,
    body: JSON.stringify(deployment('web', 7)),
    code: 409,
    reason: 'Conflict',
    message: 'Apply failed with 1 conflict: conflict with "creator" using apps/v1: .spec.replicas',
    details: {
      causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "creator" using apps/v1', field: '.spec.replicas' },
      ],
    },
  },
  {
    name: 'an invalid object created by apply',
    path: `${DEPLOY}/bad?fieldManager=me`,
    body: JSON.stringify({ ...deployment('bad'), spec: { ...(deployment('bad').spec as Obj), replicas: -1 } }),
    code: 422,
    reason: 'Invalid',
    message: 'Deployment.apps "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  },
];

describe('server-side apply requests refused', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer();
    const created = await s.json('POST', `${DEPLOY}?fieldManager=creator`, deployment('web'));
    expect(created.status).toBe(201);
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const before = await snapshot(s.storage);
      const res = await s.call('PATCH', c.path, c.body, { 'Content-Type': c.contentType ?? APPLY });
      const body = (await res.json()) as Obj;
      expect(res.status).toBe(c.code);
      expect(body).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code: c.code,
        message: c.message,
      });
      expect(body.reason).toBe(c.reason);
      if (c.details !== undefined) expect(body.details).toEqual(c.details);
      expect(await snapshot(s.storage)).toEqual(before);
    });
  }

  it('client-sent managedFields that decode but fail ObjectMeta validation: 422, nothing stored', async () => {
    const before = await snapshot(s.storage);
    const current = (await (await s.call('GET', `${DEPLOY}/web`)).json()) as Obj & { metadata: Obj };
    const long = 'm'.repeat(129);
    const res = await s.call(
      'PUT',
      `${DEPLOY}/web`,
      JSON.stringify({
        ...current,
        metadata: {
          ...current.metadata,
          managedFields: [
            {
              manager: long,
              operation: 'Update',
              apiVersion: 'apps/v1',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:spec': { 'f:replicas': {} } },
            },
          ],
        },
      }),
    );
    const body = (await res.json()) as Obj;
    expect(res.status).toBe(422);
    expect(body).toMatchObject({
      reason: 'Invalid',
      message:
        'Deployment.apps "web" is invalid: metadata.managedFields[0].manager: Too long: may not be more than 128 bytes',
      details: { name: 'web', group: 'apps', kind: 'Deployment' },
    });
    // ObjectMeta is validated by BeforeUpdate (ValidateObjectMetaAccessor and …Update) and the
    // kind's strategy: each reports it, the message once (ToAggregate drops repeats).
    const causes = (body.details as { causes: unknown[] }).causes;
    expect(causes.length).toBeGreaterThan(0);
    for (const c of causes) {
      expect(c).toEqual({
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 128 bytes',
        field: 'metadata.managedFields[0].manager',
      });
    }
    expect(await snapshot(s.storage)).toEqual(before);
  });

  it('client-sent managedFields that do not decode are replaced by the stored ones', async () => {
    const res = await s.call(
      'PUT',
      `${DEPLOY}/web`,
      JSON.stringify({
        ...deployment('web'),
        metadata: {
          name: 'web',
          managedFields: [
            { manager: 'm', operation: 'Patch', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: {} },
          ],
        },
      }),
    );
    const body = (await res.json()) as Obj;
    expect(res.status).toBe(200);
    // DecodeManagedFields refuses the entry, so the stored ones are kept (fieldmanager.go decodeLiveOrNew).
    expect((body.metadata as { managedFields: { manager: string }[] }).managedFields.map((e) => e.manager)).toEqual([
      'creator',
    ]);
  });
});
