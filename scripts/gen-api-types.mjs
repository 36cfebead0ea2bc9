#!/usr/bin/env node
/**
 * Writes ts/api/types/: the TypeScript types of the Kubernetes v1.32 API objects, as their JSON
 * looks on the wire, one file per Go package (the role of k8s.io/api and the apimachinery types):
 *
 *   node scripts/gen-api-types.mjs        regenerate from the committed inputs below
 *   node scripts/gen-api-types.mjs --go   first re-read the Go sources into go-types.k8s.json
 *
 * Inputs:
 *   ts/apiserver/openapi/k8s-1.32.2.json  (scripts/gen-openapi.mjs) the OpenAPI v3 component
 *       schemas: properties, `required`, `enum`, descriptions, x-kubernetes-group-version-kind
 *   ts/api/types/go-types.k8s.json  what the schemas cannot tell, read (with --go) from the Go
 *       sources of k8s.io/api, k8s.io/apimachinery and k8s.io/apiextensions-apiserver v0.32.2
 *       (module zips from the Go module proxy, cached in build/openapi/ as gen-openapi.mjs does):
 *       each struct's JSON fields in Go's declaration order (the schemas' are sorted; embedded
 *       `json:",inline"` structs expanded) with their Go types and `omitempty`, and the named
 *       non-struct types the fields use (`RestartPolicy string`, `ResourceList map[…]`) with the
 *       first sentence of their Go doc comment
 *
 * The rules (ts/api/README.md has them for readers):
 *   - each object schema becomes `export type Name = { … }` (an object type rather than an
 *     interface, so every kind is assignable to KubeObject and Record<string, unknown>), its
 *     properties in Go's field order, the schema's `required` ones non-optional, the rest optional
 *   - optional fields whose Go zero value marshals as `null` also allow `null`: a non-pointer
 *     metav1.Time/MicroTime (`creationTimestamp: null`), and pointers, slices and maps without
 *     `omitempty` (`rules: null` of an empty Role)
 *   - a property whose Go type is a named non-struct type refers to it by name; the named type is
 *     the union of the schema's `enum` values when it has one (`RestartPolicy = 'Always' | …`),
 *     else its underlying type (`ResourceList = Record<string, Quantity>`, `PodConditionType =
 *     string`); an `enum` on a field of plain Go type is an inline union
 *   - top-level kinds (a single x-kubernetes-group-version-kind) get literal `kind` and
 *     `apiVersion` types; ts/api/types/kinds.ts maps `apiVersion/Kind` to each of them
 *   - one JSDoc line per type and property: the first sentence of its description
 * The output is deterministic and Biome-formatted; ts/api/types/generated.test.ts regenerates it
 * in memory and fails when a committed file differs.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { moduleZip, unzip } from './go-module-zip.mjs';

export const OPENAPI = 'ts/apiserver/openapi/k8s-1.32.2.json';
export const GO_TYPES = 'ts/api/types/go-types.k8s.json';
export const OUT_DIR = 'ts/api/types';
const KUBERNETES = 'v1.32.2';
const GO_VERSION = 'v0.32.2';
const COMMAND = 'node scripts/gen-api-types.mjs';

/** Output module (file stem under ts/api/types/) → Go import path. */
const PACKAGES = {
  'meta/v1': 'k8s.io/apimachinery/pkg/apis/meta/v1',
  'core/v1': 'k8s.io/api/core/v1',
  'apps/v1': 'k8s.io/api/apps/v1',
  'batch/v1': 'k8s.io/api/batch/v1',
  'autoscaling/v1': 'k8s.io/api/autoscaling/v1',
  'autoscaling/v2': 'k8s.io/api/autoscaling/v2',
  'coordination/v1': 'k8s.io/api/coordination/v1',
  'discovery/v1': 'k8s.io/api/discovery/v1',
  'policy/v1': 'k8s.io/api/policy/v1',
  'scheduling/v1': 'k8s.io/api/scheduling/v1',
  'storage/v1': 'k8s.io/api/storage/v1',
  'rbac/v1': 'k8s.io/api/rbac/v1',
  'authentication/v1': 'k8s.io/api/authentication/v1',
  'authorization/v1': 'k8s.io/api/authorization/v1',
  'apiextensions/v1': 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
  resource: 'k8s.io/apimachinery/pkg/api/resource',
  intstr: 'k8s.io/apimachinery/pkg/util/intstr',
  runtime: 'k8s.io/apimachinery/pkg/runtime',
  types: 'k8s.io/apimachinery/pkg/types',
};

