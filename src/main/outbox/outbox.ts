import type { CacheDb } from '../cache/open-cache-database';
import type { Clock } from '../sync-ports';
import type {
  OutboxChange,
  OutboxCreated,
  OutboxItem,
  OutboxPageFields,
  OutboxPageRef,
  OutboxPlacement,
} from './outbox-change';
import { isEmptyUpdate, itemOf, payloadOf, type OutboxPayload, type OutboxRow } from './outbox-row';
import { checkOutboxChange } from './check-outbox-change';
import { mergeContent, mergePlacement, withoutContent } from './merge-outbox-payload';

export interface OutboxOptions {
  /** The cache database: the same connection the file index is written through. */
  db: CacheDb;
  clock: Clock;
}

/** A page as the outbox tracks it: its id once known, its insert's local key while it is new. */
interface Target {
  pageId: string | null;
  localKey: string | null;
}

/**
 * The durable queue of local edits, one SQLite table in the cache. `enqueue` is synchronous and
 * meant to run INSIDE the `db.transaction` in which the engine records the edit in the file index:
 * better-sqlite3 nests it as a savepoint there, so the edit and the index commit (or roll back)
 * together and a crash can neither lose an edit nor record one twice. Called outside a
 * transaction it runs in its own. (It takes no transaction argument: better-sqlite3 has no
 * transaction handle, the open transaction belongs to the connection, so the Outbox must be built
 * on the same `db` the file index writes through.)
 *
 * Changes coalesce per page while they wait (rows in a batch being sent are frozen):
 * - update after update: one change, the latest Markdown and the latest value of each field;
 * - update after insert (same local key): merged into the insert;
 * - delete after insert: both disappear, with the inserts placed inside it (their parent will
 *   never exist); moves into it lose their placement (the page stays where it is);
 * - delete after update: the delete only;
 * - moves: the latest parent and position. A move merges into the page's waiting change only
 *   when nothing was queued after that change (a position is only meaningful against the changes
 *   before it); otherwise it waits as a change of its own, after them.
 * Content merges into the page's earliest waiting change: the page exists there already, and
 * changes queued in between (a move out of a folder that is then deleted) keep their order.
 */
export class Outbox {
  private readonly db: CacheDb;
  private readonly clock: Clock;

  constructor(options: OutboxOptions) {
    this.db = options.db;
    this.clock = options.clock;
  }

  /**
   * Records one local edit (see the class comment for coalescing). An update or move of a page
   * with a delete waiting is dropped: the page is going away.
   */
  enqueue(change: OutboxChange): void {
    checkOutboxChange(change);
    this.db.transaction(() => {
      switch (change.kind) {
        case 'update_page':
          this.update(change.spaceId, change.page, {
            ...(change.markdown !== undefined ? { markdown: change.markdown } : {}),
            ...(change.fields !== undefined ? { fields: change.fields } : {}),
            ...(change.move !== undefined ? { move: change.move } : {}),
          });
          break;
        case 'move_page':
          this.update(change.spaceId, change.page, { move: change.move });
          break;
        case 'insert_page':
          this.insert(change);
          break;
        case 'delete_page':
          this.remove(change.spaceId, change.page);
          break;
        case 'insert_files':
          this.insertFile(change);
          break;
      }
    })();
  }

  /** Changes still to be acknowledged (waiting or being sent), in the order they apply. */
  pending(spaceId: string): OutboxItem[] {
    return this.rows(
      "SELECT * FROM outbox WHERE space_id = ? AND state != 'failed' ORDER BY id",
      spaceId,
    ).map(itemOf);
  }

  /** Spaces with changes in the outbox (failed ones included). */
  spaces(): string[] {
    return (
      this.db.prepare('SELECT DISTINCT space_id FROM outbox ORDER BY space_id').all() as {
        space_id: string;
      }[]
    ).map((row) => row.space_id);
  }

