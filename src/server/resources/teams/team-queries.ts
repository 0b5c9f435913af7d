import type { Db } from '../../db/open-database';
import type { KeysetQuery } from '../../http/paginate';
import { newId } from '../../ids';
import { MEMBER_FROM, ORG_MEMBER_COLUMNS } from '../members/member-queries-base';
import type { MemberRow } from '../members/member-serializer';
import type { TeamMemberRole } from './team-schema';

export interface TeamRow {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  member_count: number;
  space_count: number;
  /** The calling user's role in the team (null: not in it). */
  caller_role: TeamMemberRole | null;
}

export type MemberTeamRow = TeamRow & { member_role: TeamMemberRole };
export type TeamMemberRow = MemberRow & { team_role: TeamMemberRole; added_at: string };

/**
 * The team columns with its counts computed in SQL (one query per page). The single `?` is the
 * calling user, whose team role drives `permissions`; it must be the first bound parameter.
 */
const TEAM_COLUMNS = `
  t.id, t.organization_id, t.title, t.created_at,
  (SELECT count(*) FROM team_members tm WHERE tm.team_id = t.id) AS member_count,
  (SELECT count(*) FROM space_grants g JOIN spaces s ON s.id = g.space_id
    WHERE g.team_id = t.id AND s.deleted_at IS NULL) AS space_count,
  (SELECT c.role FROM team_members c WHERE c.team_id = t.id AND c.user_id = ?) AS caller_role`;

const TEAM_SELECT = `SELECT ${TEAM_COLUMNS} FROM teams t`;

/** Case-insensitive "contains" without LIKE, so `%` and `_` in a filter match themselves. */
const containsTitle = 'instr(lower(t.title), lower(?)) > 0';

/** Every SQL statement about teams and their members. */
export class TeamQueries {
  private readonly getStmt;
  private readonly upsertStmt;
  private readonly removeStmt;
  private readonly memberByIdStmt;
  private readonly memberByEmailStmt;

  constructor(private readonly db: Db) {
    this.getStmt = db.prepare<[string, string, string], TeamRow>(
      `${TEAM_SELECT} WHERE t.id = ? AND t.organization_id = ?`,
    );
    this.upsertStmt = db.prepare<[string, string, TeamMemberRole, string, TeamMemberRole | null]>(
      `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (team_id, user_id) DO UPDATE SET role = coalesce(?, role)`,
    );
    this.removeStmt = db.prepare<[string, string]>(
      'DELETE FROM team_members WHERE team_id = ? AND user_id = ?',
    );
    this.memberByIdStmt = db.prepare<[string, string], { user_id: string }>(
      'SELECT user_id FROM members WHERE organization_id = ? AND user_id = ?',
    );
    // users.email is COLLATE NOCASE, so this comparison ignores case.
    this.memberByEmailStmt = db.prepare<[string, string], { user_id: string }>(
      `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = ? AND u.email = ?`,
    );
  }

  get(organizationId: string, teamId: string, callerId: string): TeamRow | undefined {
    return this.getStmt.get(callerId, teamId, organizationId);
  }

  /**
   * Teams of an organization, oldest first. `manager` keeps only the teams that user can manage:
   * all of them for an organization admin (`managerIsAdmin`), else those they own.
   */
  listQuery(
    organizationId: string,
    callerId: string,
    filters: { title?: string | undefined; manager?: string | undefined; managerIsAdmin: boolean },
  ): KeysetQuery {
    const where = ['t.organization_id = ?'];
    const params: unknown[] = [callerId, organizationId];
    if (filters.title !== undefined) {
      where.push(containsTitle);
      params.push(filters.title);
    }
    if (filters.manager !== undefined && !filters.managerIsAdmin) {
      where.push(
        `EXISTS (SELECT 1 FROM team_members o
                 WHERE o.team_id = t.id AND o.user_id = ? AND o.role = 'owner')`,
      );
      params.push(filters.manager);
    }
    return {
      from: TEAM_SELECT,
      where,
      params,
      orderBy: ['t.created_at', 't.id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `teams:${organizationId}:${filters.title ?? ''}:${filters.manager ?? ''}`,
    };
  }

  /** The teams `userId` belongs to, with their role in each. */
  memberTeamsQuery(
    organizationId: string,
    userId: string,
    callerId: string,
    title: string | undefined,
  ): KeysetQuery {
    const where = ['t.organization_id = ?'];
    const params: unknown[] = [callerId, userId, organizationId];
    if (title !== undefined) {
      where.push(containsTitle);
      params.push(title);
    }
    return {
      from: `SELECT ${TEAM_COLUMNS}, mt.role AS member_role FROM teams t
             JOIN team_members mt ON mt.team_id = t.id AND mt.user_id = ?`,
      where,
      params,
      orderBy: ['t.created_at', 't.id'],
      direction: 'ASC',
      keyOf: (row) => [row['created_at'], row['id']],
      scope: `member-teams:${organizationId}:${userId}:${title ?? ''}`,
    };
  }

  /** The members of a team (who must be organization members), in the order they were added. */
  teamMembersQuery(organizationId: string, teamId: string): KeysetQuery {
    return {
      from: `SELECT ${ORG_MEMBER_COLUMNS}, tm.role AS team_role, tm.added_at ${MEMBER_FROM}
             JOIN team_members tm ON tm.user_id = m.user_id AND tm.team_id = ?`,
      where: ['m.organization_id = ?'],
      params: [organizationId, teamId, organizationId],
      orderBy: ['tm.added_at', 'tm.user_id'],
      direction: 'ASC',
      keyOf: (row) => [row['added_at'], row['user_id']],
      scope: `team-members:${teamId}`,
    };
  }

  /** The user id of an organization member named by id or by e-mail (case-insensitive). */
  resolveMember(organizationId: string, ref: string): string | undefined {
    return (
      this.memberByIdStmt.get(organizationId, ref)?.user_id ??
      this.memberByEmailStmt.get(organizationId, ref)?.user_id
    );
  }

  isMember(organizationId: string, userId: string): boolean {
    return this.memberByIdStmt.get(organizationId, userId) !== undefined;
  }

  create(organizationId: string, title: string, memberIds: string[], now: string): string {
    const id = newId();
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)')
        .run(id, organizationId, title, now);
      for (const userId of memberIds) this.upsertMember(id, userId, undefined, now);
    })();
    return id;
  }

  rename(teamId: string, title: string): void {
    this.db.prepare('UPDATE teams SET title = ? WHERE id = ?').run(title, teamId);
  }

  /** Team memberships and team space grants go with it (ON DELETE CASCADE). */
  delete(teamId: string): void {
    this.db.prepare('DELETE FROM teams WHERE id = ?').run(teamId);
  }

  /** Adds a member (as `role`, default member) or, when already in, changes a given role. */
  upsertMember(
    teamId: string,
    userId: string,
    role: TeamMemberRole | undefined,
    now: string,
  ): void {
    this.upsertStmt.run(teamId, userId, role ?? 'member', now, role ?? null);
  }

  /** Whether the user was in the team. */
  removeMember(teamId: string, userId: string): boolean {
    return this.removeStmt.run(teamId, userId).changes > 0;
  }

  /** Applies a bulk change in one transaction: all of it or none of it. */
  applyBulk(
    teamId: string,
    upserts: Map<string, TeamMemberRole | undefined>,
    removals: Set<string>,
    now: string,
  ): void {
    this.db.transaction(() => {
      for (const [userId, role] of upserts) this.upsertMember(teamId, userId, role, now);
      for (const userId of removals) this.removeMember(teamId, userId);
    })();
  }
}
