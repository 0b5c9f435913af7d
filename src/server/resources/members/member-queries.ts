import type { Role } from '../../auth/roles';
import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import { MEMBER_SELECT, ORG_MEMBER_SELECT } from './member-queries-base';
import type { MemberRoleFilter } from './member-schema';
import type { MemberRow } from './member-serializer';

export interface MemberListFilters {
  order: 'asc' | 'desc';
  sort: 'joinedAt' | 'lastSeenAt';
  role?: MemberRoleFilter | undefined;
  search?: string | undefined;
}

/** Every SQL statement about organization members. */
export class MemberQueries {
  private readonly getStmt;
  private readonly otherAdminsStmt;
  private readonly roleStmt;
  private readonly ssoStmt;
  private readonly seenStmt;

  constructor(private readonly db: Db) {
    this.getStmt = db.prepare<[string, string], MemberRow>(
      `${MEMBER_SELECT} WHERE m.organization_id = ? AND m.user_id = ?`,
    );
    this.otherAdminsStmt = db.prepare<[string, string], { n: number }>(
      `SELECT count(*) AS n FROM members
       WHERE organization_id = ? AND user_id <> ? AND role = 'admin' AND disabled = 0`,
    );
    this.roleStmt = db.prepare<[Role | null, string, string]>(
      'UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?',
    );
    this.ssoStmt = db.prepare<[string, string]>(
      'UPDATE members SET sso = 1 WHERE organization_id = ? AND user_id = ?',
    );
    this.seenStmt = db.prepare<[string, string, string]>(
      'UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?',
    );
  }

  get(organizationId: string, userId: string): MemberRow | undefined {
    return this.getStmt.get(organizationId, userId);
  }

  /**
   * One keyset-paginated SELECT per page, walking the members_joined / members_seen index in the
   * requested direction. Sorting by lastSeenAt keeps only members who have been active.
   */
  listQuery(organizationId: string, filters: MemberListFilters): KeysetQuery {
    const where = ['m.organization_id = ?'];
    // The first is ORG_MEMBER_SELECT's own parameter.
    const params: unknown[] = [organizationId, organizationId];
    if (filters.role === 'guest') {
      where.push('m.role IS NULL');
    } else if (filters.role !== undefined) {
      where.push('m.role = ?');
      params.push(filters.role);
    }
    if (filters.search !== undefined && filters.search !== '') {
      // instr, not LIKE: `%` and `_` typed by a user must match themselves.
      where.push(
        '(instr(lower(u.display_name), lower(?)) > 0 OR instr(lower(u.email), lower(?)) > 0)',
      );
      params.push(filters.search, filters.search);
    }
    const byLastSeen = filters.sort === 'lastSeenAt';
    if (byLastSeen) where.push('m.last_seen_at IS NOT NULL');
    const column = byLastSeen ? 'last_seen_at' : 'joined_at';
    // The count needs none of the computed columns, nor the users join unless a search reads it:
    // every member has exactly one user (members.user_id is a NOT NULL foreign key to users.id),
    // so the join never changes the count. For 5,000 members it is ~7x cheaper.
    const countSql = `SELECT count(*) AS n FROM members m${
      filters.search ? ' JOIN users u ON u.id = m.user_id' : ''
    } WHERE ${where.join(' AND ')}`;
    return {
      from: ORG_MEMBER_SELECT,
      where,
      params,
      count: { sql: countSql, params: params.slice(1) },
      orderBy: [`m.${column}`, 'm.user_id'],
      direction: filters.order === 'asc' ? 'ASC' : 'DESC',
      keyOf: (row) => [row[column], row['user_id']],
      scope: `members:${organizationId}:${filters.sort}:${filters.order}:${filters.role ?? ''}:${filters.search ?? ''}`,
    };
  }

  /** Active admins of the organization other than `userId` (the last admin must stay). */
  otherAdmins(organizationId: string, userId: string): number {
    return this.otherAdminsStmt.get(organizationId, userId)?.n ?? 0;
  }

  updateRole(organizationId: string, userId: string, role: Role | null): void {
    this.roleStmt.run(role, organizationId, userId);
  }

  markSso(organizationId: string, userId: string): void {
    this.ssoStmt.run(organizationId, userId);
  }

  touch(organizationId: string, userId: string, at: string): void {
    this.seenStmt.run(at, organizationId, userId);
  }

  /**
   * Removes the membership with everything that gave the user access in this organization: team
   * memberships and space grants (on deleted spaces too, so a restore does not bring access back).
   */
  remove(organizationId: string, userId: string): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `DELETE FROM team_members WHERE user_id = ?
           AND team_id IN (SELECT id FROM teams WHERE organization_id = ?)`,
        )
        .run(userId, organizationId);
      this.db
        .prepare(
          `DELETE FROM space_grants WHERE user_id = ?
           AND space_id IN (SELECT id FROM spaces WHERE organization_id = ?)`,
        )
        .run(userId, organizationId);
      this.db
        .prepare('DELETE FROM members WHERE organization_id = ? AND user_id = ?')
        .run(organizationId, userId);
    })();
  }

  /**
   * The live spaces a member can access, by creation time: every one for a member with a role,
   * only those granted to them or to one of their teams for a guest (as MEMBER_SELECT counts).
   */
  spacesQuery(
    organizationId: string,
    member: { userId: string; guest: boolean },
    order: 'asc' | 'desc',
  ): KeysetQuery {
    const where = ['s.organization_id = ?', 's.deleted_at IS NULL'];
    const params: unknown[] = [organizationId];
    if (member.guest) {
      where.push(
        `EXISTS (SELECT 1 FROM space_grants g LEFT JOIN team_members tm ON tm.team_id = g.team_id
                 WHERE g.space_id = s.id AND (g.user_id = ? OR tm.user_id = ?))`,
      );
      params.push(member.userId, member.userId);
    }
    return {
      from: 'SELECT s.* FROM spaces s',
      where,
      params,
      orderBy: ['s.created_at', 's.id'],
      direction: order === 'asc' ? 'ASC' : 'DESC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `member-spaces:${organizationId}:${member.userId}:${order}`,
    };
  }
}
