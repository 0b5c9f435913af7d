import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/open-database';
import { ApiError } from './api-error';
import {
  DEFAULT_PAGE_SIZE,
  listEnvelope,
  paginate,
  paginateArray,
  type KeysetQuery,
} from './paginate';

interface Item {
  id: string;
  grp: string;
  rank: number;
}

let dir: string;
let db: Db;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-paginate-'));
  db = new Database(join(dir, 'paginate.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE items (id TEXT PRIMARY KEY, grp TEXT NOT NULL, rank INTEGER NOT NULL)');
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The items of one group, sorted by (rank, id): many ranks tie, so the id decides. */
function itemsQuery(grp: string, direction: 'ASC' | 'DESC'): KeysetQuery {
  return {
    from: 'SELECT id, grp, rank FROM items',
    where: ['grp = ?'],
    params: [grp],
    orderBy: ['rank', 'id'],
    direction,
    keyOf: (row) => [row['rank'], row['id']],
    scope: `items:${grp}:${direction}`,
  };
}

/** -1, 0 or 1 as SQLite orders (rank, id) for ASCII ids. */
function compareKeys(a: Item, b: Item): number {
  if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const expectApiError = (fn: () => unknown, status: number, message: RegExp) => {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  expect((caught as ApiError).status).toBe(status);
  expect((caught as ApiError).message).toMatch(message);
};

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const rowArb = fc.record({ grp: fc.constantFrom('a', 'b'), rank: fc.integer({ min: 0, max: 8 }) });
const stepArb = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  inserts: fc.array(rowArb, { maxLength: 4 }),
  deletes: fc.array(fc.nat(), { maxLength: 4 }),
});

describe('paginate()', () => {
  it('serves every item present for the whole walk exactly once, in order, while items come and go', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 40 }),
        fc.array(stepArb, { minLength: 1, maxLength: 30 }),
        fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC'),
        (initial, steps, direction) => {
          db.exec('DELETE FROM items');
          let counter = 0;
          const insert = db.prepare('INSERT INTO items (id, grp, rank) VALUES (?, ?, ?)');
          const add = (row: { grp: string; rank: number }) =>
            insert.run(`r${String(counter++).padStart(3, '0')}`, row.grp, row.rank);
          initial.forEach(add);

          const countOf = () =>
            (db.prepare("SELECT count(*) AS n FROM items WHERE grp = 'a'").get() as { n: number })
              .n;
          const idsOf = () =>
            (db.prepare("SELECT id FROM items WHERE grp = 'a'").all() as { id: string }[]).map(
              (row) => row.id,
            );
          // Items that exist from the first page to the last must all be served.
          const stable = new Set(idsOf());
          const served: Item[] = [];
          const seen = new Set<string>();
          let page: string | undefined;
          let stepIndex = 0;

          for (let guard = 0; guard < 1000; guard++) {
            const step = steps[Math.min(stepIndex, steps.length - 1)]!;
            const expectedCount = countOf();
            const result = paginate<Item>(db, itemsQuery('a', direction), {
              page,
              limit: step.limit,
            });
            expect(result.count).toBe(expectedCount);
            expect(result.rows.length).toBeLessThanOrEqual(step.limit);
            if (result.next) expect(result.rows.length).toBe(step.limit);
            for (const row of result.rows) {
              expect(row.grp).toBe('a');
              expect(seen.has(row.id), `served twice: ${row.id}`).toBe(false);
              seen.add(row.id);
              const previous = served[served.length - 1];
              if (previous) {
                const order = compareKeys(previous, row);
                expect(order).toBe(direction === 'ASC' ? -1 : 1);
              }
              served.push(row);
            }
            if (!result.next) break;
            page = result.next;

            // Between pages: other clients insert and delete anywhere in the list.
            if (stepIndex < steps.length) {
              step.inserts.forEach(add);
              const ids = (db.prepare('SELECT id FROM items').all() as { id: string }[]).map(
                (row) => row.id,
              );
              for (const pick of step.deletes) {
                if (ids.length === 0) break;
                const [victim] = ids.splice(pick % ids.length, 1);
                db.prepare('DELETE FROM items WHERE id = ?').run(victim);
                stable.delete(victim!);
              }
            }
            stepIndex++;
          }
          for (const id of stable) expect(seen.has(id), `never served: ${id}`).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('uses the default page size and returns no cursor on the last page', () => {
    db.exec('DELETE FROM items');
    const insert = db.prepare("INSERT INTO items (id, grp, rank) VALUES (?, 'a', 0)");
    for (let i = 0; i < DEFAULT_PAGE_SIZE + 1; i++) insert.run(`d${String(i).padStart(3, '0')}`);
    const first = paginate<Item>(db, itemsQuery('a', 'ASC'), {});
    expect(first.rows).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(first.count).toBe(DEFAULT_PAGE_SIZE + 1);
    const last = paginate<Item>(db, itemsQuery('a', 'ASC'), { page: first.next });
    expect(last.rows.map((row) => row.id)).toEqual([
      `d${String(DEFAULT_PAGE_SIZE).padStart(3, '0')}`,
    ]);
    expect(last.next).toBeUndefined();
    // Exactly a page's worth: no cursor to an empty page.
    const exact = paginate<Item>(db, itemsQuery('a', 'ASC'), { limit: DEFAULT_PAGE_SIZE + 1 });
    expect(exact.next).toBeUndefined();
    expect(paginate<Item>(db, itemsQuery('none', 'ASC'), {})).toEqual({
      rows: [],
      next: undefined,
      count: 0,
    });
  });

  it('answers 400 for a cursor that is garbage or not a cursor', () => {
    const query = itemsQuery('a', 'ASC');
    const bad = [
      '!!!',
      'not-base64-json',
      encode(null),
      encode([]),
      encode('string'),
      encode({ k: 'x', s: 'y' }),
      encode({ k: [1, 'x'] }),
      encode({ k: [{}, 'x'], s: 'y' }),
      encode({ k: [null, 'x'], s: 'y' }),
      encode({ k: [[1], 'x'], s: 'y' }),
      Buffer.from('{"k":[1,').toString('base64url'),
    ];
    for (const page of bad) {
      expectApiError(() => paginate(db, query, { page }), 400, /query\.page/);
    }
  });

  it('answers 400 for a cursor from another list, filter, direction or key shape', () => {
    db.exec('DELETE FROM items');
    const insert = db.prepare('INSERT INTO items (id, grp, rank) VALUES (?, ?, 0)');
    for (let i = 0; i < 5; i++) {
      insert.run(`a${i}`, 'a');
      insert.run(`b${i}`, 'b');
    }
    const cursor = paginate(db, itemsQuery('a', 'ASC'), { limit: 2 }).next;
    expect(cursor).toBeDefined();
    expectApiError(
      () => paginate(db, itemsQuery('b', 'ASC'), { page: cursor }),
      400,
      /different list or filter/,
    );
    expectApiError(
      () => paginate(db, itemsQuery('a', 'DESC'), { page: cursor }),
      400,
      /different list or filter/,
    );
    // A forged cursor with the right scope but another key shape.
    const { s } = JSON.parse(Buffer.from(cursor!, 'base64url').toString()) as { s: string };
    expectApiError(
      () => paginate(db, itemsQuery('a', 'ASC'), { page: encode({ k: ['a1'], s }) }),
      400,
      /different list or filter/,
    );
    // Forged keys of the wrong types never reach SQLite as an error: the list simply resumes.
    const forged = paginate<Item>(db, itemsQuery('a', 'ASC'), { page: encode({ k: ['z', 7], s }) });
    expect(forged.count).toBe(5);
  });

  it('wraps a page in the list envelope', () => {
    expect(listEnvelope([1, 2], 'abc', 9)).toEqual({
      items: [1, 2],
      next: { page: 'abc' },
      count: 9,
    });
    expect(listEnvelope([], undefined, 0)).toEqual({ items: [], count: 0 });
  });
});

