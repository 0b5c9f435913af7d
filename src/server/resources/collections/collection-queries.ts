import type { Role } from '../../auth/roles';
import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';

export interface CollectionRow {
  id: string;
  organization_id: string;
  title: string;
  description: string | null;
  parent_id: string | null;
  default_level: Role | null;
  position: number;
  created_at: string;
}

export interface CollectionPatch {
  title?: string | undefined;
  description?: string | undefined;
  defaultLevel?: Role | null | undefined;
}

/** Every SQL statement about collections. */
export class CollectionQueries {
  constructor(private readonly db: Db) {}

  get(id: string): CollectionRow | undefined {
    return this.db
      .prepare<[string], CollectionRow>('SELECT * FROM collections WHERE id = ?')
      .get(id);
  }

  insert(row: CollectionRow): void {
    this.db
      .prepare(
        `INSERT INTO collections (id, organization_id, title, description, parent_id, default_level, position, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.organization_id,
        row.title,
        row.description,
        row.parent_id,
        row.default_level,
        row.position,
        row.created_at,
      );
  }

  update(id: string, patch: CollectionPatch): void {
    const sets: string[] = [];
    const params: unknown[] = [];
    const set = (column: string, value: unknown) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.title !== undefined) set('title', patch.title);
    if (patch.description !== undefined) set('description', patch.description || null);
    if (patch.defaultLevel !== undefined) set('default_level', patch.defaultLevel);
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE collections SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  setParent(id: string, parentId: string | null, position: number): void {
    this.db
      .prepare('UPDATE collections SET parent_id = ?, position = ? WHERE id = ?')
      .run(parentId, position, id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM collections WHERE id = ?').run(id);
  }

  /** The collection and every collection nested in it, at any depth. */
  subtreeIds(id: string): string[] {
    return this.db
      .prepare<[string], { id: string }>(
        `WITH RECURSIVE tree(id) AS (
           SELECT ?
           UNION SELECT c.id FROM collections c JOIN tree ON c.parent_id = tree.id
         )
         SELECT id FROM tree`,
      )
      .all(id)
      .map((row) => row.id);
  }

  /** Spaces directly in a collection, deleted ones included (they must follow it). */
  spaceIdsIn(collectionIds: readonly string[]): string[] {
    if (collectionIds.length === 0) return [];
    return this.db
      .prepare<string[], { id: string }>(
        `SELECT id FROM spaces WHERE parent_id IN (${collectionIds.map(() => '?').join(', ')})`,
      )
      .all(...collectionIds)
      .map((row) => row.id);
  }

  setOrganization(ids: readonly string[], organizationId: string): void {
    const statement = this.db.prepare('UPDATE collections SET organization_id = ? WHERE id = ?');
    for (const id of ids) statement.run(organizationId, id);
  }

  /** Collections of an organization (all, or only top-level ones), oldest first. */
  listQuery(organizationId: string, nested: boolean): KeysetQuery {
    return {
      from: 'SELECT * FROM collections',
      where: ['organization_id = ?', ...(nested ? [] : ['parent_id IS NULL'])],
      params: [organizationId],
      orderBy: ['created_at', 'id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `collections:${organizationId}:${nested ? 'nested' : 'top'}`,
    };
  }
}
