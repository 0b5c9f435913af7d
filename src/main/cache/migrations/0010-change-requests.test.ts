import { describe, expect, it } from 'vitest';
import { ONE_SPACE, migratedCache } from '../../../../test/support/migrated-cache';

const open = migratedCache(10);

describe('migration 0010 (change requests)', () => {
  it('upgrades a version 9 cache, keeping its data', () => {
    const v9 = open(9);
    v9.exec(ONE_SPACE);
    v9.close();
    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(10);
    expect(db.prepare('SELECT id FROM spaces').all()).toEqual([{ id: 's' }]);
  });

  it('drops a revision page with its revision, and a change request with its space', () => {
    const db = open();
    db.exec(ONE_SPACE);
    db.exec(`INSERT INTO bodies (hash, markdown) VALUES ('h', 'text');
      INSERT INTO change_request_revisions (space_id, id, fetched_at) VALUES ('s', 'r', 'now');
      INSERT INTO change_request_pages (space_id, revision_id, id, position, type, title, meta, body_hash)
      VALUES ('s', 'r', 'p', 0, 'document', 'P', '{}', 'h');
      INSERT INTO change_requests (space_id, id, number, status, revision_id, base_revision_id,
        created_by, updated_at, fingerprint, json, fetched_at)
      VALUES ('s', 'c', 1, 'open', 'r', 'r', 'u', 'now', 'f', '{}', 'now');`);
    expect(() =>
      db
        .prepare(
          `INSERT INTO change_requests (space_id, id, number, status, revision_id, base_revision_id,
             created_by, updated_at, fingerprint, json, fetched_at)
           VALUES ('s', 'other', 1, 'open', 'r', 'r', 'u', 'now', 'f', '{}', 'now')`,
        )
        .run(),
    ).toThrow(/UNIQUE/);
    db.prepare("DELETE FROM change_request_revisions WHERE id = 'r'").run();
    expect(db.prepare('SELECT count(*) AS n FROM change_request_pages').get()).toEqual({ n: 0 });
    db.prepare("DELETE FROM spaces WHERE id = 's'").run();
    expect(db.prepare('SELECT count(*) AS n FROM change_requests').get()).toEqual({ n: 0 });
  });
});
