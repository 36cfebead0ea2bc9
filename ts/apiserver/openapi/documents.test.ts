import { describe, expect, it } from 'vitest';
import { groupVersions, RESOURCES, subresourcesOf } from '../registry/resources.js';
import { loadOpenApiData, SCHEMA_REF_PREFIX } from './data.js';
import { buildDocument, indexKey, openApiDocument, openApiIndex } from './documents.js';

function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

describe('OpenAPI v3 documents', () => {
  it('indexes every served group version with a hash', async () => {
    const index = await openApiIndex();
    expect(Object.keys(index.paths)).toEqual(groupVersions().map(indexKey));
    for (const [key, { serverRelativeURL }] of Object.entries(index.paths)) {
      expect(serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key}\\?hash=[0-9A-F]{16}$`));
    }
    expect(await openApiDocument('apis/nope/v1')).toBeUndefined();
  });

  it('holds the real patch operation kubectl checks for fieldValidation', async () => {
    const doc = await openApiDocument('apis/apps/v1');
    const patch = doc?.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch as {
      operationId: string;
      'x-kubernetes-group-version-kind': unknown;
      parameters: { name: string; description: string }[];
    };
    expect(patch.operationId).toBe('patchAppsV1NamespacedDeployment');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
    const fv = patch.parameters.find((p) => p.name === 'fieldValidation');
    expect(fv?.description).toMatch(/^fieldValidation instructs the server on how to handle objects/);
    const spec = doc?.components.schemas['io.k8s.api.apps.v1.DeploymentSpec'];
    expect(spec?.properties?.replicas).toMatchObject({ type: 'integer', format: 'int32' });
    expect(spec?.properties?.replicas?.description).toMatch(/^Number of desired pods/);
  });

  it('serves only paths of served resources and subresources, and every schema they reach', async () => {
    for (const gv of groupVersions()) {
      const key = indexKey(gv);
      const doc = await openApiDocument(key);
      const served = RESOURCES.filter((r) => r.group === gv.group && r.version === gv.version);
      for (const path of Object.keys(doc?.paths ?? {})) {
        const seg = path
          .slice(key.length + 2)
          .split('/')
          .filter((s) => s !== 'watch' && s !== '');
        if (seg.length === 0) continue; // the group version's resource list
        const rest = seg[0] === 'namespaces' && seg[1] === '{namespace}' && seg.length > 2 ? seg.slice(2) : seg;
        const info = served.find((r) => r.resource === rest[0]);
        expect(info, path).toBeDefined();
        if (rest.length === 3 && info !== undefined) {
          expect(
            subresourcesOf(info).map((s) => s.name),
            path,
          ).toContain(rest[2]);
        }
      }
      for (const ref of refs(doc)) {
        expect(ref.startsWith(SCHEMA_REF_PREFIX), ref).toBe(true);
        expect(doc?.components.schemas[ref.slice(SCHEMA_REF_PREFIX.length)], ref).toBeDefined();
      }
    }
    const core = await openApiDocument('api/v1');
    expect(core?.paths['/api/v1/namespaces/{namespace}/pods/{name}/exec']).toBeUndefined();
    expect(core?.components.schemas['io.k8s.api.core.v1.Pod']?.['x-kubernetes-group-version-kind']).toEqual([
      { group: '', kind: 'Pod', version: 'v1' },
    ]);
  });

  it('gives a resource missing from the Kubernetes paths a bare patch operation', async () => {
    const data = await loadOpenApiData();
    const doc = buildDocument({ ...data, paths: {} }, 'api/v1');
    for (const r of RESOURCES.filter((x) => x.group === '' && x.version === 'v1')) {
      const path = r.namespaced
        ? `/api/v1/namespaces/{namespace}/${r.resource}/{name}`
        : `/api/v1/${r.resource}/{name}`;
      const patch = doc?.paths[path]?.patch as { parameters: { name: string }[] };
      expect(patch.parameters.map((p) => p.name)).toContain('fieldValidation');
    }
  });
});