/** The Go modules holding PACKAGES. */
const MODULES = ['k8s.io/api', 'k8s.io/apimachinery', 'k8s.io/apiextensions-apiserver'];

/**
 * Types with their own JSON marshalling, whose schemas say little (`type: string`, `oneOf`, or
 * nothing): module.Name → [TypeScript type, JSDoc].
 */
const SPECIAL = {
  'resource.Quantity': [
    'string',
    'resource.Quantity on the wire: a decimal or binary-SI string such as `100m`, `1.5`, `128Mi`, `1e3`.',
  ],
  'intstr.IntOrString': ['number | string', 'intstr.IntOrString: an int32 or a string, as JSON carries it.'],
  'runtime.RawExtension': ['unknown', 'runtime.RawExtension: any JSON value (an embedded object or patch).'],
  'meta/v1.Time': ['string', 'metav1.Time on the wire: RFC 3339 at second precision (`2024-05-01T12:00:00Z`).'],
  'meta/v1.MicroTime': [
    'string',
    'metav1.MicroTime on the wire: RFC 3339 with microseconds (`2024-05-01T12:00:00.123456Z`).',
  ],
  'meta/v1.FieldsV1': [
    'Record<string, unknown>',
    'FieldsV1: a JSON trie of `f:<name>`, `k:<keys>`, `v:<value>`, `i:<index>` and `.` entries.',
  ],
  'apiextensions/v1.JSON': ['unknown', 'JSON represents any valid JSON value.'],
  'apiextensions/v1.JSONSchemaPropsOrArray': [
    'JSONSchemaProps | JSONSchemaProps[]',
    'JSONSchemaPropsOrArray: one schema or a list of schemas.',
  ],
  'apiextensions/v1.JSONSchemaPropsOrBool': [
    'JSONSchemaProps | boolean',
    'JSONSchemaPropsOrBool: a schema or a boolean.',
  ],
  'apiextensions/v1.JSONSchemaPropsOrStringArray': [
    'JSONSchemaProps | string[]',
    'JSONSchemaPropsOrStringArray: a schema or a list of property names.',
  ],
};

/** Go import path → module id; module id → import alias in index.ts (Go's `corev1`, `metav1`). */
const MODULE_OF_PATH = new Map(Object.entries(PACKAGES).map(([m, p]) => [p, m]));
const alias = (module) => module.replace('/', '');

/** Go type path (`k8s.io/api/apps/v1.DeploymentStrategy`) → schema name (`io.k8s.api.apps.v1.DeploymentStrategy`), as gen-openapi.mjs. */
function schemaName(goPath) {
  const [domain, ...rest] = goPath.split('/');
  return [...domain.split('.').reverse(), ...rest].join('.');
}

/** `core/v1.Pod` → the schema name. */
const schemaOf = (id) => {
  const dot = id.lastIndexOf('.');
  return schemaName(`${PACKAGES[id.slice(0, dot)]}.${id.slice(dot + 1)}`);
};

const moduleOf = (id) => id.slice(0, id.lastIndexOf('.'));
const nameOf = (id) => id.slice(id.lastIndexOf('.') + 1);

// ---------------------------------------------------------------------------------------------
// --go: the Go facts

const GO_BUILTINS = new Set(
  'map string bool byte rune int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float32 float64'.split(' '),
);

/** The first sentence of a Go doc comment (`// X is …` lines before a declaration), markers (`+enum`) left out. */
function goDoc(comment) {
  const text = comment
    .split('\n')
    .map((l) => l.replace(/^\/\/ ?/, ''))
    .filter((l) => !l.startsWith('+'))
    .join('\n');
  return firstSentence(text.trim());
}

/**
 * Reads the Go sources of PACKAGES into the go-types table: for every struct with a schema, its
 * JSON fields in declaration order (`name type[ omitempty]`, types qualified by module id), and
 * every named non-struct type the fields reach, with its underlying type and doc sentence.
 */
