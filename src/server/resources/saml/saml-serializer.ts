import type { Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { TeamRow } from '../teams/team-queries';
import { serializeTeam } from '../teams/team-serializer';
import type { SamlProviderRow } from './saml-queries';
import type { SamlStatus } from './saml-schema';

/**
 * The addresses this server offers the identity provider (the service provider's side), all
 * under the public URL so they follow `--public-url`. Provider ids are unique server-wide.
 */
export function samlServiceUrls(providerId: string, urls: Urls) {
  const base = `${urls.root}/sso/saml/${providerId}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

export function samlStatus(row: SamlProviderRow): SamlStatus {
  return row.sso_url && row.entity_id && row.certificate ? 'active' : 'pending';
}

/**
 * The SAML provider resource. What the identity provider has not given yet reads as an empty
 * string (the published type has these fields as required strings) and keeps it `pending`.
 * `team` is the provider's default team as the caller sees it.
 */
export function serializeSamlProvider(
  row: SamlProviderRow,
  team: TeamRow | undefined,
  callerRole: Role | null,
  urls: Urls,
) {
  return {
    object: 'saml-provider' as const,
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url ?? '',
    entityID: row.entity_id ?? '',
    certificate: row.certificate ?? '',
    ...(team ? { defaultTeam: serializeTeam(team, callerRole, urls) } : {}),
    defaultRole: row.default_role,
    createdAt: row.created_at,
    status: samlStatus(row),
    service: samlServiceUrls(row.id, urls),
    urls: { location: urls.api(`/orgs/${row.organization_id}/saml/${row.id}`) },
  };
}

/** What a sign-in page needs to offer one provider. */
export function serializeSsoLoginInfo(row: SamlProviderRow, urls: Urls) {
  return { id: row.id, label: row.label, startURL: samlServiceUrls(row.id, urls).startURL };
}
