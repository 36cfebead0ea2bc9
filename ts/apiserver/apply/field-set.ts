/**
 * A set of field paths as a trie (structured-merge-diff fieldpath/set.go): `members` are the paths
 * that end at this node, `children` the subtrees below an element. Elements are identified by their
 * FieldsV1 key (path.ts), so maps keyed by it keep each element once.
 */
import { compareElements, type Path, type PathElement } from './path.js';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, Child>();

  /** A set of the given paths. */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** No paths. Children are never kept empty, so this looks at one level. */
  empty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  /** Adds `path` (the empty path adds nothing: the root is never a member). */
  insert(path: Path, from = 0): void {
    if (path.length === from) return;
    let node: FieldSet = this;
    for (let i = from; i < path.length - 1; i++) node = node.child(path[i] as PathElement);
    const last = path[path.length - 1] as PathElement;
    node.members.set(last.key, last);
  }

  /**
   * Removes, in place, every path that is in `other` or below one of its members (what
   * recursiveDifference leaves, without copying a set that is about to be dropped).
   */
  removeRecursive(other: FieldSet): void {
    for (const k of other.members.keys()) {
      this.members.delete(k);
      this.children.delete(k);
    }
    for (const [k, o] of other.children) {
      const c = this.children.get(k);
      if (c === undefined) continue;
      c.set.removeRecursive(o.set);
      if (c.set.empty()) this.children.delete(k);
    }
  }

  /** Removes, in place, the paths of `other` (difference: a member removes only itself). */
  removeAll(other: FieldSet): void {
    for (const k of other.members.keys()) this.members.delete(k);
    for (const [k, o] of other.children) {
      const c = this.children.get(k);
      if (c === undefined) continue;
      c.set.removeAll(o.set);
      if (c.set.empty()) this.children.delete(k);
    }
  }

  /** The subtree below `pe`, created when missing (the caller puts a path in it). */
  child(pe: PathElement): FieldSet {
    let c = this.children.get(pe.key);
    if (c === undefined) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.key, c);
    }
    return c.set;
  }

  has(path: Path): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      node = node.children.get((path[i] as PathElement).key)?.set;
      if (node === undefined) return false;
    }
    const last = path[path.length - 1];
    return last !== undefined && node.members.has(last.key);
  }

  /** The subtree below `pe` (WithPrefix for one element), or undefined. */
  withPrefix(pe: PathElement): FieldSet | undefined {
    return this.children.get(pe.key)?.set;
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, pe] of other.members) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      out.children.set(k, { pe: c.pe, set: o === undefined ? c.set.clone() : c.set.union(o.set) });
    }
    for (const [k, c] of other.children)
      if (!this.children.has(k)) out.children.set(k, { pe: c.pe, set: c.set.clone() });
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (o === undefined) continue;
      const i = c.set.intersection(o.set);
      if (!i.empty()) out.children.set(k, { pe: c.pe, set: i });
    }
    return out;
  }

  /** Paths of this set not in `other` (members compared level by level, not as prefixes). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      const d = o === undefined ? c.set.clone() : c.set.difference(o.set);
      if (!d.empty()) out.children.set(k, { pe: c.pe, set: d });
    }
    return out;
  }

  /** Paths of this set neither in `other` nor below one of its members. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (other.members.has(k)) continue;
      const o = other.children.get(k);
      const d = o === undefined ? c.set.clone() : c.set.recursiveDifference(o.set);
      if (!d.empty()) out.children.set(k, { pe: c.pe, set: d });
    }
    return out;
  }

  clone(): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, c] of this.children) out.children.set(k, { pe: c.pe, set: c.set.clone() });
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).empty() && other.difference(this).empty();
  }

  /** Every path, members of a node before its children, each level in element order (Set.Iterate). */
  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    for (const pe of sortedElements(this.members.values())) out.push([...prefix, pe]);
    const kids = [...this.children.values()].sort((a, b) => compareElements(a.pe, b.pe));
    for (const c of kids) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }
}

function sortedElements(pes: Iterable<PathElement>): PathElement[] {
  return [...pes].sort(compareElements);
}
