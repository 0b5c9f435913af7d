import { contentHash } from '../../cache/content-hash';
import type { CachedFile } from '../../cache/content-cache';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import type { RemoteFile } from '../../sync-ports';
import type { FileStamp } from '../local-file-state';
import type { LayoutEntry } from '../space-layout';

/** The bytes (or their hash) a layout entry should have on disk, as known before fetching. */
export interface PullTarget {
  hash: string | undefined;
  data: string | undefined;
}

/** The bytes (or their hash) a layout entry should have on disk, as far as known before fetching. */
export function targetOf(
  entry: LayoutEntry,
  cachedFiles: ReadonlyMap<string, CachedFile>,
  remoteFiles: ReadonlyMap<string, RemoteFile>,
  uploads: ReadonlyMap<string, string>,
): PullTarget {
  if (entry.text !== undefined) return { hash: contentHash(entry.text), data: entry.text };
  // The server keeps an upload's bytes as they were sent.
  const uploaded = entry.fileId !== undefined ? uploads.get(entry.fileId) : undefined;
  if (uploaded !== undefined) return { hash: uploaded, data: undefined };
  const cached = entry.fileId !== undefined ? cachedFiles.get(entry.fileId) : undefined;
  const remote = entry.fileId !== undefined ? remoteFiles.get(entry.fileId) : undefined;
  // Download URLs may carry expiring signatures, so only their path identifies the bytes.
  if (cached?.contentHash && remote && sameFile(cached, remote)) {
    return { hash: cached.contentHash, data: undefined };
  }
  return { hash: undefined, data: undefined };
}

/** Server file id → the hash of the bytes this device uploaded as it (acknowledged uploads). */
export function uploadedHashes(edits: readonly LocalEdit[]): Map<string, string> {
  const uploads = new Map<string, string>();
  for (const edit of edits) {
    // '' is a conflict's held-back edit: its bytes are no longer what was sent.
    if (edit.kind === 'asset' && edit.fileId && edit.contentHash) {
      uploads.set(edit.fileId, edit.contentHash);
    }
  }
  return uploads;
}

/** Whether a local edit row is about the page or file a layout entry holds. */
export function editIsOf(edit: LocalEdit, entry: LayoutEntry): boolean {
  if (edit.kind !== entry.kind) return false;
  if (entry.kind === 'layout') return true;
  if (entry.pageId !== undefined) return edit.pageId === entry.pageId;
  return entry.fileId !== undefined && edit.fileId === entry.fileId;
}

export function indexFields(
  entry: LayoutEntry,
): Pick<FileIndexEntry, 'kind' | 'pageId' | 'fileId'> {
  return { kind: entry.kind, pageId: entry.pageId ?? null, fileId: entry.fileId ?? null };
}

/** The index entry of a file the engine wrote (or found) with the given bytes and stats. */
export function indexEntry(entry: LayoutEntry, hash: string, stats: FileStamp): FileIndexEntry {
  return {
    path: entry.path,
    ...indexFields(entry),
    contentHash: hash,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
  };
}

/**
 * The index entry of a file whose bytes are a local edit on top of the remote `hash`: never the
 * size and mtime of a real file, so the file is never taken for the engine's own write.
 */
export function editedIndexEntry(entry: LayoutEntry, hash: string): FileIndexEntry {
  return { ...indexFields(entry), path: entry.path, contentHash: hash, size: -1, mtimeMs: -1 };
}

function sameFile(a: RemoteFile, b: RemoteFile): boolean {
  return (
    a.name === b.name &&
    a.size === b.size &&
    a.contentType === b.contentType &&
    urlPath(a.downloadURL) === urlPath(b.downloadURL)
  );
}

/** A download URL without its query (signatures change, the file does not). */
export function urlPath(url: string): string {
  try {
    const parsed = new URL(url, 'http://relative.invalid');
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
