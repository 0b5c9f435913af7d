import type { FileIndex, FileIndexEntry } from '../cache/file-index';
import type { LocalEdit, LocalEdits } from '../cache/local-edits';
import type { IgnoreRule } from '../local/ignore-rules';
import { scanSpaceFolder, type ScanResult } from '../local/scan-space-folder';
import { viewWithQueuedPages, withQueuedPageIds } from './queued-page-ids';

/** Markdown files larger than this are reported, not pushed. */
export const MAX_PUSHED_MARKDOWN_BYTES = 5 * 1024 * 1024;

/**
 * What a push pass compares the folder with, and the scan itself (size and mtime first, a hash
 * only when they moved). `quire status` runs it alone, read-only, to find edits made since the
 * last sync.
 */
export async function scanForPush(
  deps: { index: FileIndex; edits: LocalEdits; ignore: IgnoreRule },
  spaceId: string,
  spaceRoot: string,
  held: ReadonlyMap<string, string | null> | undefined,
): Promise<{
  view: FileIndexEntry[];
  editRows: LocalEdit[];
  classView: FileIndexEntry[];
  scan: ScanResult;
}> {
  const view = deps.edits.overlay(spaceId, deps.index.entries(spaceId));
  // New pages queued but not acknowledged yet are pages to the classifier too (see
  // queuedPageId), so editing, moving or deleting them, or deleting their parent, before the
  // insert is sent updates or re-places the queued insert instead of being refused or lost.
  const editRows = withQueuedPageIds(deps.edits.list(spaceId));
  const classView = viewWithQueuedPages(view, editRows);
  const scan = withoutHeld(
    await scanSpaceFolder({
      spaceRoot,
      index: classView,
      ignore: deps.ignore,
      maxFileBytes: MAX_PUSHED_MARKDOWN_BYTES,
      pending: deps.index.pendingWrites(spaceId),
    }),
    held,
  );
  return { view, editRows, classView, scan };
}

/**
 * The scan without the files of open conflicts: a conflicted file's local version has not been
 * merged with the remote one, so pushing it (edited, deleted, or moved: a new file with its
 * bytes) would replace the remote edit in the working change request. It waits for
 * `quire resolve` or a later pull that merges it.
 */
function withoutHeld(
  scan: ScanResult,
  held: ReadonlyMap<string, string | null> | undefined,
): ScanResult {
  if (held === undefined || held.size === 0 || scan.status !== 'scanned') return scan;
  const heldHashes = new Set([...held.values()].filter((hash) => hash !== null));
  return {
    ...scan,
    changed: scan.changed.filter((file) => !held.has(file.path)),
    deleted: scan.deleted.filter((file) => !held.has(file.path)),
    added: scan.added.filter((file) => !held.has(file.path) && !heldHashes.has(file.hash)),
  };
}
