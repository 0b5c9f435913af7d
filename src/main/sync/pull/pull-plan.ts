/**
 * The pull's decisions for one space, made without any I/O: the remote layout, the file index
 * and the local file states (gathered beforehand, see gather-pull-inputs.ts) in; what to write,
 * rename and remove, which both-changed files to merge, which conflicts and problems to record
 * out. applyPullPlan carries it out.
 *
 * Safety rules: a file is only rewritten or removed when its bytes are what the engine last
 * wrote (so local edits are never lost); page identity is the page id in the file index, never
 * the path.
 */
import type { CachedFile } from '../../cache/content-cache';
import type { FileIndexEntry } from '../../cache/file-index';
import type { LocalEdit } from '../../cache/local-edits';
import type { RemoteFile } from '../../sync-ports';
import type { FileStamp, LocalState } from '../local-file-state';
import type { LayoutEntry } from '../space-layout';
import type { ReportedProblem } from '../sync-report';
import {
  editedIndexEntry,
  indexEntry,
  indexFields,
  targetOf,
  uploadedHashes,
  type PullTarget,
} from './pull-plan-entries';
import { unsyncedFileOutcome } from './unsynced-file-outcome';

export interface PullInputs {
  /** The files of the remote revision, in Git Sync's layout. */
  layout: readonly LayoutEntry[];
  /** The remote revision's files (assets), and those of the cached revision. */
  remoteFiles: readonly RemoteFile[];
  cachedFiles: readonly CachedFile[];
  /** The file index of the space (empty when its folder was deleted as a whole). */
  indexEntries: readonly FileIndexEntry[];
  /** The journal of writes a killed sync left: path → hashes being written there. */
  pending: ReadonlyMap<string, ReadonlySet<string>>;
  /** The local edit rows (queued or pushed, not yet pulled back). */
  localEdits: readonly LocalEdit[];
  /**
   * The state of every path of the layout, the index, the journal and the edit rows (see
   * gatherLocalStates); a file with an edit row is never 'ours'.
   */
  local: ReadonlyMap<string, LocalState>;
  /** Page files at no layout path, by hash, of a folder this home never synced (else empty). */
  strays: ReadonlyMap<string, readonly string[]>;
}

/** A file to write: text with its bytes and hash, or an asset downloaded when its turn comes. */
export interface PlannedWrite {
  entry: LayoutEntry;
  hash: string | undefined;
  data: string | undefined;
}

export interface PlannedRename {
  from: string;
  to: string;
  entry: FileIndexEntry;
}

/** A both-changed file or a problem, handed to PullConflicts or the report in this order. */
export type PullDecision =
  /** Both changed a text file: merged at `writePath` (default `localPath`), or a conflict. */
  | {
      kind: 'merge';
      entry: LayoutEntry;
      base: FileIndexEntry;
      localPath: string;
      localHash: string;
      writePath?: string;
    }
  /** Both changed, and no merge is possible: the local file is kept. */
  | { kind: 'unmerged'; entry: LayoutEntry; localPath: string; localHash: string; message: string }
  /** An upload changed on both sides. */
  | { kind: 'asset-conflict'; entry: LayoutEntry; localHash: string }
  /** Deleted locally, edited remotely: written again. */
  | { kind: 'deleted-locally'; entry: LayoutEntry }
  /** Deleted remotely, edited locally: kept, pushed again as a new page. */
  | { kind: 'deleted-remotely'; entry: FileIndexEntry; localHash: string }
  | { kind: 'problem'; problem: ReportedProblem };

export interface PullPlan {
  /** The new file index by path, as far as known before writing (writes complete it). */
  index: Map<string, FileIndexEntry>;
  /** Server file id → hash of the bytes on disk. */
  fileHashes: Map<string, string>;
  /** Text files of the revision by hash: the bases the next pull merges against. */
  syncedTexts: Map<string, string>;
  writes: PlannedWrite[];
  renames: PlannedRename[];
  removals: string[];
  decisions: PullDecision[];
}

/** The plan of a pull (pure: the same inputs give the same plan). */
export function planPull(inputs: PullInputs): PullPlan {
  return new PullPlanner(inputs).plan();
}

class PullPlanner {
  private readonly result: PullPlan = {
    index: new Map(),
    fileHashes: new Map(),
    syncedTexts: new Map(),
    writes: [],
    renames: [],
    removals: [],
    decisions: [],
  };
  private readonly layoutPaths: Set<string>;
  private readonly byPath: Map<string, FileIndexEntry>;
  private readonly byPage: Map<string, FileIndexEntry>;
  private readonly cachedFiles: Map<string, CachedFile>;
  private readonly remoteFiles: Map<string, RemoteFile>;
  /** Files this device uploaded, by the server's id: their bytes are known without a download. */
  private readonly uploads: Map<string, string>;
  /** Copied: each stray file is matched with one page at most. */
  private readonly strays: Map<string, string[]>;
  /** Old paths that stay (a locally edited page, moved remotely, kept where it is). */
  private readonly retained = new Set<string>();

