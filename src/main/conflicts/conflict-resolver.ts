import { stat } from 'node:fs/promises';
import path from 'node:path';
import { contentHash } from '../cache/content-hash';
import type { FileIndex, FileIndexEntry } from '../cache/file-index';
import type { CacheDb } from '../cache/open-cache-database';
import type { SyncedTexts } from '../cache/synced-texts';
import { atomicRemove, atomicWriteFile, ensureDir } from '../mirror/atomic-write';
import { SUMMARY_PATH } from '../../shared/gitsync/render-gitsync-layout';
import { resolveInside } from '../mirror/resolve-inside';
import type { Outbox } from '../outbox/outbox';
import type { LocalEdits } from '../cache/local-edits';
import type { Conflict, ConflictStore } from './conflict-store';

/**
 * `mine`: the local file stays and is pushed over the remote version; `theirs`: the remote
 * version is written and the local edit dropped; `merged`: `text` (the user's own merge) is
 * written and pushed. For the informational kinds, `mine` and `theirs` choose the local side's or
 * the server's outcome: a page deleted remotely is kept (mine) or removed locally (theirs); a page
 * deleted locally is deleted again (mine) or kept as the server has it (theirs).
 */
export type ConflictResolutionRequest =
  { mode: 'mine' } | { mode: 'theirs' } | { mode: 'merged'; text: string };

/** A resolution that cannot be done (unknown id, already resolved...): nothing was changed. */
export class ConflictResolutionError extends Error {
  override readonly name = 'ConflictResolutionError';
}

export interface ConflictResolverDeps {
  db: CacheDb;
  index: FileIndex;
  edits: LocalEdits;
  store: ConflictStore;
  texts: SyncedTexts;
  outbox: Outbox;
  /** The space folder (absolute), or undefined when the space is no longer mirrored. */
  spaceRoot(spaceId: string): string | undefined;
  /** The remote bytes of an upload (for `theirs` on an asset conflict). */
  downloadAsset(spaceId: string, fileId: string): Promise<Uint8Array>;
  now(): string;
}

/**
 * Applies the user's choice for one conflict: the file is written first (atomically), then the
 * cache records the outcome in one transaction (the new base in the file index, the local edit
 * and queued changes dropped where the choice discards them, the conflict resolved). What must be
 * pushed is left as a local edit against the new base, which the next scan queues.
 */
export class ConflictResolver {
  constructor(private readonly deps: ConflictResolverDeps) {}

  async resolve(id: number, request: ConflictResolutionRequest): Promise<Conflict> {
    const { store } = this.deps;
    const conflict = store.get(id);
    if (conflict === undefined) throw new ConflictResolutionError(`no conflict ${id}`);
    if (conflict.resolvedAt !== null) {
      throw new ConflictResolutionError(
        `conflict ${id} is already resolved (${conflict.resolution})`,
      );
    }
    const root = this.deps.spaceRoot(conflict.spaceId);
    if (root === undefined) {
      throw new ConflictResolutionError(`the space of conflict ${id} is no longer synced`);
    }
    const absolute = resolveInside(root, conflict.path);
    if (request.mode === 'merged') {
      await this.write(root, absolute, request.text);
      // After an edit-against-delete the file already is a local edit against the right base.
      const informational =
        conflict.kind === 'deleted-remotely' || conflict.kind === 'deleted-locally';
      this.record(conflict, 'merged', () => (informational ? undefined : this.rebase(conflict)));
    } else if (conflict.kind === 'deleted-remotely' || conflict.kind === 'deleted-locally') {
      // Mine keeps a page deleted remotely, theirs keeps a page the server edited.
      const keep = (conflict.kind === 'deleted-remotely') === (request.mode === 'mine');
      if (!keep) await atomicRemove(absolute, { root });
      this.record(conflict, request.mode, () => {});
    } else if (request.mode === 'mine') {
      this.record(conflict, 'mine', () => this.rebase(conflict));
    } else {
      await this.takeTheirs(conflict, root, absolute);
    }
    return store.get(id)!;
  }

  private async takeTheirs(conflict: Conflict, root: string, absolute: string): Promise<void> {
    let data: string | Uint8Array;
    if (conflict.kind === 'asset') {
      if (conflict.fileId === null) {
        throw new ConflictResolutionError(`conflict ${conflict.id} names no remote file`);
      }
      data = await this.deps.downloadAsset(conflict.spaceId, conflict.fileId);
    } else {
      const text =
        conflict.remoteHash === null ? undefined : this.deps.texts.get(conflict.remoteHash);
      if (text === undefined) {
        throw new ConflictResolutionError(
          `the remote version of conflict ${conflict.id} is not in the cache`,
        );
      }
      data = text;
    }
    await this.write(root, absolute, data);
    const stats = await stat(absolute);
    this.record(conflict, 'theirs', () => {
      const { index, edits, outbox } = this.deps;
      index.put(conflict.spaceId, {
        ...this.indexFields(conflict),
        contentHash: contentHash(data),
        size: stats.size,
        mtimeMs: stats.mtimeMs,
      });
      if (conflict.pageId !== null) {
        outbox.dropContent(conflict.spaceId, conflict.pageId);
        // A page's edit row stays: the file now differs from the edit last pushed, so the next
        // push sends the remote version into the change request, undoing the edit there too.
      } else {
        outbox.dropPage(conflict.spaceId, { filePath: conflict.path });
        edits.remove(conflict.spaceId, conflict.path);
      }
    });
  }

  /**
   * The remote version becomes the base (so the file is a local edit on top of it) and the
   * local side's queued text is dropped (a queued move stays): the next scan queues the file as
   * it is now.
   */
  private rebase(conflict: Conflict): void {
    const { index, edits, outbox } = this.deps;
    index.put(conflict.spaceId, {
      ...this.indexFields(conflict),
      // An asset's remote hash is unknown until downloaded: '' never matches a file.
      contentHash: conflict.remoteHash ?? '',
      size: -1,
      mtimeMs: -1,
    });
    edits.remove(conflict.spaceId, conflict.path);
    if (conflict.pageId !== null) outbox.dropContent(conflict.spaceId, conflict.pageId);
    else outbox.dropPage(conflict.spaceId, { filePath: conflict.path });
  }

  private indexFields(
    conflict: Conflict,
  ): Omit<FileIndexEntry, 'contentHash' | 'size' | 'mtimeMs'> {
    const existing = this.deps.index.get(conflict.spaceId, conflict.path);
    return {
      path: conflict.path,
      // No entry: a file the engine never synced (a new home on the folder) is known by its path.
      kind:
        existing?.kind ??
        (conflict.kind === 'asset' ? 'asset' : conflict.path === SUMMARY_PATH ? 'layout' : 'page'),
      pageId: existing?.pageId ?? conflict.pageId,
      fileId: existing?.fileId ?? conflict.fileId,
    };
  }

  private record(conflict: Conflict, resolution: 'mine' | 'theirs' | 'merged', apply: () => void) {
    const { db, store, texts } = this.deps;
    db.transaction(() => {
      apply();
      store.resolve(conflict.id, resolution, this.deps.now());
      texts.collect();
    })();
  }

  private async write(root: string, absolute: string, data: string | Uint8Array): Promise<void> {
    await ensureDir(path.dirname(absolute), { root });
    await atomicWriteFile(absolute, data, { root });
  }
}
