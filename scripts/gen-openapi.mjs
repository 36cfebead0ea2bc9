// Regenerates ts/apiserver/openapi/k8s-1.32.2.json from the OpenAPI v3 documents Kubernetes
// commits (api/openapi-spec/v3/*_openapi.json in k8s.io/kubernetes v1.32.2):
//
//   node scripts/gen-openapi.mjs
//
// The module zip (17 MB) comes from the Go module proxy and is cached in build/openapi/. The
// output holds, for the group versions below:
//   schemas     every component schema, deduplicated across group versions (they are identical
//               wherever several documents carry one), sorted by name, descriptions kept
//               (kubectl explain prints them)
//   parameters, responses, requestBodies
//               the operation parts the documents repeat, each stored once
//   paths       per index key (`api/v1`, `apis/apps/v1`): the documents' paths, with parameters,
//               responses and request bodies replaced by their index in those tables
// ts/apiserver/openapi/ builds the served documents from it. The output is deterministic: the same
// input gives the same bytes.
//
// goTypes: schema → property → the Go type reflect prints (`v1.RestartPolicy`, `[]v1.Capability`,
// `types.UID`) for fields whose type is a named non-struct type, which the schemas cannot tell
// (kube-apiserver's decoding errors name it: `… of type v1.RestartPolicy`). Read from the Go
// sources of k8s.io/api and k8s.io/apimachinery v0.32.2 (module zips cached beside the other).
//
// Enums: hack/update-openapi-spec.sh writes the committed documents with OpenAPIEnums=false, but
// the gate is on by default in 1.32, so a real kube-apiserver also serves `enum` and descriptions
// ending in "Possible enum values: …" (kubectl explain prints both). Those come from the generated
// definitions, pkg/generated/openapi/zz_generated.openapi.go in the same module, and are put back.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { moduleZip, unzip } from './go-module-zip.mjs';

const VERSION = 'v1.32.2';
const OUT = 'ts/apiserver/openapi/k8s-1.32.2.json';
const SPEC_DIR = `k8s.io/kubernetes@${VERSION}/api/openapi-spec/v3/`;

/** The group versions kept, as index keys (`api/v1`, `apis/<group>/<version>`). */
const GROUP_VERSIONS = [
  'api/v1',
  'apis/apps/v1',
  'apis/batch/v1',
  'apis/autoscaling/v1',
  'apis/autoscaling/v2',
  'apis/coordination.k8s.io/v1',
  'apis/discovery.k8s.io/v1',
  'apis/policy/v1',
  'apis/scheduling.k8s.io/v1',
  'apis/storage.k8s.io/v1',
  'apis/rbac.authorization.k8s.io/v1',
  'apis/apiextensions.k8s.io/v1',
  'apis/authentication.k8s.io/v1',
  'apis/authorization.k8s.io/v1',
];

/** Stable JSON: object keys sorted, so the output does not depend on the source's key order. */
function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = sorted(v[k]);
  return out;
}

/** A table of distinct JSON values; `add` gives a value's index. */
function table() {
  const index = new Map();
  const values = [];
  return {
    values,
    add(v) {
      const s = JSON.stringify(sorted(v));
      let i = index.get(s);
      if (i === undefined) {
        i = values.length;
        index.set(s, i);
        values.push(sorted(v));
      }
      return i;
    },
  };
}

/** Go type path (`k8s.io/api/apps/v1.DeploymentStrategy`) → schema name (`io.k8s.api.apps.v1.DeploymentStrategy`). */
function schemaName(goPath) {
  const [domain, ...rest] = goPath.split('/');
  return [...domain.split('.').reverse(), ...rest].join('.');
}

/**
 * The enums of zz_generated.openapi.go: schema name → property → {values, description?, items}.
 * The generated code is regular: each definition is a function named in the map at the top, a
 * property opens with a `"name": {` line, and its SchemaProps (or its Items' SchemaProps) hold
 * `Description:` and `Enum:` lines at one indentation.
 */
