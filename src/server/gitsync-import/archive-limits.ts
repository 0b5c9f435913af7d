/** What an uploaded Git Sync archive may hold; beyond any of these it is refused with a 400. */
export interface ArchiveLimits {
  /** Bytes of the archive as uploaded (compressed, for a zip). */
  maxArchiveBytes: number;
  /** Bytes of all entries once extracted. */
  maxTotalBytes: number;
  /** Bytes of one file (an asset; the server's file limit for imports). */
  maxFileBytes: number;
  /** Bytes of one Markdown or YAML file (a page holds at most 2,000,000 characters). */
  maxTextBytes: number;
  maxEntries: number;
  /** A zip entry over `ratioFloorBytes` may expand at most this many times its compressed size. */
  maxRatio: number;
  ratioFloorBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 2048 * MiB,
  maxTotalBytes: 2048 * MiB,
  maxFileBytes: 100 * MiB,
  maxTextBytes: 8 * MiB,
  maxEntries: 50_000,
  maxRatio: 100,
  ratioFloorBytes: MiB,
};

/** An archive entry the import refuses; the 400 names it. */
export class ArchiveEntryError extends Error {
  constructor(
    readonly entry: string,
    readonly reason: string,
  ) {
    super(`archive entry "${entry}" ${reason}`);
    this.name = 'ArchiveEntryError';
  }
}
