/**
 * Changes the server refused, in the user's terms: which file each is about, the server's
 * reason, and the changes each holds back. A refusal never blocks anything else (the drainer sends
 * the rest of its batch and every later change); it waits here until the user retries it (after
 * fixing the file, or when the server's objection has gone) or drops it. Used by the CLI
 * (`quire status`, `retry`, `drop`) and, later, the app.
 */
import type { FileIndex } from '../cache/file-index';
import type { CacheDb } from '../cache/open-cache-database';
import type { Outbox } from '../outbox/outbox';
import type { OutboxItem } from '../outbox/outbox-change';
import type { LocalEdits } from '../cache/local-edits';

/** A change the outbox holds that the server refused. */
export interface RefusedChange {
  /** The outbox id: what `quire retry <id>` and `quire drop <id>` take. */
  id: number;
  spaceId: string;
  kind: OutboxItem['kind'];
  /** The file it came from, relative to the space folder, when one is known. */
  path: string | null;
  pageId: string | null;
  /** The server's message, as it gave it. */
  reason: string;
  /** Files of waiting changes that need this one first (pages inserted inside a refused page). */
  holds: string[];
}

/** No refused change has this id (never refused, already retried or dropped). */
export class UnknownRefusedChangeError extends Error {
  override readonly name = 'UnknownRefusedChangeError';

  constructor(readonly id: number) {
    super(`no refused change ${id}`);
  }
}

const WHAT: Record<OutboxItem['kind'], string> = {
  insert_page: 'the new page',
  update_page: 'the edit',
  delete_page: 'the deletion',
  insert_files: 'the upload',
};

export class RefusedChanges {
  constructor(
    private readonly deps: {
      db: CacheDb;
      outbox: Outbox;
      edits: LocalEdits;
      index: FileIndex;
    },
  ) {}

  /** The refused changes of the given spaces, oldest first. */
  list(spaceIds: readonly string[]): RefusedChange[] {
    const result: RefusedChange[] = [];
    for (const spaceId of spaceIds) {
      const failed = this.deps.outbox.failed(spaceId);
      if (failed.length === 0) continue;
      const pathOf = this.pathsOf(spaceId);
      const held = this.deps.outbox.held(spaceId);
      for (const item of failed) {
        result.push({
          id: item.id,
          spaceId,
          kind: item.kind,
          path: pathOf(item),
          pageId: item.pageId,
          reason: item.error ?? 'no reason given',
          holds: held
            .filter((entry) => entry.heldBy.id === item.id)
            .map((entry) => pathOf(entry.item))
            .filter((path): path is string => path !== null),
        });
      }
    }
    return result.sort((a, b) => a.id - b.id);
  }

  /**
   * What a push reports for a space: one problem per refused change, on its file, and one per
   * file whose change it holds back.
   */
  problems(spaceId: string): { path: string | null; pageId: string | null; message: string }[] {
    const problems: { path: string | null; pageId: string | null; message: string }[] = [];
    for (const refused of this.list([spaceId])) {
      problems.push({
        path: refused.path,
        pageId: refused.pageId,
        message: refusalMessage(refused),
      });
      for (const path of refused.holds) {
        problems.push({
          path,
          pageId: null,
          message: `waits for ${refused.path ?? `change ${refused.id}`}, which the server refused (refused change #${refused.id}: retry or drop it)`,
        });
      }
    }
    return problems;
  }

  /** Re-queues one refused change, or (no id) every one of the given spaces. Returns how many. */
  retry(spaceIds: readonly string[], id?: number): number {
    if (id !== undefined) {
      if (!this.deps.outbox.retry(id)) throw new UnknownRefusedChangeError(id);
      return 1;
    }
    let count = 0;
    for (const refused of this.list(spaceIds)) {
      if (this.deps.outbox.retry(refused.id)) count++;
    }
    return count;
  }

  /**
   * Drops a refused change from the outbox. Its file stays as it is, a local-only edit: not
   * pushed again until it is edited (a dropped new page is then a new page again; the pages it
   * held are dropped with it and stay local-only the same way).
   */
  drop(spaceIds: readonly string[], id: number): RefusedChange {
    const refused = this.list(spaceIds).find((change) => change.id === id);
    if (refused === undefined) throw new UnknownRefusedChangeError(id);
    this.deps.db.transaction(() => {
      const dropped = this.deps.outbox.drop(id);
      for (const localKey of dropped?.droppedInserts ?? []) {
        this.deps.edits.makeLocalOnly(refused.spaceId, localKey);
      }
    })();
    return refused;
  }

  /** The file each change of the space came from (see RefusedChange.path). */
  private pathsOf(spaceId: string): (item: OutboxItem) => string | null {
    const edits = this.deps.edits.list(spaceId);
    const indexed = this.deps.index.entries(spaceId);
    return (item) => {
      if (item.kind === 'insert_files') return item.localKey;
      if (item.localKey !== null) {
        const queued = edits.find((edit) => edit.localKey === item.localKey);
        if (queued !== undefined) return queued.path;
      }
      if (item.pageId === null) return null;
      // A deletion is about the file that was deleted; anything else about the page's file now.
      const deleting = item.kind === 'delete_page';
      return (
        edits.find(
          (edit) => edit.pageId === item.pageId && (edit.contentHash === null) === deleting,
        )?.path ??
        indexed.find((entry) => entry.pageId === item.pageId)?.path ??
        null
      );
    };
  }
}

/**
 * `the server refused <what> (<its reason>); <what the user can do>`. The file is the problem's
 * path, printed beside it, so the message does not repeat it.
 */
export function refusalMessage(refused: RefusedChange): string {
  return `the server refused ${WHAT[refused.kind]} (${refused.reason}); fix it and retry refused change #${refused.id}, or drop it to keep the file local`;
}
