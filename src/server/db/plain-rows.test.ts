import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { allPlain, getPlain } from './plain-rows';

const db = new Database(':memory:');
afterAll(() => db.close());
db.exec(`
  CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, r REAL, b BLOB, maybe TEXT);
  INSERT INTO t VALUES ('a', 1, 1.5, x'0102', NULL), ('b', -7, 0.25, NULL, 'é ✓');
`);

describe('plain rows from raw statements', () => {
  const sql = `SELECT t.*, n * 2 AS doubled, t.id AS id2, 'later' AS maybe FROM t ORDER BY id`;

  it('gives the objects better-sqlite3 would: keys, their order, values, duplicates', () => {
    const objects = db.prepare(sql).all();
    const plain = allPlain(db.prepare(sql).raw(true));
    expect(plain).toStrictEqual(objects);
    expect(plain.map((row) => Object.keys(row as object))).toEqual(
      objects.map((row) => Object.keys(row as object)),
    );
  });

  it('reads one row, or undefined when there is none', () => {
    const statement = db.prepare('SELECT id, n FROM t WHERE id = ?').raw(true);
    expect(getPlain(statement, 'b')).toStrictEqual({ id: 'b', n: -7 });
    expect(getPlain(statement, 'nope')).toBeUndefined();
  });
});