  /**
   * Changes the server refused, each with its message. A later edit of the page retries it, as
   * retry() does; drop() gives it up.
   */
  failed(spaceId: string): OutboxItem[] {
    return this.rows(
      "SELECT * FROM outbox WHERE space_id = ? AND state = 'failed' ORDER BY id",
      spaceId,
    ).map(itemOf);
  }

  /**
   * Changes of a space still to be sent or answered (waiting or being sent), without the failed
   * ones and those held by a failed insert (see held): neither goes out until the user acts.
   */
  unsent(spaceId: string): number {
    const row = this.db
      .prepare("SELECT count(*) AS n FROM outbox WHERE space_id = ? AND state != 'failed'")
      .get(spaceId) as { n: number };
    return row.n - this.held(spaceId).length;
  }

  /**
   * Waiting changes that cannot be sent because they name a page whose insert the server
   * refused (a page inserted under it, a move into it, an edit of it), each with that insert;
   * transitively, so the pages inside a held insert are held by the same refusal. They go out
   * once the insert is retried and accepted, and are cancelled with it when it is dropped.
   */
  held(spaceId: string): { item: OutboxItem; heldBy: OutboxItem }[] {
    const blockers = new Map<string, OutboxItem>();
    for (const failed of this.failed(spaceId)) {
      if (failed.kind === 'insert_page' && failed.localKey !== null) {
        blockers.set(failed.localKey, failed);
      }
    }
    if (blockers.size === 0) return [];
    const held: { item: OutboxItem; heldBy: OutboxItem }[] = [];
    // In queue order: a change only ever names inserts queued before it.
    for (const item of this.rows(
      "SELECT * FROM outbox WHERE space_id = ? AND state = 'pending' ORDER BY id",
      spaceId,
    ).map(itemOf)) {
      const names = [
        item.kind !== 'insert_page' && item.pageId === null ? item.localKey : null,
        item.into && 'localKey' in item.into ? item.into.localKey : null,
      ];
      const heldBy = names
        .map((key) => (key === null ? undefined : blockers.get(key)))
        .find(Boolean);
      if (heldBy === undefined) continue;
      held.push({ item, heldBy });
      if (item.kind === 'insert_page' && item.localKey !== null)
        blockers.set(item.localKey, heldBy);
    }
    return held;
  }

  /** A change the server refused, by id. */
  failedItem(id: number): OutboxItem | undefined {
    return this.rows("SELECT * FROM outbox WHERE id = ? AND state = 'failed'", id).map(itemOf)[0];
  }

  /**
   * Puts a refused change back in the queue (the user fixed what the server objected to, or the
   * server changed): it is sent alone, so a second refusal holds back nothing else. A refused
   * insert loses its position and goes last among its siblings: the position was counted in a
   * tree that has moved on since. Returns whether there was such a change.
   */
  retry(id: number): boolean {
    const row = this.rows("SELECT * FROM outbox WHERE id = ? AND state = 'failed'", id)[0];
    if (row === undefined) return false;
    const { at: _at, ...placed } = payloadOf(row);
    const payload = row.kind === 'insert_page' ? placed : payloadOf(row);
    this.db
      .prepare(
        "UPDATE outbox SET state = 'pending', error = NULL, solo = 1, payload = ? WHERE id = ?",
      )
      .run(JSON.stringify(payload), id);
    return true;
  }

  /**
   * Drops a refused change (the user chose to): a refused insert takes the changes it held with
   * it (the pages inserted inside it are cancelled, moves into it stay where they are). Returns
   * the local keys of every page insert dropped, so their files can be marked local-only; undefined
   * when `id` names no refused change.
   */
  drop(id: number): { item: OutboxItem; droppedInserts: string[] } | undefined {
    const item = this.failedItem(id);
    if (item === undefined) return undefined;
    return this.db.transaction(() => {
      const droppedInserts: string[] = [];
      if (item.kind === 'insert_page' && item.localKey !== null) {
        droppedInserts.push(item.localKey);
        for (const { item: held, heldBy } of this.held(item.spaceId)) {
          if (heldBy.id === item.id && held.kind === 'insert_page' && held.localKey !== null) {
            droppedInserts.push(held.localKey);
          }
        }
        this.cancelInsert(item.spaceId, item.localKey);
      }
      this.db.prepare('DELETE FROM outbox WHERE id = ?').run(id);
      return { item, droppedInserts };
    })();
  }

