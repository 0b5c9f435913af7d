import type { CacheDb } from './open-cache-database';

/** An organization as last listed, with the folder its spaces are mirrored under. */
export interface CachedOrganization {
  id: string;
  title: string;
  folderName: string;
  position: number;
  removedAt: string | null;
}

/** A space as last listed, with its selective-sync choice and sync state. */
export interface CachedSpace {
  id: string;
  organizationId: string;
  title: string;
  emoji: string | null;
  parentId: string | null;
  /** Relative to the mirror root: `<organization folder>/<space folder>`. */
  folderPath: string;
  position: number;
  enabled: boolean;
  remoteRevision: string | null;
  syncedRevision: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  discoveredAt: string;
  removedAt: string | null;
}

interface OrganizationRow {
  id: string;
  title: string;
  folder_name: string;
  position: number;
  removed_at: string | null;
}

interface SpaceRow {
  id: string;
  organization_id: string;
  title: string;
  emoji: string | null;
  parent_id: string | null;
  folder_path: string;
  position: number;
  enabled: number;
  remote_revision: string | null;
  synced_revision: string | null;
  last_sync_at: string | null;
  last_error: string | null;
  discovered_at: string;
  removed_at: string | null;
}

/** A checked-out change request's row (see migration 0012) is no space of the listing. */
const NOT_A_CHECKOUT = 's.id NOT IN (SELECT key FROM checkouts)';

/** Queries over `organizations` and `spaces`. */
export class SpaceCache {
  constructor(private readonly db: CacheDb) {}

  listOrganizations(): CachedOrganization[] {
    return (
      this.db
        .prepare('SELECT * FROM organizations ORDER BY position, id')
        .all() as OrganizationRow[]
    ).map(organizationOf);
  }

  getOrganization(id: string): CachedOrganization | undefined {
    const row = this.db.prepare('SELECT * FROM organizations WHERE id = ?').get(id) as
      OrganizationRow | undefined;
    return row ? organizationOf(row) : undefined;
  }

  insertOrganization(org: {
    id: string;
    title: string;
    folderName: string;
    position: number;
  }): void {
    this.db
      .prepare(
        'INSERT INTO organizations (id, title, folder_name, position) VALUES (@id, @title, @folderName, @position)',
      )
      .run(org);
  }

  /** Records a fresh listing of a known organization (and that it exists again, if it had gone). */
  updateOrganization(org: { id: string; title: string; position: number }): void {
    this.db
      .prepare(
        'UPDATE organizations SET title = @title, position = @position, removed_at = NULL WHERE id = @id',
      )
      .run(org);
  }

  markOrganizationRemoved(id: string, at: string): void {
    this.db
      .prepare('UPDATE organizations SET removed_at = ? WHERE id = ? AND removed_at IS NULL')
      .run(at, id);
  }

  /** Every space of the listing (checked-out change requests have rows of their own, left out). */
  listSpaces(organizationId?: string): CachedSpace[] {
    const rows =
      organizationId === undefined
        ? this.db
            .prepare(
              `SELECT s.* FROM spaces s JOIN organizations o ON o.id = s.organization_id
               WHERE ${NOT_A_CHECKOUT}
               ORDER BY o.position, o.id, s.position, s.id`,
            )
            .all()
        : this.db
            .prepare(
              `SELECT * FROM spaces s WHERE organization_id = ? AND ${NOT_A_CHECKOUT}
               ORDER BY position, id`,
            )
            .all(organizationId);
    return (rows as SpaceRow[]).map(spaceOf);
  }

  getSpace(id: string): CachedSpace | undefined {
    const row = this.db.prepare('SELECT * FROM spaces WHERE id = ?').get(id) as
      SpaceRow | undefined;
    return row ? spaceOf(row) : undefined;
  }

  countSpaces(): number {
    return (
      this.db.prepare(`SELECT count(*) AS n FROM spaces s WHERE ${NOT_A_CHECKOUT}`).get() as {
        n: number;
      }
    ).n;
  }

