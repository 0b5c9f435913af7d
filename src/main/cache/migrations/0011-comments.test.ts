import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../open-cache-database';
import { cacheMigrations } from './cache-migrations';

const UP_TO_11 = cacheMigrations.slice(0, 11);

let dir: string;
const opened: CacheDb[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-cache-comments-'));
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(migrations = UP_TO_11): CacheDb {
  const db = openCacheDatabase(join(dir, 'cache.db'), { migrations });
  opened.push(db);
  return db;
}

const SPACE = `INSERT INTO organizations (id, title, folder_name) VALUES ('o', 'O', 'O');
  INSERT INTO spaces (id, organization_id, title, folder_path, discovered_at)
  VALUES ('s', 'o', 'S', 'O/S', '2026-01-01T00:00:00.000Z');`;

describe('migration 0011 (comments)', () => {
  it('upgrades a version 10 cache, keeping its data', () => {
    const v10 = open(UP_TO_11.slice(0, 10));
    v10.exec(SPACE);
    v10.close();
    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(11);
    expect(db.prepare('SELECT id FROM spaces').all()).toEqual([{ id: 's' }]);
  });

  it('drops mirrored comments with their space, never queued ones', () => {
    const db = open();
    db.exec(SPACE);
    db.exec(`INSERT INTO comments (space_id, change_request, id, author_id, author_name, body,
        posted_at) VALUES ('s', 4, 'c1', 'u', 'U', 'Hi', 'now');
      INSERT INTO comment_outbox (space_id, change_request, kind, payload, idempotency_key,
        created_at) VALUES ('s', 4, 'create', '{"body":"Mine"}', 'k', 'now');`);
    expect(() =>
      db
        .prepare(
          `INSERT INTO comment_outbox (space_id, change_request, kind, payload, idempotency_key,
             created_at) VALUES ('s', 4, 'shout', '{}', 'k2', 'now')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    db.prepare("DELETE FROM spaces WHERE id = 's'").run();
    expect(db.prepare('SELECT count(*) AS n FROM comments').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM comment_outbox').get()).toEqual({ n: 1 });
  });
});
