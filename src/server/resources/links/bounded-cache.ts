/**
 * A least-recently-used map with a fixed number of entries: results computed from immutable
 * revisions and bodies can be kept, but never without bound.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => V): V {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const value = compute();
    this.set(key, value);
    return value;
  }

  /** The entry of `key`, made the most recently used, or undefined. */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Re-insert so the entry becomes the most recently used (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
