/**
 * The FieldsV1 encoding of a field set (structured-merge-diff fieldpath/serialize.go): a JSON trie
 * whose keys are path elements (`f:`, `k:`, `v:`, `i:`) in element order, `"."` marking a path that
 * is itself in the set when it also has children, and `{}` for a path with no children.
 */
import { FieldSet } from './field-set.js';
import { compareElements, type PathElement, parseElement } from './path.js';

export type FieldsV1 = { [key: string]: FieldsV1 };

/** The FieldsV1 object of `set`; its JSON text is what Kubernetes stores (keys in element order). */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  const out: FieldsV1 = {};
  writeInto(out, set);
  return out;
}

function writeInto(out: FieldsV1, set: FieldSet): void {
  const pes: PathElement[] = [...set.members.values()];
  for (const [k, c] of set.children) if (!set.members.has(k)) pes.push(c.pe);
  if (pes.length > 1) pes.sort(compareElements);
  for (const pe of pes) {
    const node: FieldsV1 = {};
    const child = set.children.get(pe.key)?.set;
    if (child !== undefined) {
      if (set.members.has(pe.key)) node['.'] = {};
      writeInto(node, child);
    }
    out[pe.key] = node;
  }
}

/** The error of a FieldsV1 object that does not decode (Set.FromJSON). */
export class FieldsV1Error extends Error {}

/** The field set a FieldsV1 object encodes; FieldsV1Error for a malformed one. */
export function fromFieldsV1(fields: unknown): FieldSet {
  const set = new FieldSet();
  readInto(set, fields);
  return set;
}

function readInto(set: FieldSet, fields: unknown): void {
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw new FieldsV1Error('expected an object');
  }
  for (const [key, sub] of Object.entries(fields)) {
    if (key === '.') continue;
    let pe: PathElement | undefined;
    try {
      pe = parseElement(key);
    } catch {
      pe = undefined;
    }
    if (pe === undefined) throw new FieldsV1Error(`parsing JSON: unknown path element type in ${JSON.stringify(key)}`);
    if (sub === null || typeof sub !== 'object' || Array.isArray(sub)) throw new FieldsV1Error('expected an object');
    const keys = Object.keys(sub);
    if (keys.length === 0 || keys.includes('.')) set.members.set(pe.key, pe);
    if (keys.some((k) => k !== '.')) readInto(set.child(pe), sub);
  }
}
