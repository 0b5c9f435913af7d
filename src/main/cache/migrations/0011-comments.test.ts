import { describe, expect, it } from 'vitest';
import { ONE_SPACE, migratedCache } from '../../../../test/support/migrated-cache';

const open = migratedCache(11);

describe('migration 0011 (comments)', () => {
  it('upgrades a version 10 cache, keeping its data', () => {
    const v10 = open(10);
    v10.exec(ONE_SPACE);
    v10.close();
    const db = open();
    expect(db.pragma('user_version', { simple: true })).toBe(11);
    expect(db.prepare('SELECT id FROM spaces').all()).toEqual([{ id: 's' }]);
  });

  it('drops mirrored comments with their space, never queued ones', () => {
    const db = open();
    db.exec(ONE_SPACE);
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