export async function readGoTypes(schemas) {
  const files = new Map(); // module id → Go source texts
  for (const module of MODULES) {
    const zip = await moduleZip(module, GO_VERSION);
    for (const [id, path] of Object.entries(PACKAGES)) {
      if (!path.startsWith(`${module}/`)) continue;
      const dir = `${module}@${GO_VERSION}/${path.slice(module.length + 1)}/`;
      const texts = [...unzip(zip, dir)]
        .filter(([name]) => !name.includes('/') && name.endsWith('.go') && !name.endsWith('_test.go'))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([, text]) => text.replace(/\/\*[\s\S]*?\*\//g, ''));
      files.set(id, texts);
    }
  }
  const structs = new Map(); // id → () => [{embedded, type, tag}]
  const named = new Map(); // id → {type, doc}
  for (const [module, texts] of files) {
    for (const text of texts) {
      const imports = new Map();
      const block = /^import \(([^)]*)\)/m.exec(text)?.[1] ?? /^import ((?:\w+ )?"[^"]+")/m.exec(text)?.[1] ?? '';
      for (const m of block.matchAll(/(?:(\w+)\s+)?"([^"]+)"/g)) imports.set(m[1] ?? m[2].split('/').pop(), m[2]);
      // A type expression with its named types qualified by module id (`[]core/v1.Volume`); undefined
      // when it names a package outside PACKAGES (such types never reach an API struct).
      const qualify = (expr) => {
        let outside = false;
        const text = expr.replace(/(?:(\w+)\.)?(\w+)/g, (all, pkg, name) => {
          if (pkg === undefined && GO_BUILTINS.has(name)) return all;
          const path = pkg === undefined ? PACKAGES[module] : imports.get(pkg);
          const id = MODULE_OF_PATH.get(path);
          if (id === undefined) outside = true;
          return `${id}.${name}`;
        });
        return outside ? undefined : text;
      };
      for (const m of text.matchAll(/^((?:\/\/.*\n)*)type (\w+) (?:= )?(\S+)/gm)) {
        if (/^(struct|interface)\b/.test(m[3])) continue;
        const type = qualify(m[3]);
        if (type !== undefined) named.set(`${module}.${m[2]}`, { type, doc: goDoc(m[1]) });
      }
      for (const m of text.matchAll(/^type (\w+) struct ?\{\}$/gm)) structs.set(`${module}.${m[1]}`, () => []);
      for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
        // Read lazily: only the structs with a schema and those they embed must be API structs.
        structs.set(`${module}.${m[1]}`, () => {
          const id = `${module}.${m[1]}`;
          const fields = [];
          for (const raw of m[2].split('\n')) {
            const line = raw.replace(/^\s*\/\/.*$/, '').trim();
            if (line === '') continue;
            const f = /^(?:(\w+)\s+)?([^\s`]+)\s+`([^`]*)`$/.exec(line);
            if (!f) throw new Error(`${id}: cannot read the field \`${line}\``);
            const tag = /(?:^| )json:"([^"]*)"/.exec(f[3])?.[1];
            if (tag === undefined) throw new Error(`${id}: \`${line}\` has no json tag`);
            const type = qualify(f[2]);
            if (type === undefined) throw new Error(`${id}: \`${line}\` names a package outside PACKAGES`);
            fields.push({ embedded: f[1] === undefined, type, tag });
          }
          return fields;
        });
      }
    }
  }
  // Embedded `json:",inline"` structs contribute their fields in place, as encoding/json does.
  const flat = (id) =>
    structs
      .get(id)()
      .flatMap(({ embedded, type, tag }) => {
        const [name, ...options] = tag.split(',');
        if (name === '-') return [];
        if (name === '') {
          if (!embedded) throw new Error(`${id}: a field without a JSON name`);
          return flat(type.replace(/^\*/, ''));
        }
        return [`${name} ${type}${options.includes('omitempty') ? ' omitempty' : ''}`];
      });
  const out = { structs: {}, named: {} };
  const reached = new Set();
  const reach = (type) => {
    for (const m of type.matchAll(/[\w/]+\.\w+/g)) {
      if (!named.has(m[0]) || reached.has(m[0])) continue;
      reached.add(m[0]);
      reach(named.get(m[0]).type);
    }
  };
  const withSchema = [...structs.keys()].filter((id) => schemaOf(id) in schemas && !(id in SPECIAL));
  for (const id of withSchema.sort()) {
    const fields = flat(id);
    const schema = schemas[schemaOf(id)];
    const names = fields.map((f) => f.split(' ')[0]);
    const expected = Object.keys(schema.properties ?? {});
    if ([...names].sort().join() !== [...expected].sort().join())
      throw new Error(`${id}: Go fields ${names} differ from the schema's ${expected}`);
    out.structs[id] = fields;
    for (const f of fields) reach(f.split(' ')[1]);
  }
  for (const id of [...reached].sort()) out.named[id] = [named.get(id).type, named.get(id).doc];
  return out;
}

/** The go-types file: one struct or named type per line, so a Kubernetes bump diffs small. */
function goTypesText(table) {
  const lines = (o) =>
    Object.entries(o)
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join(',\n');
  const source = {
    modules: MODULES.map((m) => `${m}@${GO_VERSION}`),
    packages: PACKAGES,
    generator: `${COMMAND} --go`,
  };
  return `{\n"source":${JSON.stringify(source)},\n"structs":{\n${lines(table.structs)}\n},\n"named":{\n${lines(table.named)}\n}\n}\n`;
}

// ---------------------------------------------------------------------------------------------
// The TypeScript

const ABBREVIATIONS = /(?:^|[\s(])(?:e\.g|i\.e|etc|Ex|vs|approx)$/i;
const DOC_MAX = 200;

/** The first sentence of a description, on one line, at most DOC_MAX characters. */
export function firstSentence(description) {
  const para = description
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, ' ')
    .trim();
  let sentence = para;
  for (const m of para.matchAll(/[.!?](?=\s|$)/g)) {
    const before = para.slice(0, m.index);
    if (ABBREVIATIONS.test(before) || /^\d+$/.test(before)) continue;
    sentence = para.slice(0, m.index + 1);
    break;
  }
  if (sentence.length > DOC_MAX) sentence = `${sentence.slice(0, sentence.lastIndexOf(' ', DOC_MAX - 2))} …`;
  return sentence.replaceAll('*/', '*\\/');
}

const LINE = 120;
const quote = (s) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name));
const union = (values) => values.map((v) => (v === null ? 'null' : quote(v))).join(' | ');
const doc = (text, indent = '') => (text ? `${indent}/** ${text} */\n` : '');

