import type { Db } from '../../db/open-database';
import { badRequest } from '../../http/api-error';

/** A `{ type, space }` or `{ type, collection }` reference from a move body. */
export type ContentPointer =
  { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface ContentPositionInput {
  before?: ContentPointer | undefined;
  after?: ContentPointer | undefined;
}

export interface ContentItem {
  type: 'space' | 'collection';
  id: string;
}

interface Sibling extends ContentItem {
  position: number;
}

const pointerId = (pointer: ContentPointer) =>
  pointer.type === 'space' ? pointer.space : pointer.collection;

/**
 * Spaces and collections sharing one parent (or the organization's root) form a single ordered
 * list, so a space can be placed between two collections and the reverse. Deleted spaces are
 * left out: they cannot be pointed at and keep their old position for a restore.
 */
export function siblingsOf(db: Db, organizationId: string, parentId: string | null): Sibling[] {
  return db
    .prepare<[string, string | null, string, string | null], Sibling>(
      `SELECT 'collection' AS type, id, position, created_at FROM collections
         WHERE organization_id = ? AND parent_id IS ?
       UNION ALL
       SELECT 'space' AS type, id, position, created_at FROM spaces
         WHERE organization_id = ? AND parent_id IS ? AND deleted_at IS NULL
       ORDER BY position, type, created_at, id`,
    )
    .all(organizationId, parentId, organizationId, parentId)
    .map(({ type, id, position }) => ({ type, id, position }));
}

/** The position that puts a new item last under `parentId`. */
export function endPosition(db: Db, organizationId: string, parentId: string | null): number {
  const list = siblingsOf(db, organizationId, parentId);
  const last = list[list.length - 1];
  return last ? last.position + 1 : 0;
}

/**
 * Computes the `position` of `item` under `parentId` from the before/after pointers (absent: at
 * the end). The value is the midpoint between the two neighbours, so nothing else is rewritten;
 * only when neighbours share a position or the gap is exhausted are the siblings renumbered.
 * Pointers must name a sibling under the target parent, otherwise 400.
 */
export function placeItem(
  db: Db,
  item: ContentItem,
  organizationId: string,
  parentId: string | null,
  position: ContentPositionInput | undefined,
): number {
  const list = siblingsOf(db, organizationId, parentId).filter(
    (sibling) => !(sibling.type === item.type && sibling.id === item.id),
  );
  const indexOf = (pointer: ContentPointer, field: 'before' | 'after'): number => {
    const id = pointerId(pointer);
    if (pointer.type === item.type && id === item.id) {
      throw badRequest(`body.position.${field} cannot point at the item being moved`);
    }
    const index = list.findIndex((sibling) => sibling.type === pointer.type && sibling.id === id);
    if (index < 0) {
      throw badRequest(
        `body.position.${field} names ${pointer.type} ${id}, which is not in ${
          parentId ? `collection ${parentId}` : 'the organization root'
        }`,
      );
    }
    return index;
  };

  let insertAt = list.length;
  const before = position?.before ? indexOf(position.before, 'before') : undefined;
  const after = position?.after ? indexOf(position.after, 'after') : undefined;
  if (before !== undefined && after !== undefined) {
    if (after + 1 !== before) {
      throw badRequest('body.position.after and body.position.before must be adjacent items');
    }
    insertAt = before;
  } else if (before !== undefined) {
    insertAt = before;
  } else if (after !== undefined) {
    insertAt = after + 1;
  }

  const prev = list[insertAt - 1];
  const next = list[insertAt];
  if (!prev && !next) return 0;
  if (!prev && next) return next.position - 1;
  if (prev && !next) return prev.position + 1;
  if (prev && next) {
    const mid = (prev.position + next.position) / 2;
    if (mid > prev.position && mid < next.position) return mid;
  }
  renumber(db, list, insertAt);
  return insertAt;
}

/** Rewrites the siblings to 0, 1, 2… leaving the slot `gap` free for the item being placed. */
function renumber(db: Db, list: readonly Sibling[], gap: number): void {
  const updateSpace = db.prepare('UPDATE spaces SET position = ? WHERE id = ?');
  const updateCollection = db.prepare('UPDATE collections SET position = ? WHERE id = ?');
  list.forEach((sibling, index) => {
    const value = index < gap ? index : index + 1;
    (sibling.type === 'space' ? updateSpace : updateCollection).run(value, sibling.id);
  });
}
