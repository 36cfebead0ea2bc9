/**
 * The TypeScript reference store the wasm store is measured against: the straightforward way to
 * write an MVCC map in TypeScript (a Map from key to its list of revisions).
 */
interface Version {
  revision: number;
  createRevision: number;
  version: number;
  value: Uint8Array;
}

export class MapStore {
  private revision = 1;
  private readonly keys = new Map<string, Version[]>();

  put(key: string, value: Uint8Array): number {
    const revision = ++this.revision;
    let history = this.keys.get(key);
    if (!history) {
      history = [];
      this.keys.set(key, history);
    }
    const last = history[history.length - 1];
    history.push({
      revision,
      createRevision: last ? last.createRevision : revision,
      version: last ? last.version + 1 : 1,
      value: value.slice(),
    });
    return revision;
  }

  /** The value of `key` at `revision` (latest when omitted). */
  get(key: string, revision = this.revision): Uint8Array | undefined {
    const history = this.keys.get(key) ?? [];
    for (let i = history.length - 1; i >= 0; i--) {
      const v = history[i] as Version;
      if (v.revision <= revision) return v.value;
    }
    return undefined;
  }
}
