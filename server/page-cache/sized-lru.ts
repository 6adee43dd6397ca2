/**
 * Values by key, bounded by their number and their total size: past either limit the least
 * recently used go first. The page cache and the personal shells keep their pages in one.
 */
export class SizedLru<V> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number },
    private readonly sizeOf: (value: V) => number,
  ) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value at `key`, now the most recently used. */
  use(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Most recently used last, so the first key is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.remove(key);
    this.entries.set(key, value);
    this.bytes += this.sizeOf(value);
    while (this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes) this.remove(this.entries.keys().next().value!);
  }

  /** Drops the values whose key `picks` chooses. */
  drop(picks: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (picks(key)) this.remove(key);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  kept(): IterableIterator<[string, V]> {
    return this.entries.entries();
  }

  private remove(key: string) {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.bytes -= this.sizeOf(value);
    this.entries.delete(key);
  }
}
