import { atLeast, type Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { SiteRow } from './site-queries';
import { SiteUrls } from './site-urls';

/** What this server does of a site's premium features: all of them, on every site type. */
const FEATURES = ['sites-sections', 'sites-share-links', 'sites-adaptive-content'] as const;

/** The Site resource as a caller with organization role `role` (null: a visitor) sees it. */
export function serializeSite(row: SiteRow, role: Role | null, urls: Urls, shareKey?: string) {
  const siteUrls = new SiteUrls(urls, row.organization_id, row.id, shareKey);
  return {
    object: 'site' as const,
    id: row.id,
    type: row.type,
    appliedType: row.type,
    title: row.title,
    ...(row.basename !== null ? { basename: row.basename } : {}),
    // The proxy origin serves what the published address serves.
    ...(row.proxy !== null ? { proxy: { origin: row.proxy, target: siteUrls.published() } } : {}),
    visibility: row.visibility,
    published: row.published === 1,
    siteSpaces: row.site_space_count,
    createdAt: row.created_at,
    adaptiveContent: { enabled: row.adaptive_enabled === 1 },
    features: FEATURES.map((id) => ({ id, plan: row.type, frozen: false })),
    permissions: {
      view: atLeast(role, 'read'),
      access: atLeast(role, 'read'),
      edit: atLeast(role, 'edit'),
      create: atLeast(role, 'create'),
      admin: atLeast(role, 'admin'),
      installIntegration: atLeast(role, 'admin'),
      viewAdaptiveSchema: atLeast(role, 'read'),
      editAdaptiveSchema: atLeast(role, 'admin'),
    },
    urls: {
      location: siteUrls.location(),
      app: siteUrls.app(),
      ...(row.published === 1 ? { published: siteUrls.published() } : {}),
    },
  };
}