function generatedEnums(source) {
  const fnToName = new Map();
  for (const m of source.matchAll(/^\t\t"([^"]+)":\s+(schema_\w+)\(ref\),$/gm)) fnToName.set(m[2], schemaName(m[1]));
  const lines = source.split('\n');
  const indent = (l) => l.length - l.replace(/^\t+/, '').length;
  const out = new Map();
  let current;
  for (let i = 0; i < lines.length; i++) {
    const fn = /^func (schema_\w+)\(/.exec(lines[i]);
    if (fn) current = fnToName.get(fn[1]);
    const en = /^(\t+)Enum:\s+\[\]interface\{\}\{(.*)\},$/.exec(lines[i]);
    if (!en || current === undefined) continue;
    const depth = en[1].length;
    const values = [...en[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`));
    let description;
    let items = false;
    let property;
    for (let j = i - 1; j > 0; j--) {
      const d = indent(lines[j]);
      if (d === depth) {
        const m = /^\t+Description:\s+(".*"),$/.exec(lines[j]);
        if (m && description === undefined) description = JSON.parse(m[1]);
      } else if (d < depth) {
        if (lines[j].includes('Items: &spec.SchemaOrArray{')) items = true;
        const p = /^\t+"([^"]+)": \{$/.exec(lines[j]);
        if (p) {
          property = p[1];
          break;
        }
      }
    }
    if (property === undefined) throw new Error(`zz_generated.openapi.go:${i + 1}: no property for the enum`);
    if (!out.has(current)) out.set(current, new Map());
    out.get(current).set(property, { values, description, items });
  }
  return out;
}

/** Puts the enums back into the committed schemas (checking each description extends the committed one). */
function addEnums(schemas, enums) {
  let n = 0;
  for (const [name, props] of enums) {
    const schema = schemas.get(name);
    if (schema === undefined) continue; // a group version not kept here
    const parsed = JSON.parse(schema);
    for (const [prop, e] of props) {
      const target = parsed.properties?.[prop];
      if (target === undefined) throw new Error(`${name}.${prop}: not in the committed schema`);
      if (e.items) {
        target.items.enum = e.values;
      } else {
        target.enum = e.values;
        if (e.description !== undefined) {
          if (!e.description.startsWith(target.description ?? ''))
            throw new Error(`${name}.${prop}: description differs`);
          target.description = e.description;
        }
      }
      n++;
    }
    schemas.set(name, JSON.stringify(sorted(parsed)));
  }
  return n;
}

const GO_BUILTINS = new Map([
  ['string', 'string'],
  ['bool', 'bool'],
  ['int', 'int'],
  ['int32', 'int32'],
  ['int64', 'int64'],
  ['float64', 'float64'],
  ['byte', 'uint8'],
  ['uint8', 'uint8'],
]);

/**
 * The goTypes table. `packages` maps an import path to its Go files; named types are collected
 * from all of them, struct fields from the ones holding the API structs.
 */
function goTypeTable(packages, schemas) {
  const lastSegment = (path) => path.split('/').pop();
  const named = new Map(); // import path → type name → 'struct' | 'other'
  for (const [path, texts] of packages) {
    const kinds = new Map();
    for (const text of texts) {
      for (const m of text.matchAll(/^type (\w+) (\S+)/gm)) kinds.set(m[1], m[2] === 'struct' ? 'struct' : 'other');
    }
    named.set(path, kinds);
  }
  const table = {};
  for (const [path, texts] of packages) {
    for (const text of texts) {
      const imports = new Map();
      const block = /^import \(([^)]*)\)/m.exec(text)?.[1] ?? /^import ((?:\w+ )?"[^"]+")/m.exec(text)?.[1] ?? '';
      for (const m of block.matchAll(/(?:(\w+)\s+)?"([^"]+)"/g)) imports.set(m[1] ?? lastSegment(m[2]), m[2]);
      // One type expression, qualified as reflect.Type.String() prints it; `named` when a named non-struct type occurs.
      const qualify = (expr) => {
        let isNamed = false;
        const text = expr.replace(/(?:(\w+)\.)?(\w+)/g, (all, pkg, name) => {
          if (pkg === undefined && all === 'map') return all;
          if (pkg === undefined && GO_BUILTINS.has(name)) return GO_BUILTINS.get(name);
          const from = pkg === undefined ? path : imports.get(pkg);
          if (from === undefined) throw new Error(`${path}: unknown package ${pkg}`);
          if (named.get(from)?.get(name) === 'other') isNamed = true;
          return `${lastSegment(from)}.${name}`;
        });
        return { text, isNamed };
      };
      for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
        const schema = schemaName(`${path}.${m[1]}`);
        if (!schemas.has(schema)) continue;
        for (const f of m[2].matchAll(/^\t\w+\s+([^\s`]+)\s+`json:"([^",]*)/gm)) {
          if (f[2] === '' || f[2] === '-') continue;
          const { text: type, isNamed } = qualify(f[1]);
          if (!isNamed) continue;
          table[schema] ??= {};
          table[schema][f[2]] = type.replace(/^\*+/, '');
        }
      }
    }
  }
  return sorted(table);
}

/** The Go files (tests left out) of `dirs` in a module zip: import path → texts. */
function goPackages(zip, moduleAtVersion, module, dirs) {
  const out = new Map();
  for (const dir of dirs) {
    const files = unzip(zip, `${moduleAtVersion}/${dir}/`);
    const texts = [...files]
      .filter(([name]) => !name.includes('/') && name.endsWith('.go') && !name.endsWith('_test.go'))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, text]) => text);
    out.set(`${module}/${dir}`, texts);
  }
  return out;
}

const zip = await moduleZip('k8s.io/kubernetes', VERSION);
const files = unzip(zip, SPEC_DIR);
const generated = unzip(zip, `k8s.io/kubernetes@${VERSION}/pkg/generated/openapi/`).get('zz_generated.openapi.go');
if (generated === undefined) throw new Error('pkg/generated/openapi/zz_generated.openapi.go is missing');
const schemas = new Map();
const parameters = table();
const responses = table();
const requestBodies = table();
const paths = {};
for (const key of GROUP_VERSIONS) {
  const file = `${key.replaceAll('/', '__')}_openapi.json`;
  const text = files.get(file);
  if (text === undefined) throw new Error(`${SPEC_DIR}${file} is missing`);
  const doc = JSON.parse(text);
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    const s = JSON.stringify(sorted(schema));
    const seen = schemas.get(name);
    if (seen !== undefined && seen !== s) throw new Error(`schema ${name} differs between group versions`);
    schemas.set(name, s);
  }
  const gvPaths = {};
  for (const path of Object.keys(doc.paths).sort()) {
    const item = {};
    for (const [method, op] of Object.entries(doc.paths[path])) {
      if (method === 'parameters') {
        item.parameters = op.map((x) => parameters.add(x));
        continue;
      }
      const o = { ...op };
      if (o.parameters) o.parameters = o.parameters.map((x) => parameters.add(x));
      if (o.requestBody) o.requestBody = requestBodies.add(o.requestBody);
      if (o.responses) {
        const r = {};
        for (const [code, resp] of Object.entries(o.responses)) r[code] = responses.add(resp);
        o.responses = r;
      }
      item[method] = o;
    }
    gvPaths[path] = sorted(item);
  }
  paths[key] = gvPaths;
}

const enumCount = addEnums(schemas, generatedEnums(generated));

const apiDirs = GROUP_VERSIONS.filter((k) => k !== 'apis/apiextensions.k8s.io/v1').map((k) =>
  k === 'api/v1'
    ? 'core/v1'
    : k
        .slice('apis/'.length)
        .replace(/\.k8s\.io\//, '/')
        .replace(/\.authorization/, ''),
);
const goTypes = goTypeTable(
  new Map([
    ...goPackages(await moduleZip('k8s.io/api', 'v0.32.2'), 'k8s.io/api@v0.32.2', 'k8s.io/api', apiDirs),
    ...goPackages(
      await moduleZip('k8s.io/apimachinery', 'v0.32.2'),
      'k8s.io/apimachinery@v0.32.2',
      'k8s.io/apimachinery',
      ['pkg/apis/meta/v1', 'pkg/types', 'pkg/util/intstr', 'pkg/api/resource', 'pkg/runtime'],
    ),
  ]),
  schemas,
);

// One entry per line: small diffs when Kubernetes changes a schema.
const lines = (entries) => entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',\n');
const list = (values) => values.map((v) => JSON.stringify(v)).join(',\n');
const names = [...schemas.keys()].sort();
const sha = createHash('sha256').update(zip).digest('hex');
const out = [
  '{',
  `"source":${JSON.stringify({ module: `k8s.io/kubernetes@${VERSION}`, zipSha256: sha, dir: 'api/openapi-spec/v3', generator: 'scripts/gen-openapi.mjs' })},`,
  `"schemas":{\n${names.map((n) => `${JSON.stringify(n)}:${schemas.get(n)}`).join(',\n')}\n},`,
  `"parameters":[\n${list(parameters.values)}\n],`,
  `"responses":[\n${list(responses.values)}\n],`,
  `"requestBodies":[\n${list(requestBodies.values)}\n],`,
  `"goTypes":{\n${lines(Object.entries(goTypes))}\n},`,
  `"paths":{\n${Object.entries(paths)
    .map(([k, v]) => `${JSON.stringify(k)}:{\n${lines(Object.entries(v))}\n}`)
    .join(',\n')}\n}`,
  '}',
  '',
].join('\n');
mkdirSync('ts/apiserver/openapi', { recursive: true });
writeFileSync(OUT, out);
console.log(
  `${OUT}: ${names.length} schemas, ${enumCount} enums, ${Object.keys(goTypes).length} structs with named field types, ${(out.length / 1024).toFixed(0)} KiB`,
);