  /** Unacknowledged changes (waiting, being sent or failed), of one space or of all. */
  count(spaceId?: string): number {
    const row = (
      spaceId === undefined
        ? this.db.prepare('SELECT count(*) AS n FROM outbox').get()
        : this.db.prepare('SELECT count(*) AS n FROM outbox WHERE space_id = ?').get(spaceId)
    ) as { n: number };
    return row.n;
  }

  /**
   * Pages and files created by acknowledged inserts, by local key. They stay until the engine
   * has recorded the ids (forgetCreated, in the transaction that writes them to the file index):
   * a crash in between must not make a pushed page look new again.
   */
  created(spaceId: string): OutboxCreated[] {
    const rows = this.db
      .prepare('SELECT * FROM outbox_created WHERE space_id = ? ORDER BY created_at, local_key')
      .all(spaceId) as {
      space_id: string;
      kind: 'page' | 'file';
      local_key: string;
      remote_id: string;
      change_request_id: string;
    }[];
    return rows.map((row) => ({
      spaceId: row.space_id,
      kind: row.kind,
      localKey: row.local_key,
      remoteId: row.remote_id,
      changeRequestId: row.change_request_id,
    }));
  }

  forgetCreated(spaceId: string, localKeys: readonly string[], kind: 'page' | 'file' = 'page') {
    const forget = this.db.prepare(
      'DELETE FROM outbox_created WHERE space_id = ? AND kind = ? AND local_key = ?',
    );
    this.db.transaction(() => {
      for (const key of localKeys) forget.run(spaceId, kind, key);
    })();
  }

  /**
   * Drops the waiting and failed changes of one page, or the file uploads queued from one path
   * (a conflict resolved with the remote version, a page deleted remotely); changes in a batch
   * being sent stay. Returns how many were dropped.
   */
  dropPage(spaceId: string, target: { pageId: string } | { filePath: string }): number {
    if ('pageId' in target) {
      return this.db
        .prepare("DELETE FROM outbox WHERE space_id = ? AND page_id = ? AND state != 'sending'")
        .run(spaceId, target.pageId).changes;
    }
    return this.db
      .prepare(
        `DELETE FROM outbox WHERE space_id = ? AND kind = 'insert_files' AND local_key = ?
           AND state != 'sending'`,
      )
      .run(spaceId, target.filePath).changes;
  }

  /**
   * Drops what waits to change a page's Markdown and fields (a conflict holds its text back, or
   * resolving it replaces the text) while keeping where it was moved: the move is the user's
   * too, and the file stays at its new path, so no later scan would queue it again. A waiting
   * delete of the page goes too. Changes in a batch being sent stay. Returns how many changes
   * were dropped or trimmed.
   */
  dropContent(spaceId: string, pageId: string): number {
    let touched = 0;
    const drop = this.db.prepare('DELETE FROM outbox WHERE id = ?');
    for (const row of this.waitingRowsOf(spaceId, { pageId, localKey: null })) {
      touched++;
      const { markdown: _markdown, fields: _fields, ...placement } = payloadOf(row);
      if (row.kind !== 'update_page' || isEmptyUpdate(placement)) drop.run(row.id);
      else this.save(row, placement, true);
    }
    return touched;
  }