describe('paginateArray()', () => {
  const keyArb = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 });

  it('walks a changing in-memory list without duplicates or gaps', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(keyArb, { maxLength: 30 }),
        fc.array(
          fc.record({
            limit: fc.integer({ min: 1, max: 5 }),
            inserts: fc.array(keyArb, { maxLength: 3 }),
            deletes: fc.array(fc.nat(), { maxLength: 3 }),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (initial, steps) => {
          // Sorted by the same `<` order paginateArray resumes with.
          let items = [...initial].sort();
          const stable = new Set(items);
          const seen: string[] = [];
          let page: string | undefined;
          for (let i = 0; i < 1000; i++) {
            const step = steps[Math.min(i, steps.length - 1)]!;
            const result = paginateArray(items, (key) => key, { page, limit: step.limit }, 'keys');
            expect(result.count).toBe(items.length);
            for (const key of result.items) {
              expect(seen.includes(key), `served twice: ${key}`).toBe(false);
              const previous = seen[seen.length - 1];
              if (previous !== undefined) expect(previous < key).toBe(true);
              seen.push(key);
            }
            if (!result.next) break;
            page = result.next;
            if (i < steps.length) {
              const next = new Set(items);
              for (const key of step.inserts) next.add(key);
              const list = [...next];
              for (const pick of step.deletes) {
                if (list.length === 0) break;
                const [victim] = list.splice(pick % list.length, 1);
                stable.delete(victim!);
              }
              items = list.sort();
            }
          }
          for (const key of stable) expect(seen.includes(key), `never served: ${key}`).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers 400 for garbage and for a cursor of another list', () => {
    const items = ['a', 'b', 'c'];
    const { next } = paginateArray(items, (key) => key, { limit: 1 }, 'one');
    expectApiError(
      () => paginateArray(items, (key) => key, { page: next }, 'two'),
      400,
      /different list or filter/,
    );
    expectApiError(
      () => paginateArray(items, (key) => key, { page: '%%%' }, 'one'),
      400,
      /not a valid page cursor/,
    );
    // A keyset cursor (two keys) is not an array cursor.
    const { s } = JSON.parse(Buffer.from(next!, 'base64url').toString()) as { s: string };
    expectApiError(
      () => paginateArray(items, (key) => key, { page: encode({ k: ['a', 'b'], s }) }, 'one'),
      400,
      /different list or filter/,
    );
    // Resuming after a key that was removed continues with the next one.
    expect(paginateArray(['a', 'c'], (key) => key, { page: next }, 'one').items).toEqual(['c']);
  });
});
