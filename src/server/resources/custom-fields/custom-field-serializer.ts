import { atLeast, type Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { CustomFieldRow } from './custom-field-queries';

/**
 * The CustomField resource as a member with `role` sees it. The table has no separate id and a
 * name never changes (PATCH cannot rename), so the name doubles as the stable id.
 * Custom fields carry no `object` discriminator (spec conventions). Whoever is shown a field may
 * view it (a guest sees it through a space grant); editing the definition takes the admin role.
 */
export function serializeCustomField(row: CustomFieldRow, role: Role | null, urls: Urls) {
  return {
    id: row.name,
    name: row.name,
    ...(row.title ? { title: row.title } : {}),
    ...(row.description ? { description: row.description } : {}),
    type: row.type,
    ...(row.placeholder ? { placeholder: row.placeholder } : {}),
    ...(row.options ? { options: JSON.parse(row.options) as string[] } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location: urls.api(`/orgs/${row.organization_id}/custom-fields/${row.name}`),
    },
    permissions: { view: true, edit: atLeast(role, 'admin') },
  };
}
