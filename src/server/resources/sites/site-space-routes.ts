import { badRequest, conflict, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import { readSite, requireSite } from './site-access';
import type { SiteDeps } from './site-deps';
import { placeAmong } from './site-order';
import { SiteParams } from './site-schema';
import type { SiteSpaceRow } from './structure-queries';
import {
  AddSiteSpaceBody,
  MoveSiteSpaceBody,
  SiteSpaceListQuery,
  SiteSpaceListSchema,
  SiteSpaceParams,
  SiteSpaceSchema,
  UpdateSiteSpaceBody,
} from './structure-schema';

/**
 * Site spaces: the spaces a site publishes, each at a path unique in its section (or at the
 * root of a site without sections). Reading follows the site's audience; changes take the
 * create role.
 */
export function siteSpaceRoutes(app: TypedApp, deps: SiteDeps): void {
  const { structure } = deps;
  const BASE = '/v1/orgs/:organizationId/sites/:siteId/site-spaces';

  const requireSiteSpace = (siteId: string, siteSpaceId: string): SiteSpaceRow => {
    const row = structure.siteSpace(siteId, siteSpaceId);
    if (!row) throw notFound(`Site space ${siteSpaceId}`);
    return row;
  };

  const present = (organizationId: string, siteId: string, siteSpaceId: string, userId: string) => {
    const { site } = requireSite(deps, userId, organizationId, siteId);
    return deps.view(site, userId).siteSpace(requireSiteSpace(siteId, siteSpaceId));
  };

  app.get(
    BASE,
    {
      schema: {
        params: SiteParams,
        querystring: SiteSpaceListQuery,
        response: { 200: SiteSpaceListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { shareKey, default: onlyDefault, ...pageQuery } = request.query;
      const { site } = readSite(deps, userId, organizationId, siteId, shareKey);
      const view = deps.view(site, userId, shareKey);
      // The defaults are few (one per section, or the root's): an id list filters them.
      const query = structure.siteSpaceListQuery(
        siteId,
        onlyDefault === undefined
          ? undefined
          : { ids: view.defaultSiteSpaceIds(), include: onlyDefault },
      );
      const page = paginate<SiteSpaceRow>(deps.db, query, pageQuery);
      return listEnvelope(
        page.rows.map((row) => view.siteSpace(row)),
        page.next,
        page.count,
      );
    },
  );

  app.post(
    BASE,
    {
      schema: {
        params: SiteParams,
        body: AddSiteSpaceBody,
        response: { 201: SiteSpaceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { site } = requireSite(deps, userId, organizationId, siteId, 'create');
      const { spaceId, sectionId } = request.body;
      const space = deps.service.readableSpace('body.spaceId', spaceId, organizationId, userId);
      const view = deps.view(site, userId);
      if (sectionId !== undefined && !view.sections().some((section) => section.id === sectionId)) {
        throw badRequest(`body.sectionId must be a section of site ${siteId}; ${sectionId} is not`);
      }
      // Absent: the default section, or the root of a site without sections.
      const container = sectionId ?? view.defaultSectionId() ?? null;
      const id = deps.db.transaction(() =>
        deps.service.addSiteSpace(siteId, container, space, deps.now()),
      )();
      const answer = present(organizationId, siteId, id, userId);
      return reply
        .code(201)
        .header(
          'location',
          deps.urls.api(`/orgs/${organizationId}/sites/${siteId}/site-spaces/${id}`),
        )
        .send(answer);
    },
  );

  app.patch(
    `${BASE}/:siteSpaceId`,
    {
      schema: {
        params: SiteSpaceParams,
        body: UpdateSiteSpaceBody,
        response: { 200: SiteSpaceSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSpaceId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      const row = requireSiteSpace(siteId, siteSpaceId);
      const { path, condition } = request.body;
      if (path !== undefined && path !== row.ss_path) {
        if (structure.siteSpacePaths(siteId, row.ss_section_id).has(path)) {
          throw conflict(
            `body.path ${path} is already used by another site space ${
              row.ss_section_id
                ? `of section ${row.ss_section_id}`
                : `at the root of site ${siteId}`
            }`,
          );
        }
      }
      structure.updateSiteSpace(siteSpaceId, { path, condition });
      return present(organizationId, siteId, siteSpaceId, userId);
    },
  );

  app.delete(
    `${BASE}/:siteSpaceId`,
    { schema: { params: SiteSpaceParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'create');
      requireSiteSpace(siteId, siteSpaceId);
      structure.deleteSiteSpace(siteSpaceId);
      return reply.code(205).send(undefined);
    },
  );

  app.post(
    `${BASE}/:siteSpaceId/move`,
    {
      schema: {
        params: SiteSpaceParams,
        body: MoveSiteSpaceBody,
        response: { 200: SiteSpaceSchema, ...errorResponses },
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSpaceId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      const row = requireSiteSpace(siteId, siteSpaceId);
      const { before, after } = request.body.position ?? {};
      // Site spaces move within their own section (or the root); pointers must be there too.
      const order = placeAmong(
        structure.siteSpaceIdsIn(siteId, row.ss_section_id),
        siteSpaceId,
        { before: before?.siteSpace, after: after?.siteSpace },
        row.ss_section_id ? `section ${row.ss_section_id}` : `the root of site ${siteId}`,
      );
      deps.db.transaction(() => {
        structure.renumber(order.map((id) => ({ kind: 'site-space' as const, id })));
      })();
      return present(organizationId, siteId, siteSpaceId, userId);
    },
  );
}
