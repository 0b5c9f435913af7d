import { badRequest } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import { newId } from '../../ids';
import { createSiteSpace } from './new-space';
import { requireSite } from './site-access';
import type { SiteDeps } from './site-deps';
import type { SitePatch, SiteRow } from './site-queries';
import {
  CreateSiteBody,
  ListSitesQuery,
  OrgParams,
  SiteListSchema,
  SiteParams,
  SiteSchema,
  UpdateSiteBody,
} from './site-schema';
import { serializeSite } from './site-serializer';

export const DEFAULT_SITE_TITLE = 'Docs site';

/**
 * Docs sites. Members with a role read them; creating, changing and deleting a site take the
 * admin role (a site publishes the organization's content to an audience it chooses).
 */
export function siteRoutes(app: TypedApp, deps: SiteDeps): void {
  const { access, sites, urls } = deps;

  app.get(
    '/v1/orgs/:organizationId/sites',
    {
      schema: {
        params: OrgParams,
        querystring: ListSitesQuery,
        response: { 200: SiteListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'read');
      const { page, limit, ...filter } = request.query;
      const result = paginate<SiteRow>(deps.db, sites.listQuery(organizationId, filter), {
        page,
        limit,
      });
      return listEnvelope(
        result.rows.map((row) => serializeSite(row, role, urls)),
        result.next,
        result.count,
      );
    },
  );

  app.post(
    '/v1/orgs/:organizationId/sites',
    {
      schema: {
        params: OrgParams,
        body: CreateSiteBody,
        response: { 201: SiteSchema, ...errorResponses },
      },
      // Every field is optional: no body means all defaults.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { role } = access.requireOrg(userId, organizationId, 'admin');
      const body = request.body;
      const title = body.title ?? DEFAULT_SITE_TITLE;
      const id = newId();
      const at = deps.now();
      deps.db.transaction(() => {
        // Checked before anything is written, so a bad id leaves no half-made site.
        const spaces = Array.isArray(body.spaces)
          ? body.spaces.map((spaceId, index) =>
              deps.service.readableSpace(`body.spaces.${index}`, spaceId, organizationId, userId),
            )
          : body.spaces
            ? [createSiteSpace(deps.db, organizationId, title, body.spaces, at)]
            : [];
        sites.insert({
          id,
          organization_id: organizationId,
          type: body.type ?? 'basic',
          title,
          visibility: body.visibility ?? 'public',
          created_at: at,
        });
        for (const space of spaces) deps.service.addSiteSpace(id, null, space, at);
      })();
      const site = requireSite(deps, userId, organizationId, id).site;
      const answer = serializeSite(site, role, urls);
      return reply.code(201).header('location', answer.urls.location).send(answer);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/sites/:siteId',
    { schema: { params: SiteParams, response: { 200: SiteSchema, ...errorResponses } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site, role } = requireSite(deps, callerOf(request).userId, organizationId, siteId);
      return serializeSite(site, role, urls);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        params: SiteParams,
        body: UpdateSiteBody,
        response: { 200: SiteSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { site } = requireSite(deps, userId, organizationId, siteId, 'admin');
      const body = request.body;
      deps.db.transaction(() => {
        const patch: SitePatch = {
          title: body.title,
          visibility: body.visibility,
          basename: body.basename,
          proxy: body.proxy,
          adaptiveEnabled: body.adaptiveContent?.enabled,
          ...defaultsPatch(deps, site, userId, body),
        };
        sites.update(siteId, patch, deps.now());
      })();
      const { site: updated, role } = requireSite(deps, userId, organizationId, siteId);
      return serializeSite(updated, role, urls);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId',
    { schema: { params: SiteParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'admin');
      sites.delete(siteId);
      return reply.code(205).send(undefined);
    },
  );
}

/**
 * `defaultSiteSection` must be a section of the site. `defaultSiteSpace` is the root's default
 * in a site without sections, and the default section's default in a site with sections (the
 * published API's rule), so it must be a site space there; checked after the section changes.
 */
function defaultsPatch(
  deps: SiteDeps,
  site: SiteRow,
  userId: string,
  body: { defaultSiteSpace?: string | undefined; defaultSiteSection?: string | undefined },
): Pick<SitePatch, 'defaultSectionId' | 'defaultSiteSpaceId'> {
  const view = deps.view(site, userId);
  const sectionIds = view.sections().map((section) => section.id);
  const section = body.defaultSiteSection;
  if (section !== undefined && !sectionIds.includes(section)) {
    throw badRequest(
      `body.defaultSiteSection must be a section of site ${site.id}; ${section} is not`,
    );
  }
  const siteSpace = body.defaultSiteSpace;
  if (siteSpace === undefined) return { defaultSectionId: section };
  const container = sectionIds.length === 0 ? null : (section ?? view.defaultSectionId() ?? null);
  if (!view.siteSpaceIdsIn(container).includes(siteSpace)) {
    throw badRequest(
      `body.defaultSiteSpace must be a site space ${
        container ? `of the default section ${container}` : `at the root of site ${site.id}`
      }; ${siteSpace} is not`,
    );
  }
  if (container === null) return { defaultSectionId: section, defaultSiteSpaceId: siteSpace };
  deps.structure.updateSection(container, { defaultSiteSpaceId: siteSpace });
  return { defaultSectionId: section };
}
