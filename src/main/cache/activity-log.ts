import type { ActivityEntry, ActivityKind } from '../../shared/contract/activity';
import type { CacheDb } from './open-cache-database';

/** How many lines the log keeps; older ones are dropped as new ones come. */
export const ACTIVITY_LOG_LIMIT = 500;

export type NewActivity = Omit<ActivityEntry, 'id'>;

interface ActivityRow {
  id: number;
  at: string;
  kind: ActivityKind;
  space_id: string | null;
  space_title: string | null;
  summary: string;
  files: string;
}

/** The `activity` table: a bounded, durable log of what syncs did, newest first. */
export class ActivityLog {
  constructor(
    private readonly db: CacheDb,
    private readonly limit: number = ACTIVITY_LOG_LIMIT,
  ) {}

  /** Appends the entries (in order) and drops what falls beyond the limit; returns them stored. */
  add(entries: readonly NewActivity[]): ActivityEntry[] {
    if (entries.length === 0) return [];
    const insert = this.db.prepare(
      `INSERT INTO activity (at, kind, space_id, space_title, summary, files)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      const stored = entries.map((entry) => {
        const { lastInsertRowid } = insert.run(
          entry.at,
          entry.kind,
          entry.spaceId,
          entry.spaceTitle,
          entry.summary,
          JSON.stringify(entry.files),
        );
        return { id: Number(lastInsertRowid), ...entry };
      });
      this.db
        .prepare('DELETE FROM activity WHERE id <= (SELECT max(id) FROM activity) - ?')
        .run(this.limit);
      return stored;
    })();
  }

  /** The newest `limit` entries, newest first. */
  list(limit: number = this.limit): ActivityEntry[] {
    const rows = this.db
      .prepare('SELECT * FROM activity ORDER BY id DESC LIMIT ?')
      .all(Math.max(0, Math.floor(limit))) as ActivityRow[];
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      kind: row.kind,
      spaceId: row.space_id,
      spaceTitle: row.space_title,
      summary: row.summary,
      files: parseFiles(row.files),
    }));
  }
}

function parseFiles(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
  } catch {
    return [];
  }
}
