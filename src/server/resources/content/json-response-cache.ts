declare const jsonBytesBrand: unique symbol;

/** A response body already serialised to UTF-8 JSON; Fastify sends Buffers as they are. */
export type JsonBytes = Buffer & { readonly [jsonBytesBrand]: true };

/** Set on replies of JsonBytes: Fastify would call a Buffer application/octet-stream. */
export const JSON_TYPE = 'application/json; charset=utf-8';

export function toJsonBytes(value: unknown): JsonBytes {
  return Buffer.from(JSON.stringify(value), 'utf8') as JsonBytes;
}

/** 64 MiB: a few whole-space reads of large spaces. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Serialised content responses, least recently used first out, bounded by total bytes.
 *
 * Revisions are immutable, so a response built from one revision never goes stale as long as
 * the key names everything else it depends on (format, the URLs it embeds). A whole-space read
 * with Markdown is megabytes of JSON whose string escaping and UTF-8 encoding cost more than
 * reading the bodies from SQLite; serving repeated reads from here skips both.
 */
export class JsonResponseCache {
  private readonly entries = new Map<string, JsonBytes>();
  private size = 0;

  constructor(
    private readonly maxBytes = DEFAULT_CACHE_BYTES,
    /** Larger responses are built every time rather than evicting everything else. */
    private readonly maxEntryBytes = Math.floor(maxBytes / 4),
  ) {}

  get bytes(): number {
    return this.size;
  }

  /** The cached bytes of `key`, or the serialised result of `build()` (cached when it fits). */
  get(key: string, build: () => unknown): JsonBytes {
    return this.getBytes(key, () => toJsonBytes(build()));
  }

  /** Like `get`, for a `build` that serialises by itself. */
  getBytes(key: string, build: () => JsonBytes): JsonBytes {
    return this.peek(key) ?? this.store(key, build());
  }

  /** Like `getBytes`, for a `build` that waits (for worker threads, say). */
  async getBytesAsync(key: string, build: () => Promise<JsonBytes>): Promise<JsonBytes> {
    return this.peek(key) ?? this.store(key, await build());
  }

  private peek(key: string): JsonBytes | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  private store(key: string, bytes: JsonBytes): JsonBytes {
    // Two requests may build the same key at once; the first one stored is kept.
    const stored = this.entries.get(key);
    if (stored) return stored;
    if (bytes.length <= this.maxEntryBytes) {
      this.entries.set(key, bytes);
      this.size += bytes.length;
      for (const [oldest, value] of this.entries) {
        if (this.size <= this.maxBytes) break;
        this.entries.delete(oldest);
        this.size -= value.length;
      }
    }
    return bytes;
  }
}