  insertSpace(space: {
    id: string;
    organizationId: string;
    title: string;
    emoji: string | null;
    parentId: string | null;
    folderPath: string;
    position: number;
    enabled: boolean;
    remoteRevision: string;
    discoveredAt: string;
  }): void {
    this.db
      .prepare(
        `INSERT INTO spaces (id, organization_id, title, emoji, parent_id, folder_path, position,
           enabled, remote_revision, discovered_at)
         VALUES (@id, @organizationId, @title, @emoji, @parentId, @folderPath, @position,
           @enabled, @remoteRevision, @discoveredAt)`,
      )
      .run({ ...space, enabled: space.enabled ? 1 : 0 });
  }

  /** Records a fresh listing of a known space; its folder and selective-sync choice stay. */
  updateSpaceListing(space: {
    id: string;
    organizationId: string;
    title: string;
    emoji: string | null;
    parentId: string | null;
    position: number;
    remoteRevision: string;
  }): void {
    this.db
      .prepare(
        `UPDATE spaces SET organization_id = @organizationId, title = @title, emoji = @emoji,
           parent_id = @parentId, position = @position, remote_revision = @remoteRevision,
           removed_at = NULL
         WHERE id = @id`,
      )
      .run(space);
  }

  setEnabled(id: string, enabled: boolean): boolean {
    return (
      this.db.prepare('UPDATE spaces SET enabled = ? WHERE id = ?').run(enabled ? 1 : 0, id)
        .changes > 0
    );
  }

  markSpaceRemoved(id: string, at: string): void {
    this.db
      .prepare('UPDATE spaces SET removed_at = ? WHERE id = ? AND removed_at IS NULL')
      .run(at, id);
  }

  /** The folder now reflects `revision`; clears the last error. */
  markSynced(id: string, revision: string, at: string): void {
    this.db
      .prepare(
        'UPDATE spaces SET synced_revision = ?, last_sync_at = ?, last_error = NULL WHERE id = ?',
      )
      .run(revision, at, id);
  }

  /** A checkout's row: the change request's revision, as the server last said. */
  setRemoteRevision(id: string, revision: string): void {
    this.db.prepare('UPDATE spaces SET remote_revision = ? WHERE id = ?').run(revision, id);
  }

  /** A sync found the space current (nothing to pull, nothing failed) at `at`. */
  markChecked(id: string, at: string): void {
    this.db.prepare('UPDATE spaces SET last_sync_at = ? WHERE id = ?').run(at, id);
  }

  setError(id: string, message: string | null): void {
    this.db.prepare('UPDATE spaces SET last_error = ? WHERE id = ?').run(message, id);
  }

  /** A removed space whose kept files are still reported: no synced revision, not synced. */
  forgetMirror(id: string): void {
    this.db.prepare('UPDATE spaces SET synced_revision = NULL, enabled = 0 WHERE id = ?').run(id);
  }

  /** Forgets a space entirely (its content, index and pending writes cascade). */
  deleteSpace(id: string): void {
    this.db.prepare('DELETE FROM spaces WHERE id = ?').run(id);
  }
}

function organizationOf(row: OrganizationRow): CachedOrganization {
  return {
    id: row.id,
    title: row.title,
    folderName: row.folder_name,
    position: row.position,
    removedAt: row.removed_at,
  };
}

function spaceOf(row: SpaceRow): CachedSpace {
  return {
    id: row.id,
    organizationId: row.organization_id,
    title: row.title,
    emoji: row.emoji,
    parentId: row.parent_id,
    folderPath: row.folder_path,
    position: row.position,
    enabled: row.enabled === 1,
    remoteRevision: row.remote_revision,
    syncedRevision: row.synced_revision,
    lastSyncAt: row.last_sync_at,
    lastError: row.last_error,
    discoveredAt: row.discovered_at,
    removedAt: row.removed_at,
  };
}
