import { atLeast, type Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { CollectionRow } from './collection-queries';

/** The Collection resource as a caller with effective role `role` on it sees it. */
export function serializeCollection(row: CollectionRow, role: Role | null, urls: Urls) {
  return {
    object: 'collection' as const,
    id: row.id,
    title: row.title,
    ...(row.description ? { description: row.description } : {}),
    organization: row.organization_id,
    ...(row.parent_id ? { parent: row.parent_id } : {}),
    defaultLevel: row.default_level,
    urls: {
      location: urls.api(`/collections/${row.id}`),
      app: urls.app(`/c/${row.id}`),
    },
    permissions: {
      view: atLeast(role, 'read'),
      admin: atLeast(role, 'admin'),
      viewInviteLinks: atLeast(role, 'admin'),
      create: atLeast(role, 'create'),
    },
  };
}
