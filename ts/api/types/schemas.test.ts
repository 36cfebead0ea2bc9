/**
 * The generated types against the OpenAPI they come from, read back with the TypeScript parser
 * (independently of the generator): every schema has its type in its Go package's file, every
 * object type has the schema's properties in Go's field order with `required` ones non-optional,
 * every `enum` is the union of its values, every `$ref` names the referenced type, and every
 * top-level kind has literal kind/apiVersion types and a row in the kind table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GO_TYPES, type GoTypes, OPENAPI, OUT_DIR } from '../../../scripts/gen-api-types.mjs';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  $ref?: string;
  enum?: string[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const openapi: { schemas: Record<string, Schema>; goTypes: Record<string, Record<string, string>> } = JSON.parse(
  read(OPENAPI),
);
const schemas = openapi.schemas;
const goTypes: GoTypes = JSON.parse(read(GO_TYPES));

/** The file (module) and type name of a schema: `io.k8s.api.apps.v1.Deployment` → apps/v1, Deployment. */
function typeOfSchema(schema: string): { module: string; name: string } {
  const name = schema.slice(schema.lastIndexOf('.') + 1);
  const pkg = schema.slice(0, schema.lastIndexOf('.'));
  const fixed: Record<string, string> = {
    'io.k8s.apimachinery.pkg.apis.meta.v1': 'meta/v1',
    'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1': 'apiextensions/v1',
    'io.k8s.apimachinery.pkg.api.resource': 'resource',
    'io.k8s.apimachinery.pkg.util.intstr': 'intstr',
    'io.k8s.apimachinery.pkg.runtime': 'runtime',
  };
  const api = /^io\.k8s\.api\.([a-z0-9]+)\.(v\w+)$/.exec(pkg);
  const module = fixed[pkg] ?? (api ? `${api[1]}/${api[2]}` : undefined);
  if (module === undefined) throw new Error(`no module for ${schema}`);
  return { module, name };
}

interface Member {
  name: string;
  optional: boolean;
  type: ts.TypeNode;
  text: string;
}

/** One parsed file: its type aliases and where its imported names come from. */
interface ParsedModule {
  aliases: Map<string, ts.TypeNode>;
  imports: Map<string, string>;
  file: ts.SourceFile;
}

const parsed = new Map<string, ParsedModule>();
function parse(module: string): ParsedModule {
  let m = parsed.get(module);
  if (m !== undefined) return m;
  const file = ts.createSourceFile(module, read(join(OUT_DIR, `${module}.ts`)), ts.ScriptTarget.Latest, true);
  m = { aliases: new Map(), imports: new Map(), file };
  for (const s of file.statements) {
    if (ts.isTypeAliasDeclaration(s)) m.aliases.set(s.name.text, s.type);
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier)) {
      const from = join(module, '..', s.moduleSpecifier.text).replace(/\.js$/, '');
      const named = s.importClause?.namedBindings;
      if (named && ts.isNamedImports(named)) for (const e of named.elements) m.imports.set(e.name.text, from);
    }
  }
  parsed.set(module, m);
  return m;
}

function members(module: string, name: string): Member[] | undefined {
  const m = parse(module);
  const node = m.aliases.get(name);
  if (node === undefined || !ts.isTypeLiteralNode(node)) return undefined;
  return node.members.filter(ts.isPropertySignature).map((p) => ({
    name: ts.isStringLiteral(p.name) ? p.name.text : p.name.getText(m.file),
    optional: p.questionToken !== undefined,
    type: p.type as ts.TypeNode,
    text: (p.type as ts.TypeNode).getText(m.file),
  }));
}

/** The string literals a type node stands for, through aliases and imports; arrays give their items'. */
function literals(module: string, node: ts.TypeNode): Set<string> {
  const out = new Set<string>();
  const walk = (mod: string, n: ts.TypeNode): void => {
    if (ts.isUnionTypeNode(n)) for (const t of n.types) walk(mod, t);
    else if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) out.add(n.literal.text);
    else if (ts.isArrayTypeNode(n)) walk(mod, n.elementType);
    else if (ts.isParenthesizedTypeNode(n)) walk(mod, n.type);
    else if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName)) {
      const name = n.typeName.text;
      const from = parse(mod).imports.get(name) ?? mod;
      const target = parse(from).aliases.get(name);
      if (target !== undefined) walk(from, target);
    }
  };
  walk(module, node);
  return out;
}

const refOf = (s: Schema | undefined): string | undefined => {
  const ref = s?.$ref ?? (s?.allOf?.length === 1 ? s.allOf[0]?.$ref : undefined);
  return ref?.slice(ref.lastIndexOf('/') + 1);
};

const objectSchemas = Object.entries(schemas).filter(([, s]) => s.properties !== undefined);

