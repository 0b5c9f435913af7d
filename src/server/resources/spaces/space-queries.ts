import type { Role } from '../../auth/roles';
import type { Db } from '../../db/open-database';
import { getPlain } from '../../db/plain-rows';
import type { KeysetQuery } from '../../http/paginate';
import {
  CALLER_MEMBERSHIP_JOIN,
  CALLER_ON_SPACE_COLUMNS,
  type CallerOnSpace,
} from '../../auth/access';
import { spaceCountColumns, type SpaceCountColumns, type SpaceRow } from './space-serializer';

export interface SpacePatch {
  title?: string | undefined;
  emoji?: string | undefined;
  editMode?: string | undefined;
  defaultLevel?: Role | null | undefined;
  visibility?: string | undefined;
}

export interface SpaceListFilter {
  organizationId: string;
  userId: string;
  /** Guests (no organization role) only see spaces granted to them or to one of their teams. */
  guest: boolean;
  /** Only the spaces directly in this collection. */
  collectionId?: string;
}

/** A space row with what the caller may do on it and the counts it shows (see `getForCaller`). */
export type SpaceForCaller = SpaceRow & CallerOnSpace & SpaceCountColumns;

const LIST_FROM = `SELECT s.*, ${spaceCountColumns('s.id')} FROM spaces s`;

/** Every SQL statement about spaces, their grants and custom-field values. */
export class SpaceQueries {
  // Prepared once: these run on every space read, and compiling them cost more than running them.
  private readonly getStmt;
  private readonly getForCallerStmt;

  constructor(private readonly db: Db) {
    this.getStmt = db.prepare<[string], SpaceRow>('SELECT * FROM spaces WHERE id = ?');
    // Raw, its row built by getPlain: better-sqlite3's own row objects cost more than the query.
    this.getForCallerStmt = db
      .prepare(
        `SELECT s.*, ${CALLER_ON_SPACE_COLUMNS}, ${spaceCountColumns('s.id')}
         FROM spaces s ${CALLER_MEMBERSHIP_JOIN} WHERE s.id = @space`,
      )
      .raw(true);
  }

  get(id: string): SpaceRow | undefined {
    return this.getStmt.get(id);
  }

  /**
   * The space, what `userId` may do on it (for Access.checkSpace) and its counts, in one
   * statement: a space read is then a single query besides authentication.
   */
  getForCaller(id: string, userId: string): SpaceForCaller | undefined {
    return getPlain<SpaceForCaller>(this.getForCallerStmt, { space: id, user: userId });
  }

  /** Inserts a space whose revision is set afterwards (the revision row references the space). */
  insert(row: Omit<SpaceRow, 'revision_id'>): void {
    this.db
      .prepare(
        `INSERT INTO spaces (id, organization_id, title, emoji, visibility, edit_mode, parent_id,
           default_level, revision_id, share_key, position, created_at, updated_at, deleted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.organization_id,
        row.title,
        row.emoji,
        row.visibility,
        row.edit_mode,
        row.parent_id,
        row.default_level,
        row.share_key,
        row.position,
        row.created_at,
        row.updated_at,
        row.deleted_at,
      );
  }

  setRevision(id: string, revisionId: string): void {
    this.db.prepare('UPDATE spaces SET revision_id = ? WHERE id = ?').run(revisionId, id);
  }

  update(id: string, patch: SpacePatch, updatedAt: string): void {
    const sets = ['updated_at = ?'];
    const params: unknown[] = [updatedAt];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.title !== undefined) set('title', patch.title);
    if (patch.emoji !== undefined) set('emoji', patch.emoji);
    if (patch.editMode !== undefined) set('edit_mode', patch.editMode);
    if (patch.defaultLevel !== undefined) set('default_level', patch.defaultLevel);
    if (patch.visibility !== undefined) set('visibility', patch.visibility);
    this.db.prepare(`UPDATE spaces SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  setDeletedAt(id: string, deletedAt: string | null): void {
    this.db.prepare('UPDATE spaces SET deleted_at = ? WHERE id = ?').run(deletedAt, id);
  }

  /**
   * Places a space under another parent (or the root). A space shown `in-collection` that leaves
   * every collection becomes private: that visibility only means something inside a collection.
   */
  setParent(id: string, parentId: string | null, position: number, updatedAt: string): void {
    this.db
      .prepare(
        `UPDATE spaces SET parent_id = ?, position = ?, updated_at = ?,
           visibility = CASE WHEN ? IS NULL AND visibility = 'in-collection' THEN 'private' ELSE visibility END
         WHERE id = ?`,
      )
      .run(parentId, position, updatedAt, parentId, id);
  }

  setOrganization(id: string, organizationId: string, updatedAt: string): void {
    this.db
      .prepare('UPDATE spaces SET organization_id = ?, updated_at = ? WHERE id = ?')
      .run(organizationId, updatedAt, id);
  }

  /**
   * Grants and custom-field values belong to the old organization (its users, teams and field
   * definitions), so a space moving to another organization leaves them behind.
   */
  dropOrganizationData(id: string): void {
    this.db.prepare('DELETE FROM space_grants WHERE space_id = ?').run(id);
    this.db.prepare('DELETE FROM space_custom_field_values WHERE space_id = ?').run(id);
  }

  copyGrantsAndValues(fromId: string, toId: string): void {
    this.db
      .prepare(
        `INSERT INTO space_grants (space_id, user_id, team_id, role)
         SELECT ?, user_id, team_id, role FROM space_grants WHERE space_id = ?`,
      )
      .run(toId, fromId);
    this.db
      .prepare(
        `INSERT INTO space_custom_field_values (space_id, organization_id, field_name, value)
         SELECT ?, organization_id, field_name, value FROM space_custom_field_values WHERE space_id = ?`,
      )
      .run(toId, fromId);
  }

  /** Non-deleted spaces the caller can read, in a total order (a stable key for keyset paging). */
  /** Rows carry their counts (SpaceCountColumns), so a page of spaces is one query, not one per space. */
  listQuery(filter: SpaceListFilter): KeysetQuery {
    const where = ['s.organization_id = ?', 's.deleted_at IS NULL'];
    const params: unknown[] = [filter.organizationId];
    if (filter.collectionId !== undefined) {
      where.push('s.parent_id = ?');
      params.push(filter.collectionId);
    }
    if (filter.guest) {
      where.push(
        `(EXISTS (SELECT 1 FROM space_grants g WHERE g.space_id = s.id AND g.user_id = ?)
          OR EXISTS (SELECT 1 FROM space_grants g JOIN team_members tm ON tm.team_id = g.team_id
                     WHERE g.space_id = s.id AND tm.user_id = ?))`,
      );
      params.push(filter.userId, filter.userId);
    }
    const scope = `spaces:${filter.organizationId}:${filter.collectionId ?? '*'}:${filter.userId}`;
    // Inside a collection spaces come in their arranged order (move); across the organization
    // positions belong to different parents, so creation order is the only meaningful one.
    return filter.collectionId !== undefined
      ? {
          from: LIST_FROM,
          where,
          params,
          orderBy: ['s.position', 's.created_at', 's.id'],
          direction: 'ASC',
          keyOf: (row) => [row['position'], row['created_at'], row['id']],
          scope,
        }
      : {
          from: LIST_FROM,
          where,
          params,
          orderBy: ['s.created_at', 's.id'],
          direction: 'ASC',
          keyOf: (row) => [row['created_at'], row['id']],
          scope,
        };
  }
}