/** `head type;`, with a union too long for one line broken as Biome breaks it. */
function declaration(indent, head, type) {
  const oneLine = `${indent}${head} ${type};`;
  const parts = splitUnion(type);
  if (oneLine.length <= LINE || parts.length < 2) return `${oneLine}\n`;
  return `${indent}${head}\n${parts.map((p, i) => `${indent}  | ${p}${i === parts.length - 1 ? ';' : ''}`).join('\n')}\n`;
}

/** The top-level members of a union type expression. */
function splitUnion(type) {
  const parts = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") quoted = true;
    else if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c)) depth--;
    else if (c === '|' && depth === 0) {
      parts.push(type.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(type.slice(start).trim());
  return parts;
}

/** `import type { A, B } from '…';`, broken one name a line when too long. */
function importLine(names, from) {
  const oneLine = `import type { ${names.join(', ')} } from '${from}';`;
  if (oneLine.length <= LINE) return oneLine;
  return `import type {\n${names.map((n) => `  ${n},`).join('\n')}\n} from '${from}';`;
}

/** The path of `to` relative to `from` (module ids), as an import specifier. */
function specifier(from, to) {
  const rel = relative(dirname(`/${from}`), `/${to}`);
  return `${rel.startsWith('.') ? rel : `./${rel}`}.js`;
}

/** Biome's import order: farther paths first, then by path (its natural order is ASCII here). */
function compareSpecifiers(a, b) {
  const ups = (s) => (s.startsWith('../') ? s.split('../').length - 1 : 0);
  return ups(b) - ups(a) || (a < b ? -1 : a > b ? 1 : 0);
}

const header = (what) =>
  `// Code generated by ${COMMAND} from the Kubernetes ${KUBERNETES} OpenAPI. DO NOT EDIT.\n\n/** ${what} */\n`;

/**
 * The generated files: path under ts/api/types/ → text. `openapi` is k8s-1.32.2.json, `goTypes`
 * go-types.k8s.json, both parsed.
 */
export function generate(openapi, goTypes) {
  const { schemas } = openapi;
  const { structs, named } = goTypes;
  /** Per module: name → declaration text; the imported names per source module. */
  const modules = new Map(Object.keys(PACKAGES).map((m) => [m, { decls: new Map(), imports: new Map() }]));
  const idOfSchema = new Map();
  for (const id of [...Object.keys(structs), ...Object.keys(SPECIAL)]) idOfSchema.set(schemaOf(id), id);
  for (const name of Object.keys(schemas)) {
    if (!idOfSchema.has(name)) throw new Error(`schema ${name}: no Go struct in ${GO_TYPES} (run with --go)`);
  }

  /** A reference from `module` to the type `id`, importing it when it lives elsewhere. */
  const ref = (module, id) => {
    const from = moduleOf(id);
    if (from !== module) {
      const m = modules.get(module);
      if (!m.imports.has(from)) m.imports.set(from, new Set());
      m.imports.get(from).add(nameOf(id));
    }
    return nameOf(id);
  };

  const schemaRef = (s) => s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
  /** Named non-struct types: id → the TypeScript body decided by their first use (checked against the rest). */
  const namedBodies = new Map();

  /** The TypeScript type of a property schema `s` whose Go type is `go`, seen from `module`. */
  const tsType = (module, s, go, where) => {
    const bare = go.replace(/^\*/, '');
    const r = schemaRef(s);
    if (r !== undefined) {
      const id = idOfSchema.get(r.slice(r.lastIndexOf('/') + 1));
      if (id === undefined) throw new Error(`${where}: $ref ${r} has no type`);
      if (id !== bare && !(bare in named)) throw new Error(`${where}: Go type ${go} but $ref ${r}`);
      return ref(module, id);
    }
    if (bare in named) {
      const [underlying] = named[bare];
      const body = tsType(moduleOf(bare), s, underlying, where);
      const seen = namedBodies.get(bare);
      if (seen === undefined) namedBodies.set(bare, body);
      else if (seen !== body) throw new Error(`${where}: ${bare} is ${body} here, ${seen} elsewhere`);
      return ref(module, bare);
    }
    if (s.enum) return union(s.enum);
    if (s.type === 'array') {
      if (!bare.startsWith('[]')) throw new Error(`${where}: array schema, Go type ${go}`);
      const item = tsType(module, s.items, bare.slice(2), where);
      return /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    if (s.type === 'object') {
      if (s.additionalProperties === undefined) return 'Record<string, unknown>';
      const m = /^map\[(?:[^[\]]|\[\])*\](.*)$/.exec(bare);
      if (!m) throw new Error(`${where}: map schema, Go type ${go}`);
      return `Record<string, ${tsType(module, s.additionalProperties, m[1], where)}>`;
    }
    if (s.type === 'string') return 'string';
    if (s.type === 'integer' || s.type === 'number') return 'number';
    if (s.type === 'boolean') return 'boolean';
    throw new Error(`${where}: cannot type ${JSON.stringify(s)}`);
  };

  /** True when Go writes `null` for the field's zero value (see the header). */
  const nullable = (go, omitempty) => {
    if (go === 'meta/v1.Time' || go === 'meta/v1.MicroTime') return true;
    if (omitempty) return false;
    const underlying = named[go]?.[0] ?? go;
    return /^(\*|\[\]|map\[)/.test(underlying);
  };

  for (const [schema, id] of idOfSchema) {
    const module = moduleOf(id);
    const s = schemas[schema];
    const decls = modules.get(module).decls;
    if (id in SPECIAL) {
      const [type, text] = SPECIAL[id];
      const body = type.replace(/JSONSchemaProps/g, () => ref(module, 'apiextensions/v1.JSONSchemaProps'));
      decls.set(nameOf(id), doc(text) + declaration('', `export type ${nameOf(id)} =`, body));
      continue;
    }
    const fields = structs[id];
    const title = doc(firstSentence(s.description ?? ''));
    if (fields.length === 0) {
      decls.set(nameOf(id), `${title}export type ${nameOf(id)} = Record<string, never>;\n`);
      continue;
    }
    const required = new Set(s.required ?? []);
    const lit = literals(s);
    let body = '';
    for (const f of fields) {
      const [name, go, omitempty] = f.split(' ');
      const p = s.properties[name];
      const where = `${schema}.${name}`;
      let type = lit && (name === 'kind' || name === 'apiVersion') ? quote(lit[name]) : tsType(module, p, go, where);
      const optional = !required.has(name);
      if (optional && type !== 'unknown' && nullable(go, omitempty === 'omitempty')) type += ' | null';
      body += doc(firstSentence(p.description ?? ''), '  ');
      body += declaration('  ', `${key(name)}${optional ? '?' : ''}:`, type);
    }
    decls.set(nameOf(id), `${title}export type ${nameOf(id)} = {\n${body}};\n`);
  }
  for (const [id, body] of namedBodies) {
    const [underlying, comment] = named[id];
    const go = underlying.replaceAll(`${moduleOf(id)}.`, '');
    const text = comment || `Go: \`type ${nameOf(id)} ${go}\` (no doc comment).`;
    modules.get(moduleOf(id)).decls.set(nameOf(id), doc(text) + declaration('', `export type ${nameOf(id)} =`, body));
  }

  const files = new Map();
  for (const [module, { decls, imports }] of modules) {
    const path = PACKAGES[module];
    const lines = [...imports]
      .map(([from, names]) => [specifier(module, from), [...names].sort()])
      .sort(([a], [b]) => compareSpecifiers(a, b))
      .map(([from, names]) => importLine(names, from));
    const what = `${module} (${path}, Kubernetes ${KUBERNETES}): the API types as their JSON looks on the wire.`;
    const body = [...decls.keys()].sort().map((n) => decls.get(n));
    files.set(`${module}.ts`, `${header(what)}${lines.length ? `${lines.join('\n')}\n` : ''}\n${body.join('\n')}`);
  }
  files.set('kinds.ts', kindsFile(schemas, idOfSchema));
  files.set('index.ts', indexFile());
  return files;
}

/** The kind and apiVersion of a top-level kind: a schema with one group-version-kind and a `kind` field. */
function literals(s) {
  const gvks = s['x-kubernetes-group-version-kind'];
  if (gvks?.length !== 1 || !s.properties?.kind) return undefined;
  const [{ group, version, kind }] = gvks;
  return { kind, apiVersion: group === '' ? version : `${group}/${version}` };
}

/** kinds.ts: the type-level table `apiVersion/Kind` → type of every served top-level kind. */
function kindsFile(schemas, idOfSchema) {
  const rows = [];
  const used = new Set();
  for (const [schema, id] of idOfSchema) {
    const lit = literals(schemas[schema]);
    if (lit === undefined || moduleOf(id) === 'meta/v1') continue;
    used.add(moduleOf(id));
    rows.push([`${lit.apiVersion}/${lit.kind}`, `${alias(moduleOf(id))}.${nameOf(id)}`]);
  }
  rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const imports = [...used]
    .sort()
    .map((m) => `import type * as ${alias(m)} from './${m}.js';`)
    .join('\n');
  const what =
    'Every served top-level kind by `apiVersion/Kind` (`v1/Pod`, `apps/v1/Deployment`), for lookups at the type level (object-of.ts).';
  return `${header(what)}${imports}\n\nexport type Kinds = {\n${rows.map(([k, v]) => `  ${quote(k)}: ${v};`).join('\n')}\n};\n`;
}

/** index.ts: every module as a namespace named as Go code imports it (`corev1`, `metav1`, `resource`). */
function indexFile() {
  const what =
    'The Kubernetes API types: `import type { corev1, metav1 } from …/api/types/index.js` and write `corev1.Pod`, as Go code does.';
  const lines = [
    ...Object.keys(PACKAGES).map((m) => [`./${m}.js`, `export type * as ${alias(m)} from './${m}.js';`]),
    ['./kinds.js', "export type { Kinds } from './kinds.js';"],
    [
      './object-of.js',
      "export type { ApiVersionKind, GroupVersionKind, ObjectOf, ObjectOfKind } from './object-of.js';",
    ],
    ['./readonly.js', "export type { DeepReadonly } from './readonly.js';"],
  ]
    .sort(([a], [b]) => compareSpecifiers(a, b))
    .map(([, line]) => line);
  return `${header(what)}${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The command

const HEADER_PREFIX = `// Code generated by ${COMMAND}`;

/** The files under ts/api/types/ that this script wrote (their first line says so). */
export function committedFiles(root = '.') {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && readFileSync(join(root, path), 'utf8').startsWith(HEADER_PREFIX))
        out.push(relative(OUT_DIR, path));
    }
  };
  walk(OUT_DIR);
  return out.sort();
}

async function main() {
  const openapi = JSON.parse(readFileSync(OPENAPI, 'utf8'));
  if (process.argv.includes('--go')) {
    writeFileSync(GO_TYPES, goTypesText(await readGoTypes(openapi.schemas)));
    console.log(`${GO_TYPES}: written`);
  }
  const files = generate(openapi, JSON.parse(readFileSync(GO_TYPES, 'utf8')));
  for (const stale of committedFiles()) if (!files.has(stale)) rmSync(join(OUT_DIR, stale));
  let lines = 0;
  let bytes = 0;
  for (const [path, text] of files) {
    mkdirSync(dirname(join(OUT_DIR, path)), { recursive: true });
    writeFileSync(join(OUT_DIR, path), text);
    lines += text.split('\n').length - 1;
    bytes += Buffer.byteLength(text);
  }
  console.log(`${OUT_DIR}: ${files.size} files, ${lines} lines, ${(bytes / 1024).toFixed(0)} KiB`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.chdir(join(dirname(fileURLToPath(import.meta.url)), '..'));
  await main();
}
