import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { WasmStorage } from '../../storage/wasm/wasm-storage.js';
import { loadKubewasm } from '../../wasm/node.js';
import { parseTokenFile } from '../authn/tokens.js';
import { PROTOBUF_TYPE } from '../decode/protobuf/decode.js';
import { type ApiServer, createApiServer } from '../server.js';
import type { RbacAuthorizer } from './authorizer.js';
import { reconcileBootstrapPolicy } from './bootstrap-policy.js';
import { storageAuthorizer } from './testing/storage-authorizer.js';

const ADMIN = 'admin-token';
const JANE = 'jane-token';
const AZ = '/apis/authorization.k8s.io/v1';

let api: ApiServer;
let storage: WasmStorage;
let authz: RbacAuthorizer;

async function call(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await api.handle(
    new Request(`https://kubewasm.test${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' || isBytes(body) ? body : JSON.stringify(body) }),
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const isBytes = (v: unknown): v is Uint8Array<ArrayBuffer> => v instanceof Uint8Array;

const review = (kind: string, spec: unknown, metadata?: unknown) => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind,
  ...(metadata === undefined ? {} : { metadata }),
  spec,
});

beforeAll(async () => {
  const kubewasm = await loadKubewasm();
  const clock = new VirtualClock(Date.parse('2025-01-01T00:00:00Z'));
  storage = new WasmStorage({ store: kubewasm.newStore(), clock });
  authz = storageAuthorizer(storage, clock);
  api = createApiServer({
    storage,
    clock,
    authorizer: authz,
    tokens: parseTokenFile(`${ADMIN},admin,1,"system:masters"\n${JANE},jane,2,"devs"\n`),
  });
  await call(ADMIN, 'POST', '/api/v1/namespaces', { metadata: { name: 'default' } });
  // The default roles, as `kubewasm up` creates them: system:basic-user lets everyone ask about themselves.
  expect(await reconcileBootstrapPolicy((req) => api.handle(req), 'https://kubewasm.test', ADMIN)).toEqual([]);
  // jane may get and list pods in default; the group devs may read /custom/* everywhere.
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const created = await Promise.all([
    call(ADMIN, 'POST', `${rbac}/namespaces/default/roles`, {
      metadata: { name: 'pod-reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
    }),
    call(ADMIN, 'POST', `${rbac}/namespaces/default/rolebindings`, {
      metadata: { name: 'jane-reads-pods' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
    }),
    call(ADMIN, 'POST', `${rbac}/clusterroles`, {
      metadata: { name: 'custom-reader' },
      rules: [{ nonResourceURLs: ['/custom/*'], verbs: ['get'] }],
    }),
    call(ADMIN, 'POST', `${rbac}/clusterrolebindings`, {
      metadata: { name: 'devs-read-custom' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'custom-reader' },
    }),
  ]);
  expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
  await authz.synced();
});

afterAll(() => authz.stop());

describe('SelfSubjectAccessReview', () => {
  it('answers for the requesting user: system:masters may do anything (the privileged group, no reason)', async () => {
    const spec = { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } };
    const res = await call(ADMIN, 'POST', `${AZ}/selfsubjectaccessreviews`, review('SelfSubjectAccessReview', spec));
    expect(res).toEqual({
      status: 201,
      body: {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec,
        status: { allowed: true },
      },
    });
  });

  it('allows what jane is bound to, with RBAC’s reason, and nothing else', async () => {
    const ask = async (verb: string, namespace = 'default') =>
      (
        await call(
          JANE,
          'POST',
          `${AZ}/selfsubjectaccessreviews`,
          review('SelfSubjectAccessReview', { resourceAttributes: { namespace, verb, resource: 'pods' } }),
        )
      ).body.status;
    expect(await ask('list')).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "jane-reads-pods/default" of Role "pod-reader" to User "jane"',
    });
    expect(await ask('delete')).toEqual({ allowed: false });
    expect(await ask('list', 'kube-system')).toEqual({ allowed: false });
  });

  it('checks non-resource URLs against the user’s groups', async () => {
    const ask = async (path: string) =>
      (
        await call(
          JANE,
          'POST',
          `${AZ}/selfsubjectaccessreviews`,
          review('SelfSubjectAccessReview', { nonResourceAttributes: { path, verb: 'get' } }),
        )
      ).body.status as { allowed: boolean };
    expect((await ask('/custom/metrics')).allowed).toBe(true);
    expect((await ask('/elsewhere')).allowed).toBe(false);
  });

  it('decodes kubectl auth can-i’s protobuf body', async () => {
    // `kubectl auth can-i create pods` as kubectl v1.32.4 sends it (protobuf/decode-access-review.test.ts).
    const hex =
      '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a6563744163636573735265766965' +
      '77123f0a100a0012001a0022002a0032003800420012210a1f0a0764656661756c741206637265617465' +
      '1a0022002a04706f647332003a001a0808001200' +
      '1a0020001a002200';
    const body = new Uint8Array(hex.length / 2).map((_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
    const res = await call(JANE, 'POST', `${AZ}/selfsubjectaccessreviews`, body, { 'Content-Type': PROTOBUF_TYPE });
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({ resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } });
    expect(res.body.status).toEqual({ allowed: false });
  });

  it('refuses both or neither attribute kinds, and any metadata, with Kubernetes’ 422', async () => {
    const both = await call(
      JANE,
      'POST',
      `${AZ}/selfsubjectaccessreviews`,
      review('SelfSubjectAccessReview', {
        resourceAttributes: { verb: 'get', resource: 'pods' },
        nonResourceAttributes: { path: '/api', verb: 'get' },
      }),
    );
    expect(both.status).toBe(422);
    expect(both.body.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: ' +
        'authorization.NonResourceAttributes{Path:"/api", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
    expect(both.body.details).toEqual({
      group: 'authorization.k8s.io',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message:
            'Invalid value: authorization.NonResourceAttributes{Path:"/api", Verb:"get"}: cannot be specified in combination with resourceAttributes',
          field: 'spec.nonResourceAttributes',
        },
      ],
    });

    const neither = await call(JANE, 'POST', `${AZ}/selfsubjectaccessreviews`, review('SelfSubjectAccessReview', {}));
    expect(neither.body.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );

    const named = await call(
      JANE,
      'POST',
      `${AZ}/selfsubjectaccessreviews`,
      review(
        'SelfSubjectAccessReview',
        { nonResourceAttributes: { path: '/x' } },
        { name: 'x', labels: { b: '2', a: '1' } },
      ),
    );
    // The bad value as Go's %#v prints the ObjectMeta (checked against apimachinery v0.32.4).
    expect(named.body.message).toBe(
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"x", GenerateName:"", ' +
        'Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, ' +
        'CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, ' +
        'DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{"a":"1", "b":"2"}, ' +
        'Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ' +
        'ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty',
    );
  });

  it('validates selector attributes, and reports a selector that does not parse as an evaluation error', async () => {
    const bad = await call(
      JANE,
      'POST',
      `${AZ}/selfsubjectaccessreviews`,
      review('SelfSubjectAccessReview', {
        resourceAttributes: {
          verb: 'list',
          resource: 'pods',
          fieldSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] },
          labelSelector: {},
        },
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      '.authorization.k8s.io "" is invalid: [' +
        'spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements, ' +
        'spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required]',
    );

    const unparsable = await call(
      JANE,
      'POST',
      `${AZ}/selfsubjectaccessreviews`,
      review('SelfSubjectAccessReview', {
        resourceAttributes: {
          namespace: 'default',
          verb: 'list',
          resource: 'pods',
          labelSelector: { rawSelector: 'a in (' },
          fieldSelector: {
            requirements: [
              { key: 'spec.nodeName', operator: 'In', values: ['n1'] },
              { key: 'x', operator: 'Exists' },
            ],
          },
        },
      }),
    );
    expect(unparsable.status).toBe(201);
    expect(unparsable.body.status).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "jane-reads-pods/default" of Role "pod-reader" to User "jane"',
      evaluationError:
        'spec.resourceAttributes.fieldSelector partially ignored due to parse error; ' +
        'spec.resourceAttributes.labelSelector ignored due to parse error',
    });
  });
});

describe('SubjectAccessReview', () => {
  it('answers for the user and groups the spec names, exactly as given', async () => {
    const spec = { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' }, user: 'jane' };
    const res = await call(ADMIN, 'POST', `${AZ}/subjectaccessreviews`, review('SubjectAccessReview', spec));
    expect(res.status).toBe(201);
    expect(res.body.kind).toBe('SubjectAccessReview');
    expect(res.body.spec).toEqual(spec);
    expect((res.body.status as { allowed: boolean }).allowed).toBe(true);

    const other = await call(
      ADMIN,
      'POST',
      `${AZ}/subjectaccessreviews`,
      review('SubjectAccessReview', { ...spec, user: 'bob' }),
    );
    expect(other.body.status).toEqual({ allowed: false });
    // A group alone is a subject; system:masters named in the spec is privileged.
    const group = await call(
      ADMIN,
      'POST',
      `${AZ}/subjectaccessreviews`,
      review('SubjectAccessReview', { nonResourceAttributes: { path: '/custom/a', verb: 'get' }, groups: ['devs'] }),
    );
    expect((group.body.status as { allowed: boolean }).allowed).toBe(true);
    const masters = await call(
      ADMIN,
      'POST',
      `${AZ}/subjectaccessreviews`,
      review('SubjectAccessReview', { ...spec, user: 'bob', groups: ['system:masters'] }),
    );
    expect(masters.body.status).toEqual({ allowed: true });
  });

  it('requires a user or a group, and attributes', async () => {
    const res = await call(ADMIN, 'POST', `${AZ}/subjectaccessreviews`, review('SubjectAccessReview', { groups: [] }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      '.authorization.k8s.io "" is invalid: [' +
        'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, ' +
        'spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    expect(res.body.reason).toBe('Invalid');
  });

  it('is create only: other methods 405, item paths 404, and nothing is stored', async () => {
    const before = await storage.count('/registry/');
    const spec = { resourceAttributes: { verb: 'get', resource: 'pods' }, user: 'jane' };
    expect((await call(ADMIN, 'POST', `${AZ}/subjectaccessreviews`, review('SubjectAccessReview', spec))).status).toBe(
      201,
    );
    expect(await storage.count('/registry/')).toBe(before);
    expect((await call(ADMIN, 'GET', `${AZ}/subjectaccessreviews`)).status).toBe(405);
    expect((await call(ADMIN, 'DELETE', `${AZ}/subjectaccessreviews`)).status).toBe(405);
    expect((await call(ADMIN, 'GET', `${AZ}/subjectaccessreviews/x`)).status).toBe(404);
  });

  it('checks the body’s kind and unknown fields as any create does', async () => {
    const wrongKind = await call(ADMIN, 'POST', `${AZ}/subjectaccessreviews`, review('SelfSubjectAccessReview', {}));
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toBe(
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: converting (v1.SelfSubjectAccessReview) to (authorization.SubjectAccessReview): unknown conversion',
    );
    const unknown = await call(
      ADMIN,
      'POST',
      `${AZ}/subjectaccessreviews?fieldValidation=Strict`,
      review('SubjectAccessReview', { user: 'jane', nonResourceAttributes: { path: '/x', verb: 'get', bogus: 1 } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(
      'SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: strict decoding error: unknown field "spec.nonResourceAttributes.bogus"',
    );
  });
});

describe('LocalSubjectAccessReview', () => {
  const path = `${AZ}/namespaces/default/localsubjectaccessreviews`;

  it('takes its namespace from the URL and answers like a SubjectAccessReview', async () => {
    const spec = { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' }, user: 'jane' };
    const res = await call(ADMIN, 'POST', path, review('LocalSubjectAccessReview', spec));
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ namespace: 'default', creationTimestamp: null });
    expect((res.body.status as { allowed: boolean }).allowed).toBe(true);
  });

  it('requires the attributes’ namespace to match, and refuses non-resource attributes', async () => {
    const other = await call(
      ADMIN,
      'POST',
      path,
      review('LocalSubjectAccessReview', {
        resourceAttributes: { namespace: 'kube-system', verb: 'get' },
        user: 'jane',
      }),
    );
    expect(other.status).toBe(422);
    expect(other.body.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "kube-system": must match metadata.namespace',
    );
    const nonResource = await call(
      ADMIN,
      'POST',
      path,
      review('LocalSubjectAccessReview', { nonResourceAttributes: { path: '/x', verb: 'get' }, user: 'jane' }),
    );
    expect(nonResource.body.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: ' +
        'authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
    );
    const bodyNamespace = await call(
      ADMIN,
      'POST',
      path,
      review(
        'LocalSubjectAccessReview',
        { resourceAttributes: { namespace: 'default' }, user: 'jane' },
        { namespace: 'x' },
      ),
    );
    expect(bodyNamespace.status).toBe(400);
    expect(bodyNamespace.body.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('has no all-namespaces route', async () => {
    const res = await call(
      ADMIN,
      'POST',
      `${AZ}/localsubjectaccessreviews`,
      review('LocalSubjectAccessReview', { resourceAttributes: {}, user: 'jane' }),
    );
    expect(res.status).toBe(404);
  });
});

describe('SelfSubjectRulesReview', () => {
  it('lists the rules the requester holds in the namespace, as a new object with only a status', async () => {
    const res = await call(
      JANE,
      'POST',
      `${AZ}/selfsubjectrulesreviews`,
      review('SelfSubjectRulesReview', { namespace: 'default' }, { name: 'ignored' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: expect.arrayContaining([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
        nonResourceRules: expect.arrayContaining([{ verbs: ['get'], nonResourceURLs: ['/custom/*'] }]),
        incomplete: false,
      },
    });
    const elsewhere = await call(
      JANE,
      'POST',
      `${AZ}/selfsubjectrulesreviews`,
      review('SelfSubjectRulesReview', { namespace: 'kube-system' }),
    );
    const rules = (elsewhere.body.status as { resourceRules: { resources?: string[] }[] }).resourceRules;
    expect(rules.some((r) => r.resources?.includes('pods'))).toBe(false);
  });

  it('requires a namespace', async () => {
    const res = await call(JANE, 'POST', `${AZ}/selfsubjectrulesreviews`, review('SelfSubjectRulesReview', {}));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('no namespace on request');
  });
});

describe('discovery', () => {
  it('lists the four reviews with the create verb only', async () => {
    const res = await call(ADMIN, 'GET', AZ);
    expect(res.body.resources).toEqual([
      {
        name: 'localsubjectaccessreviews',
        singularName: 'localsubjectaccessreview',
        namespaced: true,
        kind: 'LocalSubjectAccessReview',
        verbs: ['create'],
      },
      {
        name: 'selfsubjectaccessreviews',
        singularName: 'selfsubjectaccessreview',
        namespaced: false,
        kind: 'SelfSubjectAccessReview',
        verbs: ['create'],
      },
      {
        name: 'selfsubjectrulesreviews',
        singularName: 'selfsubjectrulesreview',
        namespaced: false,
        kind: 'SelfSubjectRulesReview',
        verbs: ['create'],
      },
      {
        name: 'subjectaccessreviews',
        singularName: 'subjectaccessreview',
        namespaced: false,
        kind: 'SubjectAccessReview',
        verbs: ['create'],
      },
    ]);
  });
});
