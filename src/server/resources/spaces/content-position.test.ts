import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/open-database';
import { ApiError } from '../../http/api-error';
import { endPosition, placeItem, siblingsOf } from './content-position';

let db: Db;
const AT = '2026-01-01T00:00:00.000Z';

function addSpace(id: string, position: number, parent: string | null = null, deleted = false) {
  db.prepare(
    `INSERT INTO spaces (id, organization_id, title, parent_id, revision_id, share_key, position,
       created_at, updated_at, deleted_at)
     VALUES (?, 'o', ?, ?, 'r', 'k', ?, ?, ?, ?)`,
  ).run(id, id, parent, position, AT, AT, deleted ? AT : null);
}

function addCollection(id: string, position: number, parent: string | null = null) {
  db.prepare(
    `INSERT INTO collections (id, organization_id, title, parent_id, position, created_at)
     VALUES (?, 'o', ?, ?, ?, ?)`,
  ).run(id, id, parent, position, AT);
}

/** Places `id` (a space) and writes the result, as the routes do. */
function move(id: string, position: Parameters<typeof placeItem>[4], parent: string | null = null) {
  const value = placeItem(db, { type: 'space', id }, 'o', parent, position);
  db.prepare('UPDATE spaces SET position = ?, parent_id = ? WHERE id = ?').run(value, parent, id);
}

const order = (parent: string | null = null) => siblingsOf(db, 'o', parent).map((s) => s.id);

beforeEach(() => {
  db = openDatabase(':memory:');
  db.prepare("INSERT INTO organizations (id, title, created_at) VALUES ('o', 'O', ?)").run(AT);
});
afterEach(() => db.close());

describe('content positions', () => {
  it('interleaves spaces and collections of one parent and leaves deleted spaces out', () => {
    addSpace('a', 0);
    addCollection('c', 1);
    addSpace('b', 2);
    addSpace('gone', 1.5, null, true);
    expect(order()).toEqual(['a', 'c', 'b']);
    expect(endPosition(db, 'o', null)).toBe(3);
    expect(endPosition(db, 'o', 'c')).toBe(0);
  });

  it('places at the midpoint between neighbours without touching them', () => {
    addSpace('a', 0);
    addSpace('b', 1);
    addSpace('c', 2);
    expect(
      placeItem(db, { type: 'space', id: 'c' }, 'o', null, {
        before: { type: 'space', space: 'b' },
      }),
    ).toBe(0.5);
    expect(
      placeItem(db, { type: 'space', id: 'c' }, 'o', null, {
        before: { type: 'space', space: 'a' },
      }),
    ).toBe(-1);
    expect(
      placeItem(db, { type: 'space', id: 'a' }, 'o', null, {
        after: { type: 'space', space: 'c' },
      }),
    ).toBe(3);
    expect(placeItem(db, { type: 'space', id: 'a' }, 'o', null, undefined)).toBe(3);
    expect(order()).toEqual(['a', 'b', 'c']);
  });

  it('renumbers siblings when neighbours share a position or the gap is exhausted', () => {
    addSpace('a', 0);
    addSpace('b', 0);
    addSpace('c', 0);
    move('c', { after: { type: 'space', space: 'a' } });
    expect(order()).toEqual(['a', 'c', 'b']);
    // Each move halves the gap after `a`; 80 halvings exhaust a double's precision.
    for (let i = 0; i < 80; i++) {
      move(i % 2 ? 'b' : 'c', { after: { type: 'space', space: 'a' } });
      expect(order()).toEqual(i % 2 ? ['a', 'b', 'c'] : ['a', 'c', 'b']);
    }
  });

  it('accepts both pointers only when they are adjacent', () => {
    addSpace('a', 0);
    addSpace('b', 1);
    addSpace('c', 2);
    move('c', { after: { type: 'space', space: 'a' }, before: { type: 'space', space: 'b' } });
    expect(order()).toEqual(['a', 'c', 'b']);
    expect(() =>
      placeItem(db, { type: 'space', id: 'c' }, 'o', null, {
        after: { type: 'space', space: 'b' },
        before: { type: 'space', space: 'a' },
      }),
    ).toThrow(/adjacent/);
  });

  it('rejects pointers to unknown items, other parents, the wrong type or the item itself', () => {
    addSpace('a', 0);
    addCollection('c', 1);
    addSpace('inside', 0, 'c');
    const attempt = (position: Parameters<typeof placeItem>[4]) => {
      try {
        placeItem(db, { type: 'space', id: 'a' }, 'o', null, position);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const position of [
      { before: { type: 'space' as const, space: 'nope' } },
      { before: { type: 'space' as const, space: 'inside' } },
      { before: { type: 'space' as const, space: 'c' } },
      { after: { type: 'space' as const, space: 'a' } },
    ]) {
      const error = attempt(position);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
    }
    expect(attempt({ after: { type: 'collection', collection: 'c' } })).toBeUndefined();
  });
});
