import type { Access } from '../../auth/access';
import { atLeast, type Role } from '../../auth/roles';
import { forbidden, notFound } from '../../http/api-error';
import type { ShareLinkQueries } from './share-link-queries';
import type { SiteQueries, SiteRow } from './site-queries';

export interface SiteAccess {
  site: SiteRow;
  /** The caller's organization role; null for a guest or a visitor. */
  role: Role | null;
}

export interface SiteAccessDeps {
  access: Access;
  sites: SiteQueries;
  shareLinks: ShareLinkQueries;
}

/**
 * Managing a site is for members of its organization: another organization's caller gets 404
 * (as if it did not exist), a member whose role is below `needed` gets 403.
 */
export function requireSite(
  deps: SiteAccessDeps,
  userId: string,
  organizationId: string,
  siteId: string,
  needed: Role = 'read',
): SiteAccess {
  const membership = deps.access.requireOrg(userId, organizationId);
  const site = deps.sites.get(organizationId, siteId);
  if (!site) throw notFound(`Site ${siteId}`);
  if (!atLeast(membership.role, needed)) {
    throw forbidden(`This needs the ${needed} role in organization ${organizationId}`);
  }
  return { site, role: membership.role };
}

/**
 * Reading what a site publishes (its profile, sections and site spaces): members with a role,
 * and, while the site is published, anyone when it is public or unlisted, or anyone holding the
 * key of one of its active share links when it is shared by link. A share key that is not an
 * active link of the site is refused outright (404), members included: the address it came
 * from is dead, and an inactive link must stop working for everyone.
 */
export function readSite(
  deps: SiteAccessDeps,
  userId: string,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
): SiteAccess {
  const site = deps.sites.get(organizationId, siteId);
  if (!site) throw notFound(`Site ${siteId}`);
  const link = shareKey === undefined ? undefined : deps.shareLinks.byKey(site.id, shareKey);
  if (shareKey !== undefined && (!link || link.active !== 1)) {
    throw notFound(`Share link for site ${siteId}`);
  }
  const membership = deps.access.membership(userId, organizationId);
  if (membership && atLeast(membership.role, 'read')) return { site, role: membership.role };
  const published = site.published === 1;
  const open = site.visibility === 'public' || site.visibility === 'unlisted';
  const shared = site.visibility === 'share-link' && link !== undefined;
  if (published && (open || shared)) return { site, role: null };
  if (membership) throw forbidden(`This needs the read role in organization ${organizationId}`);
  throw notFound(`Site ${siteId}`);
}
