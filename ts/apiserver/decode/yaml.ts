/**
 * `application/yaml` request bodies turned into JSON text as sigs.k8s.io/yaml YAMLToJSON does (the
 * first document, YAML 1.1 scalars as go-yaml v2 reads them), with kube-apiserver's decode errors.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments } from 'yaml';
import { decodeError } from './codec.js';
import { MAX_NESTING_DEPTH } from './go-json.js';

/** The YAML media type kube-apiserver accepts for create and update bodies. */
export const YAML_TYPE = 'application/yaml';

/** Nesting of flow collections, block indentation and `- ` sequences, counted before the YAML parser runs. */
function yamlDepth(text: string): number {
  let max = 0;
  let flow = 0;
  const indents: number[] = [];
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const rest = line.slice(indent);
    if (rest === '' || rest.startsWith('#')) continue;
    while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
    indents.push(indent);
    const dashes = /^(?:-\s+)*/.exec(rest)?.[0].replaceAll(/\s/g, '').length ?? 0;
    let quote = '';
    for (const c of rest) {
      if (quote !== '') {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '#') break;
      else if (c === '[' || c === '{') max = Math.max(max, indents.length + dashes + ++flow);
      else if ((c === ']' || c === '}') && flow > 0) flow--;
    }
    max = Math.max(max, indents.length + dashes + flow);
  }
  return max;
}

/**
 * A YAML body as JSON text (sigs.k8s.io/yaml YAMLToJSON: the first document, YAML 1.1 scalars as
 * go-yaml v2 reads them, keys as strings). Malformed YAML is 400 the way a create reports it:
 * `the object provided is unrecognized (must be of type ConfigMap): yaml: line 2: … (<hex>)`.
 */
export function yamlToJson(text: string, kind?: string): string {
  // The parser recurses per level; deep input is refused before it can exhaust the stack.
  if (yamlDepth(text) > MAX_NESTING_DEPTH) {
    throw decodeError(`yaml: exceeded max depth of ${MAX_NESTING_DEPTH}`, text, kind);
  }
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, {
    lineCounter,
    version: '1.1',
    uniqueKeys: false,
    merge: true,
    prettyErrors: false,
    // go-yaml v2 keeps timestamps and sexagesimal numbers as strings when decoding into interface{}.
    customTags: (tags) =>
      tags.filter((t) => typeof t === 'string' || (t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME')),
  });
  // YAMLToJSON reads the first document only.
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return 'null';
  const err = doc.errors[0];
  if (err !== undefined) {
    const line = lineCounter.linePos(err.pos[0]).line;
    const message = err.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? err.message;
    throw decodeError(`yaml: line ${line}: ${message}`, text, kind);
  }
  try {
    return yamlNodeToJson(doc.contents, doc, { aliases: 0 });
  } catch (e) {
    throw decodeError(`yaml: ${(e as Error).message}`, text, kind);
  }
}

/** Aliases expanded per document at most; go-yaml v2 refuses "excessive aliasing" too. */
const MAX_YAML_ALIASES = 100;

/**
 * JSON text for a YAML node. Repeated keys are written out as repeated JSON keys, so the field
 * validation that reads the request text reports them (JSON.parse keeps the last, as go-yaml v2).
 * A mapping with a merge key (`<<`) is written from the library's merged value.
 */
function yamlNodeToJson(node: unknown, doc: Document, budget: { aliases: number }): string {
  if (node === null || node === undefined) return 'null';
  if (isAlias(node)) {
    if (++budget.aliases > MAX_YAML_ALIASES) throw new Error('document contains excessive aliasing');
    return yamlNodeToJson(node.resolve(doc), doc, budget);
  }
  if (isScalar(node)) {
    const v = node.value;
    if (v instanceof Uint8Array) return JSON.stringify(new TextDecoder().decode(v));
    return JSON.stringify(v ?? null) ?? 'null';
  }
  if (isSeq(node)) return `[${node.items.map((item) => yamlNodeToJson(item, doc, budget)).join(',')}]`;
  if (isMap(node)) {
    if (node.items.some((pair) => isScalar(pair.key) && pair.key.value === '<<')) {
      return JSON.stringify(node.toJS(doc, { maxAliasCount: MAX_YAML_ALIASES }));
    }
    const fields = node.items.map((pair) => {
      const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      // sigs.k8s.io/yaml: string, number and bool keys become strings; anything else is refused.
      if (!isScalar(key) || key.value === null || typeof key.value === 'object') {
        throw new Error(`Unsupported map key: ${String(key)}`);
      }
      return `${JSON.stringify(String(key.value))}:${yamlNodeToJson(pair.value, doc, budget)}`;
    });
    return `{${fields.join(',')}}`;
  }
  throw new Error(`unsupported YAML node ${String(node)}`);
}
