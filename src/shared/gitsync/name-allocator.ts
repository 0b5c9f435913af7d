import { MAX_SEGMENT_BYTES, safeFileName, utf8ByteLength } from './safe-file-name';

/**
 * Hands out unique entry names within one folder of the mirror. Entries are fed in a stable order
 * (page position), first come first served: a name depends only on the entries before it, so an
 * entry keeps its name when others are appended after it, and the same input always gives the same
 * output.
 */

/** Names the Git Sync layout itself uses in a space folder; no page may take them. */
export const LAYOUT_RESERVED_NAMES: readonly string[] = ['README.md', 'SUMMARY.md', '.gitbook'];

export interface NameAllocatorOptions {
  /** Names taken before any entry is allocated. Defaults to `LAYOUT_RESERVED_NAMES`. */
  readonly reserved?: Iterable<string>;
  /**
   * The text inserted before the extension for the n-th claimant of a name (n = 2, 3, …).
   * Defaults to `-n`; GitBook's asset style would be `(n) => \` (${n - 1})\``.
   */
  readonly suffix?: (n: number) => string;
  /** Byte budget for the stem, passed to `safeFileName`. */
  readonly maxStemBytes?: number;
}

export interface NameRequest {
  /** Untrusted: a slug, title or asset base name; it goes through `safeFileName`. */
  readonly stem: string;
  /** `.md` for page files, `''` for folders; kept after any collision suffix. */
  readonly extension?: string;
}

/** Extensions come from the layout, not the server, but are checked anyway. */
const EXTENSION = /^(?:\.[A-Za-z0-9]{1,16})?$/;

/**
 * The identity two names share when some supported file system would treat them as the same
 * file: compatibility-normalised (so NFC/NFD `é` match, as APFS does) and case-folded (as APFS and
 * NTFS do). Folding more than a given file system does only costs an unneeded suffix; folding less
 * would let one page overwrite another.
 */
export function collisionKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

export class NameAllocator {
  private readonly taken = new Set<string>();
  private readonly suffix: (n: number) => string;
  private readonly maxStemBytes: number | undefined;

  constructor(options: NameAllocatorOptions = {}) {
    this.suffix = options.suffix ?? ((n) => `-${n}`);
    this.maxStemBytes = options.maxStemBytes;
    for (const name of options.reserved ?? LAYOUT_RESERVED_NAMES) this.reserve(name);
  }

  /** Marks `name` as taken, e.g. a file the user created that the mirror must not overwrite. */
  reserve(name: string): void {
    this.taken.add(collisionKey(name));
  }

  /** Whether `name`, or a name the file system would confuse with it, is already taken. */
  isTaken(name: string): boolean {
    return this.taken.has(collisionKey(name));
  }

  /** Claims the desired name, or the first free suffixed variant, for the next entry. */
  allocate(request: NameRequest): string {
    const extension = request.extension ?? '';
    if (!EXTENSION.test(extension)) {
      throw new TypeError(`Invalid extension ${JSON.stringify(extension)}`);
    }
    const stem = safeFileName(
      request.stem,
      this.maxStemBytes === undefined ? {} : { maxBytes: this.maxStemBytes },
    );
    // Each suffix number yields a different name, so this ends within taken.size + 1 attempts.
    for (let n = 1; n <= this.taken.size + 1; n += 1) {
      const candidate = n === 1 ? stem + extension : stem + this.suffix(n) + extension;
      assertSafeCandidate(candidate);
      const key = collisionKey(candidate);
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return candidate;
      }
    }
    throw new Error(`Suffix function produced no free name for ${JSON.stringify(stem)}`);
  }
}

/** Allocates names for one folder's entries, in the order given. */
export function allocateNames(
  requests: readonly NameRequest[],
  options: NameAllocatorOptions = {},
): string[] {
  const allocator = new NameAllocator(options);
  return requests.map((request) => allocator.allocate(request));
}

/** A custom suffix or extension must not reintroduce what `safeFileName` removed. */
function assertSafeCandidate(candidate: string): void {
  if (
    utf8ByteLength(candidate) > MAX_SEGMENT_BYTES ||
    safeFileName(candidate, { maxBytes: MAX_SEGMENT_BYTES }) !== candidate
  ) {
    throw new TypeError(`Allocated name ${JSON.stringify(candidate)} is not a safe file name`);
  }
}