describe('the generated types against the OpenAPI schemas', () => {
  it('have a type for every schema, in its Go package’s file', () => {
    const missing = Object.keys(schemas).filter((s) => {
      const { module, name } = typeOfSchema(s);
      return !parse(module).aliases.has(name);
    });
    expect(missing).toEqual([]);
    expect(Object.keys(schemas).length).toBe(410);
  });

  it('have every property of every object schema, in Go’s field order, required ones non-optional', () => {
    for (const [schema, s] of objectSchemas) {
      const { module, name } = typeOfSchema(schema);
      const got = members(module, name);
      expect(got, schema).toBeDefined();
      const required = new Set(s.required ?? []);
      expect(
        got?.map((m) => [m.name, !m.optional]),
        schema,
      ).toEqual(
        goTypes.structs[`${module}.${name}`]?.map((f) => [f.split(' ')[0], required.has(f.split(' ')[0] ?? '')]),
      );
      expect(new Set(got?.map((m) => m.name)), schema).toEqual(new Set(Object.keys(s.properties ?? {})));
    }
  });

  it('read the same Go field types as gen-openapi.mjs did for its goTypes table', () => {
    let n = 0;
    for (const [schema, fields] of Object.entries(openapi.goTypes)) {
      const { module, name } = typeOfSchema(schema);
      const go = new Map(
        (goTypes.structs[`${module}.${name}`] ?? []).map((f) => {
          const [field = '', type = ''] = f.split(' ');
          // `*core/v1.RestartPolicy` as reflect prints it: `v1.RestartPolicy`.
          return [field, type.replace(/^\*+/, '').replace(/(?:\w+\/)?(\w+)\.(\w+)/g, '$1.$2')];
        }),
      );
      for (const [field, type] of Object.entries(fields)) {
        n++;
        expect(go.get(field), `${schema}.${field}`).toBe(type);
      }
    }
    expect(n).toBeGreaterThan(150);
  });

  it('type every enum as the union of its values', () => {
    let n = 0;
    for (const [schema, s] of objectSchemas) {
      const { module, name } = typeOfSchema(schema);
      for (const m of members(module, name) ?? []) {
        const p = s.properties?.[m.name];
        const values = p?.enum ?? p?.items?.enum;
        if (values === undefined) continue;
        n++;
        expect(literals(module, m.type), `${schema}.${m.name}`).toEqual(new Set(values));
      }
    }
    expect(n).toBe(68);
  });

  it('name the referenced type of every $ref, as the field, the array item or the map value', () => {
    for (const [schema, s] of objectSchemas) {
      const { module, name } = typeOfSchema(schema);
      for (const m of members(module, name) ?? []) {
        const p = s.properties?.[m.name];
        const ref =
          refOf(p) ??
          refOf(p?.items) ??
          (typeof p?.additionalProperties === 'object' ? refOf(p.additionalProperties) : undefined);
        if (ref === undefined) continue;
        const target = typeOfSchema(ref).name;
        const base = m.text.replace(/ \| null$/, '');
        const expected = [target, `${target}[]`, `Record<string, ${target}>`];
        // A field of a named map or slice type (ResourceList) names that type, which names the ref.
        const named = expected.includes(base) ? undefined : parse(module).aliases.get(base);
        const text = named === undefined ? base : named.getText(parse(module).file);
        expect(expected, `${schema}.${m.name}: ${m.text}`).toContain(text);
      }
    }
  });

  it('give top-level kinds literal kind and apiVersion types and a row in the kind table', () => {
    const table = members('kinds', 'Kinds') ?? [];
    const rows = new Map(table.map((m) => [m.name, m.text]));
    let n = 0;
    for (const [schema, s] of objectSchemas) {
      const gvks = s['x-kubernetes-group-version-kind'];
      if (gvks === undefined) continue;
      const { module, name } = typeOfSchema(schema);
      const byName = new Map((members(module, name) ?? []).map((m) => [m.name, m]));
      if (gvks.length !== 1) {
        // meta.k8s.io's DeleteOptions and WatchEvent belong to every group version.
        expect(module, schema).toBe('meta/v1');
        expect(byName.get('apiVersion')?.text ?? 'string', schema).toBe('string');
        continue;
      }
      const [{ group, version, kind }] = gvks as [{ group: string; version: string; kind: string }];
      const apiVersion = group === '' ? version : `${group}/${version}`;
      expect(byName.get('kind')?.text, schema).toBe(`'${kind}'`);
      expect(byName.get('apiVersion')?.text, schema).toBe(`'${apiVersion}'`);
      if (module === 'meta/v1') continue;
      n++;
      expect(rows.get(`${apiVersion}/${kind}`), schema).toBe(`${module.replace('/', '')}.${name}`);
    }
    expect(rows.size).toBe(n);
    expect(n).toBeGreaterThan(70);
  });

  it('allow null where Go writes null and nowhere else', () => {
    const nulls = new Set<string>();
    for (const [schema] of objectSchemas) {
      const { module, name } = typeOfSchema(schema);
      for (const m of members(module, name) ?? [])
        if (m.text.endsWith('| null')) nulls.add(`${module}.${name}.${m.name}`);
      expect(
        (members(module, name) ?? []).filter((m) => !m.optional && m.text.endsWith('| null')).map((m) => m.name),
        `${schema}: a required field is never null`,
      ).toEqual([]);
    }
    // The zero metav1.Time marshals as null (metav1 time.go MarshalJSON), omitempty or not.
    for (const f of [
      'meta/v1.ObjectMeta.creationTimestamp',
      'core/v1.PodCondition.lastProbeTime',
      'core/v1.ContainerStateRunning.startedAt',
      'core/v1.Event.eventTime',
      'apps/v1.DeploymentCondition.lastUpdateTime',
    ])
      expect(nulls, f).toContain(f);
    // Slices without omitempty marshal nil as null: an empty Role's `"rules": null`.
    expect(nulls).toContain('rbac/v1.Role.rules');
    expect(nulls).toContain('discovery/v1.EndpointSlice.ports');
    // Pointers with omitempty are left out instead.
    expect(nulls).not.toContain('meta/v1.ObjectMeta.deletionTimestamp');
    expect(nulls).not.toContain('core/v1.PodStatus.startTime');
  });
});
