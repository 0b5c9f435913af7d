import type { Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { TeamRow } from './team-queries';

/**
 * The Team resource as the caller sees it: organization admins and the team's owners manage it;
 * members with a role see every team, guests only the teams they are in.
 */
export function serializeTeam(row: TeamRow, callerOrgRole: Role | null, urls: Urls) {
  return {
    object: 'team' as const,
    id: row.id,
    title: row.title,
    members: row.member_count,
    spaces: row.space_count,
    createdAt: row.created_at,
    permissions: teamPermissions(row, callerOrgRole),
    urls: { location: urls.api(`/orgs/${row.organization_id}/teams/${row.id}`) },
  };
}

export function teamPermissions(row: TeamRow, callerOrgRole: Role | null) {
  return {
    admin: callerOrgRole === 'admin' || row.caller_role === 'owner',
    view: callerOrgRole !== null || row.caller_role !== null,
  };
}
