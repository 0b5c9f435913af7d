import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveEntryError, type ArchiveLimits } from './archive-limits';
import { checkEntryPath, pathFoldKey } from './check-entry-path';

/** An asset spooled to the import's temporary folder. */
export interface SpooledFile {
  file: string;
  size: number;
}

/** What an archive held that the import reads: text files in memory, assets on disk. */
export interface CollectedArchive {
  /** Markdown and `.gitbook.yaml` files, by path, as bytes (decoded by the planner). */
  texts: Map<string, Uint8Array>;
  /** Files under a `.gitbook/assets/` folder, by path. */
  assets: Map<string, SpooledFile>;
}

const TEXT_FILE = /(?:\.md|(?:^|\/)\.gitbook\.ya?ml)$/i;
const ASSET_FILE = /(?:^|\/)\.gitbook\/assets\/[^/]+$/;

/**
 * Receives an archive's entries one at a time (tar or zip alike), checking each before anything
 * is kept: its path (checkEntryPath), its type (files and folders only: links and devices are
 * refused), names that clash ignoring case, and the size limits as the bytes stream in. Assets go
 * to a temporary folder so memory holds one chunk of them at a time; `dispose` removes it.
 */
export class ArchiveCollector {
  readonly texts = new Map<string, Uint8Array>();
  readonly assets = new Map<string, SpooledFile>();
  private readonly seen = new Map<string, { spelling: string; folder: boolean }>();
  private entries = 0;
  private total = 0;
  private folder: string | undefined;

  constructor(private readonly limits: ArchiveLimits) {}

  /** Checks an entry's name and type; the clean path, or undefined for a folder. */
  accept(name: string, type: string): string | undefined {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) {
      throw new ArchiveEntryError(name, `is past the limit of ${this.limits.maxEntries} entries`);
    }
    const path = checkEntryPath(name);
    if (type === 'directory') {
      this.register(name, path, true);
      return undefined;
    }
    if (type !== 'file') {
      throw new ArchiveEntryError(name, `is a ${type}: only files and folders can be imported`);
    }
    this.register(name, path, false);
    return path;
  }

  /** Reads one file entry's bytes (after `accept`), keeping it when the import needs it. */
  async read(name: string, path: string, stream: AsyncIterable<unknown>): Promise<void> {
    // An upload is an asset whatever its name (`.gitbook/assets/notes.md` too).
    const asset = ASSET_FILE.test(path);
    const text = !asset && TEXT_FILE.test(path);
    const limit = text ? this.limits.maxTextBytes : this.limits.maxFileBytes;
    let size = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        size += chunk.length;
        this.total += chunk.length;
        if (size > limit) {
          done(new ArchiveEntryError(name, `is larger than ${limit} bytes`));
        } else if (this.total > this.limits.maxTotalBytes) {
          done(
            new ArchiveEntryError(
              name,
              `takes the archive past ${this.limits.maxTotalBytes} bytes extracted`,
            ),
          );
        } else done(null, chunk);
      },
    });
    if (text) {
      const chunks: Buffer[] = [];
      await pipeline(stream, counter, async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) chunks.push(chunk);
      });
      this.texts.set(path, Buffer.concat(chunks));
    } else if (asset) {
      const file = join(await this.tempFolder(), `${this.assets.size}`);
      await pipeline(stream, counter, createWriteStream(file));
      this.assets.set(path, { file, size });
    } else {
      // Not part of a Git Sync layout: read (to reach the next entry) and counted, not kept.
      await pipeline(stream, counter, async (source: AsyncIterable<Buffer>) => {
        for await (const _chunk of source);
      });
    }
  }

  /** The temporary folder holding the spooled assets, if any was made. */
  get spoolFolder(): string | undefined {
    return this.folder;
  }

  async dispose(): Promise<void> {
    if (this.folder !== undefined) await rm(this.folder, { recursive: true, force: true });
  }

  private async tempFolder(): Promise<string> {
    this.folder ??= await mkdtemp(join(tmpdir(), 'quire-import-'));
    return this.folder;
  }

  /** Refuses a path (or a folder above it) that another entry spells differently or repeats. */
  private register(name: string, path: string, folder: boolean): void {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i += 1) {
      const prefix = segments.slice(0, i).join('/');
      const isFolder = i < segments.length || folder;
      const key = pathFoldKey(prefix);
      const existing = this.seen.get(key);
      if (existing === undefined) {
        this.seen.set(key, { spelling: prefix, folder: isFolder });
        continue;
      }
      if (existing.spelling !== prefix) {
        throw new ArchiveEntryError(
          name,
          `differs from "${existing.spelling}" only in case or Unicode form`,
        );
      }
      if (!isFolder || !existing.folder) {
        throw new ArchiveEntryError(name, 'appears twice in the archive');
      }
    }
  }
}