  /** Drops everything queued for a space (the space is gone or the user discards the edits). */
  discard(spaceId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM outbox WHERE space_id = ?').run(spaceId);
      this.db.prepare('DELETE FROM outbox_batches WHERE space_id = ?').run(spaceId);
      this.db.prepare('DELETE FROM outbox_created WHERE space_id = ?').run(spaceId);
    })();
  }

  private update(
    spaceId: string,
    page: OutboxPageRef,
    change: { markdown?: string; fields?: OutboxPageFields; move?: OutboxPlacement },
  ): void {
    const target = this.resolve(spaceId, page);
    const rows = this.waitingRowsOf(spaceId, target);
    if (rows.some((row) => row.kind === 'delete_page')) return;
    const resolved = change.move ? this.resolvePlacement(spaceId, change.move) : undefined;
    const move = resolved && !isEmptyUpdate(resolved) ? resolved : undefined;
    const content: OutboxPayload = {
      ...(change.markdown !== undefined ? { markdown: change.markdown } : {}),
      ...(change.fields !== undefined ? { fields: change.fields } : {}),
    };
    const first = rows[0];
    if (!first) {
      this.append(spaceId, 'update_page', target, { ...content, ...move });
      return;
    }
    this.save(first, mergeContent(payloadOf(first), content));
    // Later changes of the page (moves queued separately) must not carry older content over it.
    let last = first;
    for (const row of rows.slice(1)) {
      const payload = withoutContent(payloadOf(row), content);
      if (isEmptyUpdate(payload)) {
        this.db.prepare('DELETE FROM outbox WHERE id = ?').run(row.id);
        continue;
      }
      this.save(row, payload, true);
      last = row;
    }
    if (move) this.place(spaceId, target, last, move);
  }

  private insert(change: Extract<OutboxChange, { kind: 'insert_page' }>): void {
    const target: Target = { pageId: null, localKey: change.localKey };
    const existing = this.waitingRowsOf(change.spaceId, target).find(
      (row) => row.kind === 'insert_page',
    );
    const placement: OutboxPlacement = {
      into: change.into ?? null,
      ...(change.at !== undefined ? { at: change.at } : {}),
    };
    if (existing) {
      // The same page inserted again before it was pushed: its latest state wins.
      this.update(
        change.spaceId,
        { localKey: change.localKey },
        {
          markdown: change.markdown,
          ...(change.fields !== undefined ? { fields: change.fields } : {}),
          move: placement,
        },
      );
      return;
    }
    this.append(change.spaceId, 'insert_page', target, {
      markdown: change.markdown,
      ...(change.fields !== undefined ? { fields: change.fields } : {}),
      ...this.resolvePlacement(change.spaceId, placement),
    });
  }

  private remove(spaceId: string, page: OutboxPageRef): void {
    const target = this.resolve(spaceId, page);
    const rows = this.waitingRowsOf(spaceId, target);
    const insert = rows.find((row) => row.kind === 'insert_page');
    if (insert) {
      // Never pushed: nothing to tell the server.
      this.cancelInsert(spaceId, insert.local_key!);
      return;
    }
    if (rows.some((row) => row.kind === 'delete_page')) return;
    const drop = this.db.prepare('DELETE FROM outbox WHERE id = ?');
    for (const row of rows) drop.run(row.id);
    this.append(spaceId, 'delete_page', target, {});
  }

  private insertFile(change: Extract<OutboxChange, { kind: 'insert_files' }>): void {
    const existing = this.rows(
      `SELECT * FROM outbox WHERE space_id = ? AND kind = 'insert_files' AND local_key = ?
         AND state != 'sending' ORDER BY id`,
      change.spaceId,
      change.localKey,
    )[0];
    if (existing) {
      this.save(existing, { file: change.file });
      return;
    }
    this.append(
      change.spaceId,
      'insert_files',
      { pageId: null, localKey: change.localKey },
      { file: change.file },
    );
  }

  /**
   * Removes a never-pushed insert with every waiting change of its page, the inserts placed
   * inside it (recursively) and the placement of moves into it.
   */
  private cancelInsert(spaceId: string, localKey: string): void {
    this.db
      .prepare(
        `DELETE FROM outbox WHERE space_id = ? AND local_key = ? AND kind != 'insert_files'
           AND state != 'sending'`,
      )
      .run(spaceId, localKey);
    const inside = this.rows(
      `SELECT * FROM outbox WHERE space_id = ? AND state != 'sending'
         AND json_extract(payload, '$.into.localKey') = ? ORDER BY id`,
      spaceId,
      localKey,
    );
    for (const row of inside) {
      if (row.kind === 'insert_page') {
        this.cancelInsert(spaceId, row.local_key!);
        continue;
      }
      const { into: _into, at: _at, ...rest } = payloadOf(row);
      if (isEmptyUpdate(rest)) this.db.prepare('DELETE FROM outbox WHERE id = ?').run(row.id);
      else this.save(row, rest, true);
    }
  }

  /**
   * Puts a move on the page's last waiting change when nothing was queued after it, else queues
   * it as a change of its own.
   */
  private place(spaceId: string, target: Target, last: OutboxRow, move: OutboxPayload): void {
    const tail = (
      this.db.prepare('SELECT max(id) AS id FROM outbox WHERE space_id = ?').get(spaceId) as {
        id: number;
      }
    ).id;
    if (last.id === tail) {
      const current = this.fresh(last.id);
      this.save(current, mergePlacement(payloadOf(current), move));
    } else {
      this.append(spaceId, 'update_page', target, move);
    }
  }

  /** The page's changes that may still change (not in a batch being sent), in order. */
  private waitingRowsOf(spaceId: string, target: Target): OutboxRow[] {
    return this.db
      .prepare(
        `SELECT * FROM outbox WHERE space_id = @spaceId AND kind != 'insert_files'
           AND state != 'sending'
           AND ((@pageId IS NOT NULL AND page_id = @pageId)
             OR (@localKey IS NOT NULL AND local_key = @localKey))
         ORDER BY id`,
      )
      .all({ spaceId, pageId: target.pageId, localKey: target.localKey }) as OutboxRow[];
  }

  /** A local key whose insert was acknowledged becomes the page's id. */
  private resolve(spaceId: string, ref: OutboxPageRef): Target {
    if ('pageId' in ref) return { pageId: ref.pageId, localKey: null };
    const created = this.db
      .prepare(
        "SELECT remote_id FROM outbox_created WHERE space_id = ? AND kind = 'page' AND local_key = ?",
      )
      .get(spaceId, ref.localKey) as { remote_id: string } | undefined;
    return { pageId: created?.remote_id ?? null, localKey: ref.localKey };
  }

  private resolvePlacement(spaceId: string, placement: OutboxPlacement): OutboxPayload {
    const result: OutboxPayload = {};
    if (placement.into !== undefined) {
      if (placement.into === null) result.into = null;
      else {
        const parent = this.resolve(spaceId, placement.into);
        result.into = parent.pageId ? { pageId: parent.pageId } : { localKey: parent.localKey! };
      }
    }
    if (placement.at !== undefined) result.at = placement.at;
    return result;
  }

  private append(
    spaceId: string,
    kind: OutboxRow['kind'],
    target: Target,
    payload: OutboxPayload,
  ): void {
    if (kind === 'update_page' && isEmptyUpdate(payload)) return;
    const now = this.clock.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO outbox (space_id, kind, page_id, local_key, payload, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        spaceId,
        kind,
        kind === 'insert_page' || kind === 'insert_files' ? null : target.pageId,
        target.localKey,
        JSON.stringify(payload),
        now,
        now,
      );
  }

  /**
   * Rewrites a waiting change. A failed one goes back to pending: the new edit may be what fixes
   * it (it keeps being sent alone). `keepState` is for changes the user did not make.
   */
  private save(row: OutboxRow, payload: OutboxPayload, keepState = false): void {
    const reset = !keepState && row.state === 'failed';
    this.db
      .prepare('UPDATE outbox SET payload = ?, updated_at = ?, state = ?, error = ? WHERE id = ?')
      .run(
        JSON.stringify(payload),
        this.clock.now().toISOString(),
        reset ? 'pending' : row.state,
        reset ? null : row.error,
        row.id,
      );
  }

  private fresh(id: number): OutboxRow {
    return this.db.prepare('SELECT * FROM outbox WHERE id = ?').get(id) as OutboxRow;
  }

  private rows(sql: string, ...params: unknown[]): OutboxRow[] {
    return this.db.prepare(sql).all(...params) as OutboxRow[];
  }
}
