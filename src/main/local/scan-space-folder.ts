/**
 * Compares a space folder with the file index: what was edited, added or deleted since the engine
 * last wrote the folder, including while Quire was not running (the scan runs at start-up and
 * after the machine wakes, the watcher only says when to run it).
 *
 * Cheap when nothing changed: a file whose size and mtime are those the index recorded is taken
 * as unchanged without being read, so an untouched folder costs one lstat per file. Files whose
 * size or mtime moved are read and hashed; equal bytes are only "touched" (the caller may refresh
 * the index so the next scan does not read them again).
 *
 * Safety: symbolic links are never followed (lstat, O_NOFOLLOW) and are reported; a file that is
 * too large, a Markdown file that is not UTF-8 or a folder that cannot be read is reported and is
 * neither changed nor deleted, so a problem can never turn into a page deletion. A space folder
 * that is gone (an unmounted disk) is its own result: nothing may be pushed from it.
 */
import { constants, type Dirent, type Stats } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull } from '../../common/fs/lstat-or-null';
import { messageOf } from '../../shared/message-of';
import { contentHash } from '../cache/content-hash';
import type { FileIndexEntry } from '../cache/file-index';
import { ASSETS_FOLDER, SUMMARY_PATH } from '../../shared/gitsync/render-gitsync-layout';
import type { IgnoreRule } from './ignore-rules';
import type { LocalProblem } from './local-problem';

/** Git Sync's per-file limit for uploads. */
export const DEFAULT_MAX_ASSET_BYTES = 100 * 1024 * 1024;

/** How many files are stat'ed or read at once. */
const CONCURRENCY = 16;

/** The index entry of a file (the cache's FileIndexEntry is one). */
export type IndexedFile = Pick<
  FileIndexEntry,
  'path' | 'kind' | 'pageId' | 'fileId' | 'contentHash' | 'size' | 'mtimeMs'
>;

export interface ScanSpaceFolderOptions {
  /** The space folder (absolute). */
  spaceRoot: string;
  /** What the engine last wrote there (FileIndex.entries(spaceId)). */
  index: readonly IndexedFile[];
  ignore: IgnoreRule;
  /** Markdown files (pages, SUMMARY.md) larger than this are reported and not read. */
  maxFileBytes: number;
  /** Assets larger than this are reported and not read. Default 100 MiB. */
  maxAssetBytes?: number;
  /**
   * Hashes a sync that stopped midway was about to write (FileIndex.pendingWrites): a file with
   * one of them is the engine's own work, not an edit.
   */
  pending?: ReadonlyMap<string, ReadonlySet<string>>;
  /** sha256 hex by default (the file index's hash); injectable to count reads in tests. */
  hash?: (bytes: Uint8Array) => string;
}

export type ScannedFileKind = 'page' | 'asset' | 'layout';

export interface ScannedFile {
  /** Relative to the space folder, '/'-separated. */
  path: string;
  /** `layout`: SUMMARY.md; `asset`: a file under `.gitbook/assets/`; `page`: other Markdown. */
  kind: ScannedFileKind;
  hash: string;
  size: number;
  mtimeMs: number;
  /** Markdown files: the text (valid UTF-8, a BOM removed). */
  text?: string;
  /** Assets that are new or changed: the bytes (already read to hash them). */
  bytes?: Uint8Array;
  /** The index entry at this path, for changed and touched files. */
  base?: IndexedFile;
}

export interface FolderScan {
  status: 'scanned';
  /** Indexed files whose bytes differ from the index. */
  changed: ScannedFile[];
  /** Files the index does not know. */
  added: ScannedFile[];
  /** Index entries whose file is gone (never those a problem or an ignore rule hides). */
  deleted: IndexedFile[];
  /** Indexed files whose size or mtime moved but whose bytes did not. */
  touched: ScannedFile[];
  problems: LocalProblem[];
  /** Indexed files recognised by size and mtime alone. */
  unchanged: number;
}

/** The space folder is gone or is not a folder: nothing may be pushed (it may be an unmounted disk). */
export interface FolderMissing {
  status: 'folder-missing';
  spaceRoot: string;
  message: string;
}

export type ScanResult = FolderScan | FolderMissing;