  constructor(private readonly inputs: PullInputs) {
    this.layoutPaths = new Set(inputs.layout.map((entry) => entry.path));
    this.byPath = new Map(inputs.indexEntries.map((entry) => [entry.path, entry]));
    this.byPage = new Map(
      inputs.indexEntries.filter((e) => e.pageId !== null).map((e) => [e.pageId!, e] as const),
    );
    this.cachedFiles = new Map(inputs.cachedFiles.map((file) => [file.id, file]));
    this.remoteFiles = new Map(inputs.remoteFiles.map((file) => [file.id, file]));
    this.uploads = uploadedHashes(inputs.localEdits);
    this.strays = new Map([...inputs.strays].map(([hash, paths]) => [hash, [...paths]]));
  }

  plan(): PullPlan {
    for (const entry of this.inputs.layout) this.planEntry(entry);
    this.planRemovals();
    return this.result;
  }

  private local(relativePath: string): LocalState {
    const state = this.inputs.local.get(relativePath);
    if (state === undefined) throw new Error(`No local state was gathered for ${relativePath}`);
    return state;
  }

  private planEntry(entry: LayoutEntry): void {
    const target = targetOf(entry, this.cachedFiles, this.remoteFiles, this.uploads);
    // A page that moved: its old file decides what happens to the new one.
    const old = entry.pageId !== undefined ? this.byPage.get(entry.pageId) : undefined;
    if (old !== undefined && old.path !== entry.path && !this.layoutPaths.has(old.path)) {
      const oldLocal = this.local(old.path);
      if (oldLocal.kind === 'foreign') {
        this.planMovedEdited(entry, old, oldLocal.hash, target);
        return;
      }
    }
    if (target.data !== undefined && target.hash !== undefined) {
      this.result.syncedTexts.set(target.hash, target.data);
    }
    const local = this.local(entry.path);
    const base = this.byPath.get(entry.path);
    if (local.kind === 'ours' && local.hash === target.hash) {
      this.keep(entry, indexEntry(entry, local.hash, local.stats));
    } else if (local.kind === 'foreign') {
      this.planForeign(entry, local, base, target);
    } else {
      this.planOursOrMissing(entry, local, base, target);
    }
  }

  /** The page moved remotely; its old file was edited locally. */
  private planMovedEdited(
    entry: LayoutEntry,
    old: FileIndexEntry,
    oldHash: string,
    target: PullTarget,
  ): void {
    const newLocal = this.local(entry.path);
    if (target.hash === old.contentHash && newLocal.kind === 'missing') {
      // Moved remotely, edited locally, content unchanged remotely: move the edited file.
      this.result.renames.push({
        from: old.path,
        to: entry.path,
        entry: { ...old, path: entry.path },
      });
      this.result.index.set(entry.path, { ...old, ...indexFields(entry), path: entry.path });
      return;
    }
    this.retained.add(old.path);
    this.result.index.set(old.path, { ...old, ...indexFields(entry), path: old.path });
    if (newLocal.kind === 'missing' && entry.text !== undefined && oldHash !== '') {
      // Moved and changed remotely, edited locally: merged into the page's new path.
      this.decide({
        kind: 'merge',
        entry,
        base: old,
        localPath: old.path,
        localHash: oldHash,
        writePath: entry.path,
      });
    } else {
      this.decide({
        kind: 'unmerged',
        entry,
        localPath: old.path,
        localHash: oldHash,
        message: `${old.path} was edited locally and the page changed remotely (now ${entry.path}); the local file was kept and the remote version not written`,
      });
    }
  }

  /** A file the engine did not write (or a folder, hash '') is at the entry's path. */
  private planForeign(
    entry: LayoutEntry,
    local: { hash: string; stats: FileStamp },
    base: FileIndexEntry | undefined,
    target: PullTarget,
  ): void {
    if (target.hash !== undefined && local.hash === target.hash) {
      // Already what the server has (e.g. the same edit made on both sides).
      this.keep(entry, indexEntry(entry, local.hash, local.stats));
      return;
    }
    if (base === undefined) {
      if (target.hash === undefined && entry.kind === 'asset' && local.hash !== '') {
        // Neither side's bytes are known (a new home on an existing folder): the download
        // decides (see applyPullPlan) whether the file is adopted or a conflict.
        this.result.writes.push({ entry, hash: undefined, data: undefined });
        return;
      }
      const outcome = unsyncedFileOutcome(entry, local.hash, this.inputs.localEdits);
      if ('index' in outcome) this.result.index.set(entry.path, outcome.index);
      else this.decide(outcome.decision);
      return;
    }
    if (target.hash === base.contentHash) {
      // Edited locally, unchanged remotely: a local change waiting to be pushed.
      this.keep(entry, { ...base, ...indexFields(entry) });
      return;
    }
    if (target.hash === undefined && entry.kind === 'asset') {
      // The remote file changed and must be downloaded before it can be compared.
      this.result.writes.push({ entry, hash: undefined, data: undefined });
      return;
    }
    this.result.index.set(entry.path, { ...base, ...indexFields(entry) });
    if (local.hash === '') {
      this.decide({
        kind: 'unmerged',
        entry,
        localPath: entry.path,
        localHash: local.hash,
        message: `${entry.path} is not a file but the page changed remotely; the remote version was not written`,
      });
    } else if (entry.text !== undefined) {
      this.decide({ kind: 'merge', entry, base, localPath: entry.path, localHash: local.hash });
    } else {
      this.decide({ kind: 'asset-conflict', entry, localHash: local.hash });
    }
  }

