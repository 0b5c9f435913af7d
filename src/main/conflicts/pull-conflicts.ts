/**
 * What one pull of a space decides about files changed on both sides, collected while the pull
 * plans and applied with it: three-way merges to write, conflicts and edit-against-delete
 * outcomes to record, local edit rows and queued changes to drop. The engine (pullSpace) calls it
 * at each both-changed case; `writeMerges` runs with the pull's other writes and `commit` inside
 * the pull's final transaction, so a crash leaves either the old state or the new one.
 *
 * Rules:
 * - Both changed a text file: merge (merge-page-text). A clean merge is written over the local
 *   file only if the file still has the bytes that were merged; the file index then records the
 *   remote version as the base (with an impossible size and mtime, so the merged file is never
 *   taken for the engine's own write), which makes the merged file a local edit that the next
 *   push queues. It is never journaled as a pending write: after a crash it must still look local.
 * - An overlapping merge (or a file that cannot be merged: not UTF-8, base unknown, an upload)
 *   is a recorded conflict: the local file is not touched, the base and remote texts are kept in
 *   `synced_texts`, the file index keeps the old base.
 * - A page deleted remotely whose file was edited: the file is kept and its edit rows and queued
 *   changes dropped, so the next push re-creates it as a new page (and removes the old page from
 *   the working change request when the edit had been pushed there); recorded as information.
 * - A page deleted locally and edited remotely: the pull writes the remote version; a deletion
 *   still waiting in the outbox is dropped; recorded as information.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentHash } from '../cache/content-hash';
import type { FileIndexEntry } from '../cache/file-index';
import type { SyncedTexts } from '../cache/synced-texts';
import { atomicRemove, atomicWriteFile, ensureDir } from '../mirror/atomic-write';
import { resolveInside } from '../mirror/resolve-inside';
import type { Outbox } from '../outbox/outbox';
import type { LocalEdit, LocalEdits } from '../cache/local-edits';
import type { LayoutEntry } from '../sync/space-layout';
import type { ConflictKind, ConflictStore, NewConflict } from './conflict-store';
import { INFORMATIONAL_CONFLICT_KINDS } from './conflict-store';
import { mergePageText } from './merge-page-text';

export interface PullConflictsDeps {
  spaceId: string;
  spaceRoot: string;
  store: ConflictStore;
  texts: SyncedTexts;
  edits: LocalEdits;
  outbox: Outbox;
  /** The local edit rows before the pull. */
  localEdits: readonly LocalEdit[];
  /** The text last synced with this hash (synced_texts, else the cached revision rendered). */
  baseText(hash: string): string | undefined;
  /** Page id → title, remote revision first, then the cached one. */
  title(pageId: string | null): string;
  /** Adds a problem to the sync's report (and the log). */
  report(
    kind: 'conflict' | 'kept-deleted',
    path: string,
    pageId: string | null,
    message: string,
  ): void;
}

interface PlannedMerge {
  entry: LayoutEntry;
  text: string;
  remoteHash: string;
  /** Where the local version is, and the hash that was merged. */
  localPath: string;
  localHash: string;
  /** Where the merged file goes (the page's path; the local one unless it moved remotely). */
  writePath: string;
  /** Where the index records the page. */
  indexPath: string;
}

interface PlannedConflict {
  conflict: NewConflict;
  baseText?: string;
  remoteText?: string;
}

export class PullConflicts {
  private readonly merges: PlannedMerge[] = [];
  private readonly conflicts: PlannedConflict[] = [];
  private readonly dropEdits = new Set<string>();
  private readonly dropPages: { pageId: string; path: string; deleted: 'remotely' | 'locally' }[] =
    [];
  /** Paths whose open conflict must stay as it is (the file changed during the sync). */
  private readonly untouched = new Set<string>();
  /** Paths the merges wrote (never settled as pulled content). */
  readonly merged: string[] = [];
  /** Pages deleted locally whose deletion already reached the change request (see commit). */
  private readonly undeleted: string[] = [];

  constructor(private readonly deps: PullConflictsDeps) {}

  /** Whether anything decided here needs a push (a merged file, a page to re-create). */
  get needsPush(): boolean {
    return (
      this.merged.length > 0 ||
      this.undeleted.length > 0 ||
      this.dropPages.some((drop) => drop.deleted === 'remotely')
    );
  }

  /** Paths with a conflict recorded by this pull. */
  get conflictPaths(): Set<string> {
    return new Set(this.conflicts.map((planned) => planned.conflict.path));
  }

