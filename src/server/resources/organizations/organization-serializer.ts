import { atLeast, type Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { DefaultContent } from './default-content';
import type { InviteRow, OrganizationRow } from './organization-queries';

/** The Organization resource as the caller (with `role` in it) sees it. */
export function serializeOrganization(row: OrganizationRow, role: Role | null, urls: Urls) {
  const admin = atLeast(role, 'admin');
  const member = role !== null;
  return {
    object: 'organization' as const,
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    ...(row.hostname ? { hostname: row.hostname } : {}),
    type: row.type,
    ...(row.use_case ? { useCase: row.use_case } : {}),
    ...(row.community_type ? { communityType: row.community_type } : {}),
    defaultRole: row.default_role,
    ...(row.default_content
      ? { defaultContent: JSON.parse(row.default_content) as DefaultContent }
      : {}),
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    plan: row.plan,
    trial: { status: 'notapplicable' },
    internal_isOnNewTrial: true,
    urls: {
      location: urls.api(`/orgs/${row.id}`),
      app: urls.app(`/o/${row.id}`),
      ...(row.logo ? { logo: row.logo } : {}),
    },
    permissions: {
      view: true,
      admin,
      ownTeam: member,
      createContent: atLeast(role, 'create'),
      createOpenAPISpec: atLeast(role, 'create'),
      viewBilling: admin,
      listMembers: member,
      listTeams: member,
      listIntegrations: admin,
    },
  };
}

export function serializeInvite(row: InviteRow, redundant: boolean) {
  return { object: 'invite' as const, id: row.id, role: row.role, redundant };
}