  /** The entry's path is missing, or holds an older file of the engine's. */
  private planOursOrMissing(
    entry: LayoutEntry,
    local: LocalState,
    base: FileIndexEntry | undefined,
    target: PullTarget,
  ): void {
    if (local.kind === 'missing' && base === undefined && entry.kind === 'page' && target.hash) {
      const elsewhere = this.strays.get(target.hash)?.shift();
      if (elsewhere !== undefined) {
        // The page's file, moved before this home knew the folder: indexed where the page is,
        // so the push sends the move instead of writing it back here and a second page there.
        this.result.index.set(entry.path, editedIndexEntry(entry, target.hash));
        return;
      }
    }
    if (local.kind === 'missing' && base !== undefined && target.hash === base.contentHash) {
      // Deleted locally, unchanged remotely: a local deletion waiting to be pushed.
      this.result.index.set(entry.path, { ...base, ...indexFields(entry) });
      return;
    }
    if (local.kind === 'missing' && base !== undefined && entry.kind === 'page') {
      const moved = this.inputs.localEdits.find(
        (edit) =>
          edit.pageId === entry.pageId && edit.contentHash !== null && edit.path !== entry.path,
      );
      if (moved !== undefined && entry.text !== undefined) {
        // Moved locally, changed remotely: the moved file is the local version, merged there.
        this.result.index.set(entry.path, { ...base, ...indexFields(entry) });
        const movedLocal = this.local(moved.path);
        if (movedLocal.kind !== 'missing' && movedLocal.hash !== '') {
          this.decide({
            kind: 'merge',
            entry,
            base,
            localPath: moved.path,
            localHash: movedLocal.hash,
          });
        }
        return;
      }
      // Deleted locally, edited remotely: the remote edit wins (written below).
      this.decide({ kind: 'deleted-locally', entry });
    }
    this.result.writes.push({ entry, hash: target.hash, data: target.data });
  }

  /** Remote deletions (and the old paths of moved pages), and a killed sync's orphans. */
  private planRemovals(): void {
    const renamed = new Set(this.result.renames.map((move) => move.from));
    for (const entry of this.inputs.indexEntries) {
      if (this.layoutPaths.has(entry.path) || this.retained.has(entry.path)) continue;
      if (renamed.has(entry.path)) continue;
      const local = this.local(entry.path);
      if (local.kind === 'foreign' && entry.kind === 'page' && entry.pageId !== null) {
        if (local.hash !== '') {
          // The edit wins: kept, and pushed again as a new page.
          this.decide({ kind: 'deleted-remotely', entry, localHash: local.hash });
          continue;
        }
      }
      if (local.kind === 'foreign') {
        const what = entry.pageId !== null ? 'page' : 'file';
        this.decide({
          kind: 'problem',
          problem: {
            kind: 'kept-deleted',
            path: entry.path,
            pageId: entry.pageId,
            message: `The ${what} of ${entry.path} was deleted remotely, but the file was edited locally: it was kept`,
          },
        });
        continue;
      }
      if (local.kind === 'ours') this.result.removals.push(entry.path);
    }
    // Files a killed sync wrote but never recorded, for pages gone since: still the engine's own.
    for (const pendingPath of this.inputs.pending.keys()) {
      if (this.layoutPaths.has(pendingPath) || this.byPath.has(pendingPath)) continue;
      if (this.local(pendingPath).kind === 'ours') this.result.removals.push(pendingPath);
    }
  }

  /** The entry's file stays as it is, indexed as `indexed`. */
  private keep(entry: LayoutEntry, indexed: FileIndexEntry): void {
    this.result.index.set(entry.path, indexed);
    if (entry.fileId !== undefined) this.result.fileHashes.set(entry.fileId, indexed.contentHash);
  }

  private decide(decision: PullDecision): void {
    this.result.decisions.push(decision);
  }
}
