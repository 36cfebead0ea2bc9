/**
 * The TypeScript reference store the wasm store is measured against: the straightforward way to
 * write an MVCC map in TypeScript — a Map from key to its list of versions, keys sorted lazily
 * for ranges, watchers as arrays of pending events.
 */
interface Version {
  revision: number;
  createRevision: number;
  version: number;
  value: Uint8Array;
}

export interface MapEvent {
  key: string;
  revision: number;
  value: Uint8Array;
}

interface Watcher {
  prefix: string;
  pending: MapEvent[];
}

export class MapStore {
  private revision = 1;
  private readonly keys = new Map<string, Version[]>();
  private sorted: string[] | undefined;
  private readonly watchers: Watcher[] = [];

  get currentRevision(): number {
    return this.revision;
  }

  put(key: string, value: Uint8Array): number {
    const revision = ++this.revision;
    let history = this.keys.get(key);
    if (!history) {
      history = [];
      this.keys.set(key, history);
      this.sorted = undefined;
    }
    const last = history[history.length - 1];
    const stored = value.slice();
    history.push({
      revision,
      createRevision: last ? last.createRevision : revision,
      version: last ? last.version + 1 : 1,
      value: stored,
    });
    for (const w of this.watchers) {
      if (key.startsWith(w.prefix)) w.pending.push({ key, revision, value: stored });
    }
    return revision;
  }

  /** Puts only if the key's last change is at `expected` (0 = absent); 0 when the compare fails. */
  putIfModRevision(key: string, value: Uint8Array, expected: number): number {
    const history = this.keys.get(key);
    const current = history?.[history.length - 1]?.revision ?? 0;
    return current === expected ? this.put(key, value) : 0;
  }

  /** The value of `key` at `revision` (latest when omitted). */
  get(key: string, revision = this.revision): Uint8Array | undefined {
    return this.at(this.keys.get(key) ?? [], revision)?.value;
  }

  /** Keys in [start, end) with their values at `revision`. */
  range(start: string, end: string, revision = this.revision): Array<{ key: string; value: Uint8Array }> {
    this.sorted ??= [...this.keys.keys()].sort();
    const out: Array<{ key: string; value: Uint8Array }> = [];
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.sorted[mid] as string) < start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length; i++) {
      const key = this.sorted[i] as string;
      if (key >= end) break;
      const v = this.at(this.keys.get(key) ?? [], revision);
      if (v) out.push({ key, value: v.value });
    }
    return out;
  }

  watch(prefix: string): MapEvent[] {
    const watcher = { prefix, pending: [] as MapEvent[] };
    this.watchers.push(watcher);
    return watcher.pending;
  }

  /** Takes every watcher's pending events; returns how many were delivered. */
  drainWatches(): number {
    let delivered = 0;
    for (const w of this.watchers) {
      delivered += w.pending.length;
      w.pending.length = 0;
    }
    return delivered;
  }

  private at(history: Version[], revision: number): Version | undefined {
    for (let i = history.length - 1; i >= 0; i--) {
      const v = history[i] as Version;
      if (v.revision <= revision) return v;
    }
    return undefined;
  }
}
