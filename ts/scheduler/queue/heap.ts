// A binary heap with keyed access (pkg/scheduler/backend/heap): add-or-update, delete and get by
// key in O(log n) / O(1), so a queued pod can be updated or removed in place.

export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  /** `less(a, b)`: a comes out before b. */
  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get length(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Inserts `item`, or replaces the item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.index.get(key);
    if (i === undefined) {
      this.items.push(item);
      this.index.set(key, this.items.length - 1);
      this.up(this.items.length - 1);
    } else {
      this.items[i] = item;
      this.fix(i);
    }
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top !== undefined) this.removeAt(0);
    return top;
  }

  /** Removes the item with `key`; returns it, or undefined when absent. */
  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const item = this.items[i];
    this.removeAt(i);
    return item;
  }

  /** The items in no particular order. */
  list(): T[] {
    return [...this.items];
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.index.delete(this.keyOf(this.at(i)));
    if (i !== last) {
      this.items[i] = this.at(last);
      this.index.set(this.keyOf(this.at(i)), i);
    }
    this.items.pop();
    if (i < this.items.length) this.fix(i);
  }

  private fix(i: number): void {
    if (!this.down(i)) this.up(i);
  }

  private up(i: number): void {
    let j = i;
    while (j > 0) {
      const parent = (j - 1) >> 1;
      if (!this.less(this.at(j), this.at(parent))) break;
      this.swap(j, parent);
      j = parent;
    }
  }

  /** Sifts down; returns whether the item moved. */
  private down(i: number): boolean {
    let j = i;
    const n = this.items.length;
    for (;;) {
      const l = 2 * j + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && this.less(this.at(r), this.at(l)) ? r : l;
      if (!this.less(this.at(child), this.at(j))) break;
      this.swap(j, child);
      j = child;
    }
    return j !== i;
  }

  private swap(a: number, b: number): void {
    const x = this.at(a);
    const y = this.at(b);
    this.items[a] = y;
    this.items[b] = x;
    this.index.set(this.keyOf(y), a);
    this.index.set(this.keyOf(x), b);
  }

  private at(i: number): T {
    return this.items[i] as T;
  }
}
