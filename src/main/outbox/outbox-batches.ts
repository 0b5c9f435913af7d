import { randomUUID } from 'node:crypto';
import type { CacheDb } from '../cache/open-cache-database';
import type { Clock } from '../sync-ports';
import type { BatchPositions } from './batch-positions';
import type { OutboxItem } from './outbox-change';
import type { ContentChange, ContentChangesBody, ContentUpdateResult } from './outbox-remote';
import { itemOf, payloadOf, refFor, type OutboxPayload, type OutboxRow } from './outbox-row';

/** Published maximum of changes per updateChangeRequestContent call. */
export const MAX_BATCH_CHANGES = 50;

/** How long settled batches are kept (for diagnosis): the server keeps keys as long. */
const SETTLED_RETENTION_MS = 24 * 60 * 60 * 1000;

/** One updateChangeRequestContent call, persisted before it is sent. */
export interface OutboxBatch {
  /** The Idempotency-Key. */
  id: string;
  spaceId: string;
  changeRequestId: string;
  body: ContentChangesBody;
  state: 'ready' | 'sent' | 'acknowledged' | 'failed';
  attempts: number;
  createdAt: string;
  sentAt: string | null;
}

export interface Acknowledged {
  /** The changes the batch carried, with the page ids they ended up with. */
  items: OutboxItem[];
  created: { localKey: string; pageId: string }[];
  insertedFiles: { localKey: string; fileId: string }[];
  warnings: string[];
}

interface BatchRow {
  id: string;
  space_id: string;
  change_request_id: string;
  payload: string;
  state: OutboxBatch['state'];
  attempts: number;
  created_at: string;
  sent_at: string | null;
}

/**
 * The batch side of the outbox (`outbox_batches`): forming a batch from waiting changes, and
 * settling it once the server answered. Each step is one transaction.
 */
export class OutboxBatches {
  constructor(
    private readonly db: CacheDb,
    private readonly clock: Clock,
    private readonly newKey: () => string = randomUUID,
  ) {}

