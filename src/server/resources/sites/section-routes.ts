import { badRequest, conflict, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import { readSite, requireSite } from './site-access';
import type { SiteDeps } from './site-deps';
import { layOutSite, siblingsIn } from './site-layout';
import { placeAmong } from './site-order';
import { SiteParams } from './site-schema';
import type { SectionRow } from './structure-queries';
import {
  AddSectionBody,
  MoveSectionBody,
  SectionParams,
  SharedListQuery,
  SiteSectionListSchema,
  SiteSectionSchema,
  UpdateSectionBody,
} from './structure-schema';

/**
 * Site sections. Visitors who may read the site list them; adding, changing, moving and
 * deleting take the create role (managing the site's content structure).
 */
export function sectionRoutes(app: TypedApp, deps: SiteDeps): void {
  const { structure } = deps;
  const BASE = '/v1/orgs/:organizationId/sites/:siteId/sections';

  const requireSection = (siteId: string, sectionId: string): SectionRow => {
    const section = structure.section(siteId, sectionId);
    if (!section) throw notFound(`Site section ${sectionId}`);
    return section;
  };

  /** The section as the caller sees it now (after a change). */
  const present = (organizationId: string, siteId: string, sectionId: string, userId: string) => {
    const { site } = requireSite(deps, userId, organizationId, siteId);
    return deps.view(site, userId).section(requireSection(siteId, sectionId));
  };

  app.get(
    BASE,
    {
      schema: {
        params: SiteParams,
        querystring: SharedListQuery,
        response: { 200: SiteSectionListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { shareKey, ...pageQuery } = request.query;
      const { site } = readSite(deps, userId, organizationId, siteId, shareKey);
      const page = paginate<SectionRow>(deps.db, structure.sectionListQuery(siteId), pageQuery);
      const view = deps.view(site, userId, shareKey);
      return listEnvelope(
        page.rows.map((row) => view.section(row)),
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
        body: AddSectionBody,
        response: { 201: SiteSectionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { site } = requireSite(deps, userId, organizationId, siteId, 'create');
      const { spaceId, title } = request.body;
      const space = deps.service.readableSpace('body.spaceId', spaceId, organizationId, userId);
      const id = deps.db.transaction(() =>
        deps.service.addSection(site, title, space, deps.now()),
      )();
      const answer = present(organizationId, siteId, id, userId);
      return reply
        .code(201)
        .header('location', deps.urls.api(`/orgs/${organizationId}/sites/${siteId}/sections/${id}`))
        .send(answer);
    },
  );

  app.patch(
    `${BASE}/:siteSectionId`,
    {
      schema: {
        params: SectionParams,
        body: UpdateSectionBody,
        response: { 200: SiteSectionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      const { site } = requireSite(deps, userId, organizationId, siteId, 'create');
      requireSection(siteId, siteSectionId);
      const body = request.body;
      if (body.path !== undefined) {
        const clash = structure
          .sections(siteId)
          .find((other) => other.path === body.path && other.id !== siteSectionId);
        if (clash) {
          throw conflict(`body.path ${body.path} is already the path of section ${clash.id}`);
        }
      }
      const view = deps.view(site, userId);
      if (
        body.defaultSiteSpace !== undefined &&
        !view.siteSpaceIdsIn(siteSectionId).includes(body.defaultSiteSpace)
      ) {
        throw badRequest(
          `body.defaultSiteSpace must be a site space of section ${siteSectionId}; ${body.defaultSiteSpace} is not`,
        );
      }
      structure.updateSection(siteSectionId, {
        title: body.title,
        path: body.path,
        defaultSiteSpaceId: body.defaultSiteSpace,
        condition: body.condition,
        icon: body.icon,
        description: body.description,
      });
      return present(organizationId, siteId, siteSectionId, userId);
    },
  );

  app.delete(
    `${BASE}/:siteSectionId`,
    { schema: { params: SectionParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'create');
      requireSection(siteId, siteSectionId);
      // Its site spaces go with it; the spaces themselves stay.
      structure.deleteSection(siteSectionId);
      return reply.code(205).send(undefined);
    },
  );

  app.post(
    `${BASE}/:siteSectionId/move`,
    {
      schema: {
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSectionSchema, ...errorResponses },
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSectionId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      const moved = requireSection(siteId, siteSectionId);
      const { before, after } = request.body.position ?? {};
      const target = before ?? after;
      // A section goes where its neighbour is: into the neighbour's group, or the top level.
      const targetSection = target ? structure.section(siteId, target.siteSection) : undefined;
      const groupId = target ? (targetSection?.section_group_id ?? null) : moved.section_group_id;
      const siblings = siblingsIn(deps, siteId, groupId);
      const order = placeAmong(
        siblings.map((item) => item.id),
        siteSectionId,
        { before: before?.siteSection, after: after?.siteSection },
        groupId ? `section group ${groupId}` : `the top level of site ${siteId}`,
      );
      deps.db.transaction(() => {
        structure.setSectionGroup([siteSectionId], groupId);
        layOutSite(deps, siteId, new Map([[groupId, order]]));
      })();
      return present(organizationId, siteId, siteSectionId, userId);
    },
  );
}
