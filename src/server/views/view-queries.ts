/** The few rows the views read beyond what the content modules already load. */
import type { Role } from '../auth/roles';
import type { Db } from '../db/open-database';

export interface ViewSpaceRow {
  id: string;
  organization_id: string;
  title: string;
  emoji: string;
  parent_id: string | null;
  default_level: Role | null;
  deleted_at: string | null;
}

export interface NamedRow {
  id: string;
  title: string;
}

const SPACE_COLUMNS =
  'id, organization_id, title, emoji, parent_id, default_level, deleted_at FROM spaces';

export class ViewQueries {
  private readonly orgStmt;
  private readonly spaceStmt;
  private readonly orgSpacesStmt;
  private readonly collectionSpacesStmt;
  private readonly collectionsStmt;
  private readonly userNameStmt;
  private readonly membershipsStmt;

  constructor(db: Db) {
    this.orgStmt = db.prepare<[string], NamedRow>(
      'SELECT id, title FROM organizations WHERE id = ?',
    );
    this.spaceStmt = db.prepare<[string], ViewSpaceRow>(`SELECT ${SPACE_COLUMNS} WHERE id = ?`);
    this.orgSpacesStmt = db.prepare<[string], ViewSpaceRow>(
      `SELECT ${SPACE_COLUMNS} WHERE organization_id = ? AND deleted_at IS NULL
       ORDER BY position, created_at, id`,
    );
    this.collectionSpacesStmt = db.prepare<[string], ViewSpaceRow>(
      `SELECT ${SPACE_COLUMNS} WHERE parent_id = ? AND deleted_at IS NULL
       ORDER BY position, created_at, id`,
    );
    this.collectionsStmt = db.prepare<[string], NamedRow & { parent_id: string | null }>(
      `SELECT id, title, parent_id FROM collections WHERE organization_id = ?
       ORDER BY position, created_at, id`,
    );
    this.membershipsStmt = db.prepare<[string], NamedRow>(
      `SELECT o.id, o.title FROM members m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = ? AND m.disabled = 0 ORDER BY o.title, o.id`,
    );
    this.userNameStmt = db.prepare<[string], { display_name: string }>(
      'SELECT display_name FROM users WHERE id = ?',
    );
  }

  organization(id: string): NamedRow | undefined {
    return this.orgStmt.get(id);
  }

  space(id: string): ViewSpaceRow | undefined {
    return this.spaceStmt.get(id);
  }

  organizationSpaces(organizationId: string): ViewSpaceRow[] {
    return this.orgSpacesStmt.all(organizationId);
  }

  collectionSpaces(collectionId: string): ViewSpaceRow[] {
    return this.collectionSpacesStmt.all(collectionId);
  }

  collections(organizationId: string): (NamedRow & { parent_id: string | null })[] {
    return this.collectionsStmt.all(organizationId);
  }

  /** The organizations a user is an active member of (guests included). */
  organizationsOf(userId: string): NamedRow[] {
    return this.membershipsStmt.all(userId);
  }

  userName(userId: string): string {
    return this.userNameStmt.get(userId)?.display_name ?? userId;
  }
}
