import type { Db } from '../db/open-database';
import { ApiError, forbidden, notFound } from '../http/api-error';
import { atLeast, strongest, type Role } from './roles';

export interface Membership {
  organizationId: string;
  role: Role | null;
}

export interface SpaceAccess {
  spaceId: string;
  organizationId: string;
  /** The caller's effective role on the space (null: no access). */
  role: Role | null;
  /** The caller's organization role (null: guest). */
  orgRole: Role | null;
}

interface SpaceRow {
  id: string;
  organization_id: string;
  default_level: Role | null;
  deleted_at: string | null;
}

/**
 * Who may do what. Anything the caller cannot see answers 404 (never revealing that it exists);
 * something visible but beyond the caller's role answers 403.
 */
export class Access {
  private readonly memberStmt;
  private readonly spaceStmt;
  private readonly userGrantStmt;
  private readonly teamGrantStmt;

  constructor(private readonly db: Db) {
    this.memberStmt = db.prepare<[string, string], { role: Role | null; disabled: number }>(
      'SELECT role, disabled FROM members WHERE organization_id = ? AND user_id = ?',
    );
    this.spaceStmt = db.prepare<[string], SpaceRow>(
      'SELECT id, organization_id, default_level, deleted_at FROM spaces WHERE id = ?',
    );
    this.userGrantStmt = db.prepare<[string, string], { role: Role }>(
      'SELECT role FROM space_grants WHERE space_id = ? AND user_id = ?',
    );
    this.teamGrantStmt = db.prepare<[string, string], { role: Role }>(
      `SELECT g.role FROM space_grants g JOIN team_members tm ON tm.team_id = g.team_id
       WHERE g.space_id = ? AND tm.user_id = ?`,
    );
  }

  /** The caller's membership, or null when they do not belong to the organization. */
  membership(userId: string, organizationId: string): Membership | null {
    const row = this.memberStmt.get(organizationId, userId);
    if (!row || row.disabled) return null;
    return { organizationId, role: row.role };
  }

  /** 404 unless the caller is a member; 403 unless their role reaches `needed` (guests: none). */
  requireOrg(userId: string, organizationId: string, needed?: Role): Membership {
    const membership = this.membership(userId, organizationId);
    if (!membership) throw notFound(`Organization ${organizationId}`);
    if (needed && !atLeast(membership.role, needed)) {
      throw forbidden(`This needs the ${needed} role in organization ${organizationId}`);
    }
    return membership;
  }

  /** The effective role of a user on a space: organization role, the space default, and grants. */
  spaceRole(userId: string, space: SpaceRow): { role: Role | null; orgRole: Role | null } | null {
    const membership = this.membership(userId, space.organization_id);
    if (!membership) return null;
    const grants = [
      this.userGrantStmt.get(space.id, userId)?.role,
      ...this.teamGrantStmt.all(space.id, userId).map((row) => row.role),
    ];
    // Guests see only what they were explicitly granted.
    const inherited = membership.role === null ? [] : [membership.role, space.default_level];
    return { role: strongest(...inherited, ...grants), orgRole: membership.role };
  }

  /**
   * Loads a space the caller can see (404 otherwise) and checks their role (403 when too low).
   * Deleted spaces are only found with `includeDeleted` (restore).
   */
  requireSpace(
    userId: string,
    spaceId: string,
    needed: Role = 'read',
    options: { includeDeleted?: boolean } = {},
  ): SpaceAccess {
    const space = this.spaceStmt.get(spaceId);
    if (!space || (space.deleted_at && !options.includeDeleted)) throw notFound(`Space ${spaceId}`);
    const access = this.spaceRole(userId, space);
    if (!access || access.role === null) throw notFound(`Space ${spaceId}`);
    if (!atLeast(access.role, needed)) {
      throw forbidden(`This needs the ${needed} role on space ${spaceId}`);
    }
    return {
      spaceId,
      organizationId: space.organization_id,
      role: access.role,
      orgRole: access.orgRole,
    };
  }

  /** Like requireSpace but for a space row already loaded (lists), without throwing. */
  roleOnSpace(userId: string, space: SpaceRow): Role | null {
    return this.spaceRole(userId, space)?.role ?? null;
  }
}

export function unauthorized(message = 'Missing or invalid bearer token'): ApiError {
  return new ApiError(401, message);
}
