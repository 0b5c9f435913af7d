import { atLeast, type Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { TranslationSettingsRow } from './translation-queries';

/**
 * The TranslationSettings resource as a member with `role` sees it: every member with a role
 * may view it (guests may not list them at all); changing it takes the admin role.
 */
export function serializeTranslationSettings(
  row: TranslationSettingsRow,
  role: Role | null,
  urls: Urls,
) {
  return {
    object: 'translation-settings' as const,
    id: row.id,
    title: row.title,
    languages: JSON.parse(row.languages) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: { view: atLeast(role, 'read'), edit: atLeast(role, 'admin') },
    urls: { location: urls.api(`/orgs/${row.organization_id}/translations/${row.id}`) },
  };
}