export async function scanSpaceFolder(options: ScanSpaceFolderOptions): Promise<ScanResult> {
  const spaceRoot = path.resolve(options.spaceRoot);
  const rootStats = await lstatOrNull(spaceRoot);
  if (rootStats === null || !rootStats.isDirectory()) {
    return {
      status: 'folder-missing',
      spaceRoot,
      message:
        rootStats === null
          ? `The space folder ${spaceRoot} is missing (an unmounted disk?); nothing was pushed`
          : `${spaceRoot} is not a folder; nothing was pushed`,
    };
  }

  const hash = options.hash ?? contentHash;
  const maxAssetBytes = options.maxAssetBytes ?? DEFAULT_MAX_ASSET_BYTES;
  const byPath = new Map(options.index.map((entry) => [entry.path, entry]));
  // The table of contents is where the engine wrote it (`.gitbook.yaml` may give it a name).
  const summaryPath = options.index.find((entry) => entry.kind === 'layout')?.path ?? SUMMARY_PATH;
  const result: FolderScan = {
    status: 'scanned',
    changed: [],
    added: [],
    deleted: [],
    touched: [],
    problems: [],
    unchanged: 0,
  };
  /** Every path found in the folder, whatever it is: none of them counts as deleted. */
  const present = new Set<string>();
  /** Folders that could not be listed: what the index has under them is unknown, not deleted. */
  const unreadable: string[] = [];
  const problem = (relative: string, reason: LocalProblem['reason'], message: string) => {
    const pageId = byPath.get(relative)?.pageId ?? undefined;
    result.problems.push({ path: relative, reason, message, ...(pageId ? { pageId } : {}) });
  };

  const inspectFile = async (relative: string): Promise<void> => {
    const absolute = path.join(spaceRoot, ...relative.split('/'));
    const base = byPath.get(relative);
    let stats: Stats;
    try {
      stats = await lstat(absolute);
    } catch (error) {
      problem(relative, 'unreadable', `${relative} could not be read: ${messageOf(error)}`);
      return;
    }
    if (!stats.isFile()) {
      // Replaced between the listing and now; the next scan sees what it became.
      return;
    }
    if (base !== undefined && stats.size === base.size && stats.mtimeMs === base.mtimeMs) {
      result.unchanged += 1;
      return;
    }
    const kind = kindOf(relative, summaryPath);
    const limit = kind === 'asset' ? maxAssetBytes : options.maxFileBytes;
    if (stats.size > limit) {
      problem(relative, 'too-large', tooLarge(relative, stats.size, limit));
      return;
    }
    let read: { bytes: Uint8Array; stats: Stats };
    try {
      read = await readNoFollow(absolute, limit);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') {
        problem(relative, 'symlink', `${relative} is a symbolic link: links are not synced`);
      } else if (code === 'EFBIG') {
        problem(relative, 'too-large', tooLarge(relative, stats.size, limit));
      } else if (code !== 'ENOENT') {
        problem(relative, 'unreadable', `${relative} could not be read: ${messageOf(error)}`);
      }
      return;
    }
    const digest = hash(read.bytes);
    const file: ScannedFile = {
      path: relative,
      kind,
      hash: digest,
      size: read.stats.size,
      mtimeMs: read.stats.mtimeMs,
    };
    if (base !== undefined) file.base = base;
    if (
      base !== undefined &&
      (digest === base.contentHash || options.pending?.get(relative)?.has(digest))
    ) {
      result.touched.push(file);
      return;
    }
    if (kind === 'asset') {
      file.bytes = read.bytes;
    } else {
      try {
        file.text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
      } catch {
        problem(
          relative,
          'not-utf8',
          `${relative} is not UTF-8 text; save it as UTF-8 for it to sync (it was left as it is)`,
        );
        return;
      }
    }
    (base === undefined ? result.added : result.changed).push(file);
  };

  const visit = async (folder: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(
        folder === '' ? spaceRoot : path.join(spaceRoot, ...folder.split('/')),
        {
          withFileTypes: true,
        },
      );
    } catch (error) {
      unreadable.push(folder);
      problem(folder, 'unreadable', `The folder ${folder} could not be read: ${messageOf(error)}`);
      return;
    }
    const files: string[] = [];
    const folders: string[] = [];
    for (const entry of entries) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (options.ignore(relative, true)) continue;
        present.add(relative);
        if (byPath.has(relative)) {
          problem(relative, 'not-a-file', `${relative} is a folder where a synced file was`);
        }
        folders.push(relative);
      } else if (entry.isFile()) {
        if (options.ignore(relative, false)) continue;
        present.add(relative);
        files.push(relative);
      } else if (entry.isSymbolicLink()) {
        if (options.ignore(relative)) continue;
        present.add(relative);
        problem(
          relative,
          'symlink',
          `${relative} is a symbolic link: links are not followed or synced`,
        );
      } else {
        if (options.ignore(relative, false)) continue;
        present.add(relative);
        problem(relative, 'not-a-file', `${relative} is not a regular file`);
      }
    }
    await forEachLimited(files, CONCURRENCY, inspectFile);
    for (const child of folders) await visit(child);
  };
  await visit('');

  for (const entry of options.index) {
    if (present.has(entry.path) || options.ignore(entry.path, false)) continue;
    if (unreadable.some((folder) => folder === '' || entry.path.startsWith(`${folder}/`))) continue;
    result.deleted.push(entry);
  }
  const byName = (a: { path: string }, b: { path: string }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  result.changed.sort(byName);
  result.added.sort(byName);
  result.touched.sort(byName);
  result.problems.sort(byName);
  return result;
}

function kindOf(relative: string, summaryPath: string): ScannedFileKind {
  if (relative === summaryPath) return 'layout';
  if (relative.startsWith(`${ASSETS_FOLDER}/`)) return 'asset';
  return 'page';
}

/**
 * Reads a file without following a symbolic link at its last component (O_NOFOLLOW; Windows has
 * no such flag, and lstat has already said it is a file). The size and mtime are the open file's.
 */
async function readNoFollow(
  absolute: string,
  limit: number,
): Promise<{ bytes: Uint8Array; stats: Stats }> {
  const handle = await open(absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw Object.assign(new Error('not a regular file'), { code: 'ENOENT' });
    }
    if (stats.size > limit) throw Object.assign(new Error('too large'), { code: 'EFBIG' });
    const bytes = await handle.readFile();
    // It grew between the stat and the read.
    if (bytes.byteLength > limit) throw Object.assign(new Error('too large'), { code: 'EFBIG' });
    return { bytes, stats };
  } finally {
    await handle.close();
  }
}

function tooLarge(relative: string, size: number, limit: number): string {
  return `${relative} is ${formatBytes(size)}, over the ${formatBytes(limit)} limit: it was not synced`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
