import type { Db } from '../db/open-database';
import { forbidden, notFound } from '../http/api-error';
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
 * What one statement tells about the caller on a space (see CALLER_ON_SPACE_COLUMNS): their
 * membership of its organization (`caller_member` is null when there is none) and every role
 * granted on the space to them or to one of their teams, comma-separated (roles hold no commas).
 */
export interface CallerOnSpace {
  caller_member: string | null;
  caller_org_role: Role | null;
  caller_disabled: number | null;
  caller_grants: string | null;
}

/** The grants of `@user` on the space `space` (an SQL expression), as `caller_grants`. */
const callerGrants = (space: string) => `(SELECT group_concat(role) FROM (
    SELECT role FROM space_grants WHERE space_id = ${space} AND user_id = @user
    UNION ALL
    SELECT g.role FROM space_grants g JOIN team_members tm ON tm.team_id = g.team_id
     WHERE g.space_id = ${space} AND tm.user_id = @user)) AS caller_grants`;

/**
 * Select-list columns (CallerOnSpace) for the caller `@user` on the space aliased `s`, in a
 * statement that joins CALLER_MEMBERSHIP_JOIN: a read can load its space and what the caller may
 * do with it in one statement, then hand the row to Access.checkSpace.
 */
export const CALLER_ON_SPACE_COLUMNS = `m.user_id AS caller_member, m.role AS caller_org_role,
  m.disabled AS caller_disabled, ${callerGrants('s.id')}`;
export const CALLER_MEMBERSHIP_JOIN = `LEFT JOIN members m
  ON m.organization_id = s.organization_id AND m.user_id = @user`;

/**
 * Who may do what. Anything the caller cannot see answers 404 (never revealing that it exists);
 * something visible but beyond the caller's role answers 403.
 *
 * A space check is one statement (the space, the caller's membership and their grants) rather
 * than one per table: it runs on nearly every request.
 */
export class Access {
  private readonly memberStmt;
  private readonly spaceStmt;
  private readonly callerStmt;

  constructor(db: Db) {
    this.memberStmt = db.prepare<[string, string], { role: Role | null; disabled: number }>(
      'SELECT role, disabled FROM members WHERE organization_id = ? AND user_id = ?',
    );
    this.spaceStmt = db.prepare<{ space: string; user: string }, SpaceRow & CallerOnSpace>(
      `SELECT s.id, s.organization_id, s.default_level, s.deleted_at, ${CALLER_ON_SPACE_COLUMNS}
       FROM spaces s ${CALLER_MEMBERSHIP_JOIN} WHERE s.id = @space`,
    );
    this.callerStmt = db.prepare<{ org: string; space: string; user: string }, CallerOnSpace>(
      `SELECT m.user_id AS caller_member, m.role AS caller_org_role,
         m.disabled AS caller_disabled, ${callerGrants('@space')}
       FROM members m WHERE m.organization_id = @org AND m.user_id = @user`,
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
    const caller = this.callerStmt.get({
      org: space.organization_id,
      space: space.id,
      user: userId,
    });
    return caller ? effectiveRole(space, caller) : null;
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
    return this.checkSpace(
      spaceId,
      this.spaceStmt.get({ space: spaceId, user: userId }),
      needed,
      options,
    );
  }

  /**
   * requireSpace for a space row the caller loaded with CALLER_ON_SPACE_COLUMNS (undefined when
   * no space has that id): the same 404 and 403 answers.
   */
  checkSpace(
    spaceId: string,
    space: (SpaceRow & CallerOnSpace) | undefined,
    needed: Role = 'read',
    options: { includeDeleted?: boolean } = {},
  ): SpaceAccess {
    if (!space || (space.deleted_at && !options.includeDeleted)) throw notFound(`Space ${spaceId}`);
    const access = effectiveRole(space, space);
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

/**
 * The caller's role on a space from their membership and grants; null when they are not an
 * active member of its organization. Guests see only what they were explicitly granted.
 */
function effectiveRole(
  space: SpaceRow,
  caller: CallerOnSpace,
): { role: Role | null; orgRole: Role | null } | null {
  if (caller.caller_member === null || caller.caller_disabled) return null;
  const orgRole = caller.caller_org_role;
  const grants = caller.caller_grants ? (caller.caller_grants.split(',') as Role[]) : [];
  const inherited = orgRole === null ? [] : [orgRole, space.default_level];
  return { role: strongest(...inherited, ...grants), orgRole };
}