  /**
   * Both sides changed the text file of `entry`: plans a merge of the local file at `localPath`
   * (bytes `localHash`) against `base` and the remote text, or records a conflict. `writePath`
   * defaults to the layout path, `indexPath` to the same.
   */
  async planMerge(
    entry: LayoutEntry,
    base: FileIndexEntry,
    localPath: string,
    localHash: string,
    options: { writePath?: string } = {},
  ): Promise<'merged' | 'conflict'> {
    const remote = entry.text!;
    const baseText = this.deps.baseText(base.contentHash);
    const conflict = (reason: string) => {
      this.recordConflict(
        'content',
        localPath,
        entry,
        localHash,
        `${localPath} was edited locally and changed remotely (${reason}); the local file was kept as it is and the remote version saved as a conflict to resolve`,
        baseText,
        remote,
        baseText === undefined ? null : base.contentHash,
      );
      return 'conflict' as const;
    };
    if (baseText === undefined) return conflict('the last synced version is not in the cache');
    let local: string;
    try {
      const bytes = await readFile(resolveInside(this.deps.spaceRoot, localPath));
      if (contentHash(bytes) !== localHash) {
        // Changed again while the sync runs: the next sync merges what it finds then.
        this.untouched.add(localPath);
        return 'conflict';
      }
      local = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (error) {
      if (error instanceof TypeError) return conflict('the local file is not UTF-8 text');
      throw error;
    }
    const result = mergePageText(baseText, local, remote, { frontmatter: entry.kind === 'page' });
    if (result.kind === 'conflict') return conflict(result.reason);
    const writePath = options.writePath ?? localPath;
    this.merges.push({
      entry,
      text: result.text,
      remoteHash: contentHash(remote),
      localPath,
      localHash,
      writePath,
      indexPath: entry.path,
    });
    return 'merged';
  }

  /** An upload changed on both sides: the local file stays, the remote one can be downloaded. */
  recordAsset(entry: LayoutEntry, localHash: string): void {
    this.recordConflict(
      'asset',
      entry.path,
      entry,
      localHash,
      `${entry.path} was replaced locally and changed remotely; the local file was kept and the remote one not downloaded until the conflict is resolved`,
    );
  }

  /** A conflict that is not about text (a folder in the way, a file changed mid-sync). */
  recordUnmerged(entry: LayoutEntry, localPath: string, localHash: string, message: string): void {
    this.recordConflict(
      entry.kind === 'asset' ? 'asset' : 'content',
      localPath,
      entry,
      localHash,
      message,
      undefined,
      entry.text,
    );
  }

  /** The page of `entry` (an index entry) was deleted remotely; its file was edited: kept. */
  deletedRemotely(entry: FileIndexEntry, localHash: string): void {
    const message = `The page of ${entry.path} was deleted remotely, but the file was edited locally: it was kept and will be pushed as a new page`;
    this.dropEdits.add(entry.path);
    this.dropPages.push({ pageId: entry.pageId!, path: entry.path, deleted: 'remotely' });
    this.conflicts.push({
      conflict: this.conflictOf(
        'deleted-remotely',
        entry.path,
        entry.pageId,
        null,
        localHash,
        message,
      ),
    });
    this.deps.report('kept-deleted', entry.path, entry.pageId, message);
  }

  /** The file of a page edited remotely was deleted locally: the pull writes it again. */
  deletedLocally(entry: LayoutEntry): void {
    const message = `${entry.path} was deleted locally, but its page was edited remotely: the remote version was written again (keeping your version of the conflict deletes it again)`;
    this.dropPages.push({ pageId: entry.pageId!, path: entry.path, deleted: 'locally' });
    this.conflicts.push({
      conflict: this.conflictOf(
        'deleted-locally',
        entry.path,
        entry.pageId ?? null,
        null,
        null,
        message,
      ),
    });
  }

  /**
   * Writes the planned merges over local files that still have the merged bytes. Returns the
   * index entries to record (the remote version as the base) and the paths removed (a file that
   * moved remotely is written at its new path).
   */
  async writeMerges(
    currentHash: (relativePath: string) => Promise<string | undefined>,
    removeEmptyParents: (relativePath: string) => Promise<void>,
  ): Promise<{ index: FileIndexEntry[]; removed: string[] }> {
    const { spaceRoot } = this.deps;
    const index: FileIndexEntry[] = [];
    const removed: string[] = [];
    for (const merge of this.merges) {
      if ((await currentHash(merge.localPath)) !== merge.localHash) {
        this.untouched.add(merge.localPath);
        continue;
      }
      const target = resolveInside(spaceRoot, merge.writePath);
      await ensureDir(path.dirname(target), { root: spaceRoot });
      await atomicWriteFile(target, merge.text, { root: spaceRoot });
      if (merge.localPath !== merge.writePath) {
        await atomicRemove(resolveInside(spaceRoot, merge.localPath), { root: spaceRoot });
        await removeEmptyParents(merge.localPath);
        removed.push(merge.localPath);
        this.dropEdits.add(merge.localPath);
      }
      index.push({
        path: merge.indexPath,
        kind: merge.entry.kind,
        pageId: merge.entry.pageId ?? null,
        fileId: merge.entry.fileId ?? null,
        contentHash: merge.remoteHash,
        // Never the size and mtime of a real file: the merged bytes are a local edit.
        size: -1,
        mtimeMs: -1,
      });
      this.merged.push(merge.writePath);
    }
    return { index, removed };
  }

  /** Records everything decided; call inside the pull's final transaction. */
  commit(now: string): void {
    const { spaceId, store, texts, edits, outbox, localEdits } = this.deps;
    const recorded = new Set<string>();
    for (const planned of this.conflicts) {
      const { conflict } = planned;
      if (planned.baseText !== undefined) texts.put(planned.baseText);
      if (planned.remoteText !== undefined) texts.put(planned.remoteText);
      store.record(conflict, now);
      recorded.add(conflict.path);
      if (!INFORMATIONAL_CONFLICT_KINDS.has(conflict.kind)) this.holdBack(conflict);
    }
    // Content conflicts this pull found nothing left to merge at are over.
    for (const open of store.open(spaceId)) {
      if (INFORMATIONAL_CONFLICT_KINDS.has(open.kind)) continue;
      if (recorded.has(open.path) || this.untouched.has(open.path)) continue;
      store.resolve(open.id, 'auto', now);
    }
    // Read once: each drop below only changes its own page's rows.
    const waiting = this.dropPages.length > 0 ? outbox.pending(spaceId) : [];
    const refused = this.dropPages.length > 0 ? outbox.failed(spaceId) : [];
    for (const drop of this.dropPages) {
      const edited = localEdits.some(
        (edit) => edit.path === drop.path && edit.contentHash !== null,
      );
      const queued = waiting.some((item) => item.pageId === drop.pageId);
      const failed = refused.some((item) => item.pageId === drop.pageId);
      const deleteWaiting = waiting.some(
        (item) =>
          item.pageId === drop.pageId && item.kind === 'delete_page' && item.state === 'pending',
      );
      const deletion = localEdits.find(
        (edit) =>
          edit.path === drop.path && edit.contentHash === null && edit.pageId === drop.pageId,
      );
      outbox.dropPage(spaceId, { pageId: drop.pageId });
      if (drop.deleted === 'locally' && deletion !== undefined && !deleteWaiting) {
        // The deletion was sent (or is in a batch being sent): the working change request
        // deletes the page, and merging it would delete the remote edit just written. Its
        // deletion row stays, so the push takes the written file for a new one and re-creates
        // the page there with the remote text (`quire resolve --mine` deletes it again).
        edits.put(spaceId, deletion);
        this.undeleted.push(drop.path);
        continue;
      }
      if (drop.deleted === 'remotely' && edited && !queued && !failed) {
        // The edit reached the working change request, which still has the page: remove it
        // there, the re-created page replaces it.
        outbox.enqueue({ kind: 'delete_page', spaceId, page: { pageId: drop.pageId } });
      }
    }
    for (const dropped of this.dropEdits) edits.remove(spaceId, dropped);
  }

  /**
   * The local side of a conflict is not pushed until it is resolved (the push leaves the file
   * out too): what is queued for its text is dropped (a queued move stays), and its edit row no longer claims the bytes were
   * queued (an impossible hash), so once the conflict is over, however it ends, the next push
   * compares the file afresh and queues what is then left to send.
   */
  private holdBack(conflict: NewConflict): void {
    const { spaceId, edits, outbox } = this.deps;
    if (conflict.pageId !== null) outbox.dropContent(spaceId, conflict.pageId);
    else outbox.dropPage(spaceId, { filePath: conflict.path });
    const edit = edits.list(spaceId).find((row) => row.path === conflict.path);
    if (edit !== undefined && edit.contentHash !== null) {
      edits.put(spaceId, { ...edit, contentHash: '', size: null, mtimeMs: null });
    }
  }

  private recordConflict(
    kind: ConflictKind,
    localPath: string,
    entry: LayoutEntry,
    localHash: string,
    message: string,
    baseText?: string,
    remoteText?: string,
    baseHash: string | null = baseText === undefined ? null : contentHash(baseText),
  ): void {
    const conflict = this.conflictOf(
      kind,
      localPath,
      entry.pageId ?? null,
      entry.fileId ?? null,
      localHash,
      message,
    );
    conflict.baseHash = baseText === undefined ? null : baseHash;
    conflict.remoteHash = remoteText === undefined ? null : contentHash(remoteText);
    this.conflicts.push({
      conflict,
      ...(baseText !== undefined ? { baseText } : {}),
      ...(remoteText !== undefined ? { remoteText } : {}),
    });
    this.deps.report('conflict', localPath, entry.pageId ?? null, message);
  }

  private conflictOf(
    kind: ConflictKind,
    conflictPath: string,
    pageId: string | null,
    fileId: string | null,
    localHash: string | null,
    message: string,
  ): NewConflict {
    return {
      spaceId: this.deps.spaceId,
      kind,
      path: conflictPath,
      pageId,
      fileId,
      title: pageId !== null ? this.deps.title(pageId) : path.posix.basename(conflictPath),
      baseHash: null,
      remoteHash: null,
      localHash,
      message,
    };
  }
}