  /** The space's batch written but not acknowledged (at most one is open at a time). */
  open(spaceId: string): OutboxBatch | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM outbox_batches WHERE space_id = ? AND state IN ('ready', 'sent')
         ORDER BY created_at, rowid LIMIT 1`,
      )
      .get(spaceId) as BatchRow | undefined;
    return row ? batchOf(row) : undefined;
  }

  /** Whether a change waiting to be put in a batch has a position (`at`) to fit. */
  hasPositions(spaceId: string): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM outbox WHERE space_id = ? AND state = 'pending'
             AND json_extract(payload, '$.at') IS NOT NULL LIMIT 1`,
        )
        .get(spaceId) !== undefined
    );
  }

  /** Whether the space has changes waiting to be put in a batch. */
  hasWaiting(spaceId: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM outbox WHERE space_id = ? AND state = 'pending' LIMIT 1")
        .get(spaceId) !== undefined
    );
  }

  /**
   * Writes the next batch: the longest run of waiting changes, in order, that can be sent now
   * (≤ 50). A change naming a page inserted earlier in the same batch ends it (the API takes
   * `page` and `into` as ids, which the server assigns on insert); it leads the next one. A change
   * whose page's insert was refused waits (skipped) until that insert succeeds; one whose insert
   * no longer exists at all can never be sent and is marked failed. A change marked `solo`
   * goes alone; one with a `batch_cap` (left by a refused batch being split) never joins a batch
   * larger than that. With `positions` (the change request's tree), every `at` is
   * fitted to it (see BatchPositions). Returns undefined when nothing can be sent.
   */
  form(
    spaceId: string,
    changeRequestId: string,
    positions?: BatchPositions,
  ): OutboxBatch | undefined {
    return this.db.transaction(() => {
      const rows = this.db
        .prepare("SELECT * FROM outbox WHERE space_id = ? AND state = 'pending' ORDER BY id")
        .all(spaceId) as OutboxRow[];
      const inserts = new Set(
        (
          this.db
            .prepare("SELECT local_key FROM outbox WHERE space_id = ? AND kind = 'insert_page'")
            .all(spaceId) as { local_key: string }[]
        ).map((row) => row.local_key),
      );
      const created = this.createdPages(spaceId);
      const chosen: { row: OutboxRow; change: ContentChange }[] = [];
      const insertedHere = new Set<string>();
      let limit = MAX_BATCH_CHANGES;

      for (const row of rows) {
        if (chosen.length >= limit) break;
        const payload = payloadOf(row);
        const waitingFor: string[] = [];
        const idOf = (localKey: string): string | undefined => {
          const id = created.get(localKey);
          if (id === undefined) waitingFor.push(localKey);
          return id;
        };
        const pageId =
          row.kind === 'update_page' || row.kind === 'delete_page'
            ? (row.page_id ?? idOf(row.local_key!))
            : undefined;
        const into =
          payload.into === undefined || payload.into === null
            ? payload.into
            : 'pageId' in payload.into
              ? payload.into.pageId
              : idOf(payload.into.localKey);

        if (waitingFor.some((key) => insertedHere.has(key))) break;
        if (waitingFor.length > 0) {
          const gone = waitingFor.find((key) => !inserts.has(key));
          if (gone !== undefined) {
            this.db
              .prepare("UPDATE outbox SET state = 'failed', error = ? WHERE id = ?")
              .run(
                `Page "${gone}" was never created (its insert was cancelled or given up)`,
                row.id,
              );
          }
          continue;
        }
        const cap = row.solo ? 1 : row.batch_cap > 0 ? row.batch_cap : MAX_BATCH_CHANGES;
        if (chosen.length >= cap) break;
        const change = changeOf(row, payload, pageId, into);
        chosen.push({ row, change: positions ? positions.fit(change) : change });
        if (row.kind === 'insert_page') insertedHere.add(row.local_key!);
        limit = Math.min(limit, cap);
      }
      if (chosen.length === 0) return undefined;

      const id = this.newKey();
      const now = this.clock.now().toISOString();
      const body: ContentChangesBody = { changes: chosen.map((entry) => entry.change) };
      this.db
        .prepare(
          `INSERT INTO outbox_batches (id, space_id, change_request_id, payload, state, created_at)
           VALUES (?, ?, ?, ?, 'ready', ?)`,
        )
        .run(id, spaceId, changeRequestId, JSON.stringify(body), now);
      const claim = this.db.prepare(
        "UPDATE outbox SET state = 'sending', batch_id = ?, batch_position = ? WHERE id = ?",
      );
      chosen.forEach((entry, position) => claim.run(id, position, entry.row.id));
      return this.get(id);
    })();
  }

  /** Recorded before each send: from here on the server may have applied it. */
  markSent(id: string): void {
    this.db
      .prepare(
        "UPDATE outbox_batches SET state = 'sent', attempts = attempts + 1, sent_at = ? WHERE id = ?",
      )
      .run(this.clock.now().toISOString(), id);
  }

  /** The batch's changes, in body order. */
  items(batchId: string): OutboxItem[] {
    return this.rowsOf(batchId).map(itemOf);
  }

  /**
   * The server applied the batch: its changes leave the outbox, inserted pages and files are
   * recorded by local key, and waiting changes naming those keys now name the new ids.
   */
  acknowledge(batch: OutboxBatch, result: ContentUpdateResult): Acknowledged {
    return this.db.transaction(() => {
      const rows = this.rowsOf(batch.id);
      const now = this.clock.now().toISOString();
      const warnings: string[] = [];
      const keyOfRef = new Map<string, string>();
      for (const row of rows) {
        if (row.kind === 'insert_page') keyOfRef.set(refFor(row.local_key!), row.local_key!);
      }
      const remember = this.db.prepare(
        `INSERT OR REPLACE INTO outbox_created
           (space_id, local_key, kind, remote_id, change_request_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      const created: Acknowledged['created'] = [];
      for (const change of result.changes) {
        if (change.object !== 'created_page') continue;
        const localKey = change.ref === undefined ? undefined : keyOfRef.get(change.ref);
        if (localKey === undefined) continue;
        keyOfRef.delete(change.ref!);
        remember.run(batch.spaceId, localKey, 'page', change.pageId, batch.changeRequestId, now);
        created.push({ localKey, pageId: change.pageId });
        this.db
          .prepare(
            `UPDATE outbox SET page_id = ? WHERE space_id = ? AND local_key = ? AND page_id IS NULL
               AND kind IN ('update_page', 'delete_page')`,
          )
          .run(change.pageId, batch.spaceId, localKey);
        this.db
          .prepare(
            `UPDATE outbox SET payload = json_set(payload, '$.into', json_object('pageId', ?))
             WHERE space_id = ? AND json_extract(payload, '$.into.localKey') = ?`,
          )
          .run(change.pageId, batch.spaceId, localKey);
      }
      for (const localKey of keyOfRef.values()) {
        warnings.push(`The server did not say which page the insert of "${localKey}" created`);
      }

      const fileRows = rows.filter((row) => row.kind === 'insert_files');
      const insertedFiles: Acknowledged['insertedFiles'] = [];
      fileRows.forEach((row, index) => {
        const file = result.insertedFiles[index];
        if (!file) {
          warnings.push(`The server returned no file for "${row.local_key}"`);
          return;
        }
        remember.run(batch.spaceId, row.local_key, 'file', file.id, batch.changeRequestId, now);
        insertedFiles.push({ localKey: row.local_key!, fileId: file.id });
      });

      const pageOfKey = new Map(created.map((entry) => [entry.localKey, entry.pageId]));
      const items = rows.map((row) => {
        const item = itemOf(row);
        if (item.kind === 'insert_page') item.pageId = pageOfKey.get(item.localKey!) ?? null;
        return item;
      });
      this.db.prepare('DELETE FROM outbox WHERE batch_id = ?').run(batch.id);
      this.db
        .prepare(
          "UPDATE outbox_batches SET state = 'acknowledged', acknowledged_at = ? WHERE id = ?",
        )
        .run(now, batch.id);
      this.prune();
      return { items, created, insertedFiles, warnings };
    })();
  }

  /**
   * The server refused the batch (a 4xx that retrying cannot fix). It applies a batch atomically,
   * so nothing of it was applied. When its message names the change at fault (`changes.N`), or
   * the batch held one change, that change is marked failed with the message and the others go
   * back to waiting; otherwise the batch is split in two (each change capped at half its size,
   * see form), and the halves are sent in turn until the refused change is alone. Either way the
   * rest keeps flowing.
   */
  fail(batch: OutboxBatch, message: string): OutboxItem[] {
    return this.db.transaction(() => {
      const rows = this.rowsOf(batch.id);
      const named = /\bchanges[./](\d+)\b/.exec(message);
      const position = rows.length === 1 ? 0 : named ? Number(named[1]) : undefined;
      const culprit = rows.find((row) => row.batch_position === position);
      const half = Math.ceil(rows.length / 2);
      const release = this.db.prepare(
        `UPDATE outbox SET state = 'pending', batch_id = NULL, batch_position = NULL,
           batch_cap = CASE WHEN ? > 0 THEN ? ELSE batch_cap END WHERE id = ?`,
      );
      for (const row of rows) {
        if (row === culprit) {
          this.db
            .prepare(
              `UPDATE outbox SET state = 'failed', error = ?, batch_id = NULL,
                 batch_position = NULL, solo = 1 WHERE id = ?`,
            )
            .run(message, row.id);
        } else {
          const cap = culprit === undefined ? half : 0;
          release.run(cap, cap, row.id);
        }
      }
      this.db
        .prepare("UPDATE outbox_batches SET state = 'failed', error = ? WHERE id = ?")
        .run(message, batch.id);
      return culprit ? [itemOf({ ...culprit, state: 'failed', error: message })] : [];
    })();
  }

  /**
   * The batch's change request can no longer be written (merged, archived, gone) and the server
   * did not apply the batch there: the same changes go to `changeRequestId` under a new key.
   */
  rebind(batch: OutboxBatch, changeRequestId: string, reason: string): OutboxBatch {
    return this.db.transaction(() => {
      const id = this.newKey();
      this.db
        .prepare(
          `INSERT INTO outbox_batches (id, space_id, change_request_id, payload, state, created_at)
           SELECT ?, space_id, ?, payload, 'ready', ? FROM outbox_batches WHERE id = ?`,
        )
        .run(id, changeRequestId, this.clock.now().toISOString(), batch.id);
      this.db.prepare('UPDATE outbox SET batch_id = ? WHERE batch_id = ?').run(id, batch.id);
      this.db
        .prepare("UPDATE outbox_batches SET state = 'failed', error = ? WHERE id = ?")
        .run(reason, batch.id);
      return this.get(id);
    })();
  }

  get(id: string): OutboxBatch {
    const row = this.db.prepare('SELECT * FROM outbox_batches WHERE id = ?').get(id) as
      BatchRow | undefined;
    if (!row) throw new Error(`No outbox batch ${id}`);
    return batchOf(row);
  }

  private rowsOf(batchId: string): OutboxRow[] {
    return this.db
      .prepare('SELECT * FROM outbox WHERE batch_id = ? ORDER BY batch_position')
      .all(batchId) as OutboxRow[];
  }

  private createdPages(spaceId: string): Map<string, string> {
    const rows = this.db
      .prepare(
        "SELECT local_key, remote_id FROM outbox_created WHERE space_id = ? AND kind = 'page'",
      )
      .all(spaceId) as { local_key: string; remote_id: string }[];
    return new Map(rows.map((row) => [row.local_key, row.remote_id]));
  }

  /** Settled batches no longer referenced, once the server has forgotten their keys too. */
  private prune(): void {
    const before = new Date(this.clock.now().getTime() - SETTLED_RETENTION_MS).toISOString();
    this.db
      .prepare(
        `DELETE FROM outbox_batches WHERE state IN ('acknowledged', 'failed') AND created_at < ?
           AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.batch_id = outbox_batches.id)`,
      )
      .run(before);
  }
}

function batchOf(row: BatchRow): OutboxBatch {
  return {
    id: row.id,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    body: JSON.parse(row.payload) as ContentChangesBody,
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** The API change for a row, with local keys already resolved to ids. */
function changeOf(
  row: OutboxRow,
  payload: OutboxPayload,
  pageId: string | undefined,
  into: string | null | undefined,
): ContentChange {
  const at = payload.at !== undefined ? { at: payload.at } : {};
  switch (row.kind) {
    case 'insert_page':
      return {
        operation: 'insert_page',
        ref: refFor(row.local_key!),
        ...payload.fields,
        document: { markdown: payload.markdown ?? '' },
        // The top level is `into` omitted (the insert schema takes no null).
        ...(typeof into === 'string' ? { into } : {}),
        ...at,
      };
    case 'update_page':
      return {
        operation: 'update_page',
        page: pageId!,
        ...payload.fields,
        ...(payload.markdown !== undefined ? { document: { markdown: payload.markdown } } : {}),
        ...(into !== undefined ? { into } : {}),
        ...at,
      };
    case 'delete_page':
      return { operation: 'delete_page', page: pageId! };
    case 'insert_files': {
      const file = payload.file!;
      return {
        operation: 'insert_files',
        files: [
          {
            ref: refFor(row.local_key!),
            name: file.name,
            contentType: file.contentType,
            base64: file.base64,
          },
        ],
      };
    }
  }
}
