import { Type } from '@sinclair/typebox';
import { badRequest, notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses, PageQuerySchema } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import { newId } from '../../ids';
import { requireSite } from './site-access';
import type { SiteDeps } from './site-deps';
import { layOutSite, siblingsIn } from './site-layout';
import { placeAmong } from './site-order';
import { SiteParams } from './site-schema';
import type { GroupRow } from './structure-queries';
import {
  AddGroupBody,
  AddGroupSectionBody,
  GroupParams,
  GroupSectionParams,
  MoveGroupBody,
  SiteSectionGroupListSchema,
  SiteSectionGroupSchema,
  UpdateGroupBody,
} from './structure-schema';

/**
 * Section groups: named sets of a site's sections, placed among the sections at its top level.
 * Members with a role read them; changes take the create role. Deleting a group keeps its
 * sections (they return to the top level).
 */
export function sectionGroupRoutes(app: TypedApp, deps: SiteDeps): void {
  const { structure } = deps;
  const BASE = '/v1/orgs/:organizationId/sites/:siteId/section-groups';

  const requireGroup = (siteId: string, groupId: string): GroupRow => {
    const group = structure.group(siteId, groupId);
    if (!group) throw notFound(`Site section group ${groupId}`);
    return group;
  };

  const present = (organizationId: string, siteId: string, groupId: string, userId: string) => {
    const { site } = requireSite(deps, userId, organizationId, siteId);
    return deps.view(site, userId).group(requireGroup(siteId, groupId));
  };

  /** Section ids named in a body must be sections of the site; else 400 naming the field. */
  const requireSections = (siteId: string, field: string, ids: readonly string[]) => {
    const known = new Set(structure.sections(siteId).map((section) => section.id));
    ids.forEach((id, index) => {
      if (!known.has(id)) {
        const name = ids.length === 1 && field === 'body.sectionId' ? field : `${field}.${index}`;
        throw badRequest(`${name} must be a section of site ${siteId}; ${id} is not`);
      }
    });
  };

  app.get(
    BASE,
    {
      schema: {
        params: SiteParams,
        querystring: Type.Object(PageQuerySchema),
        response: { 200: SiteSectionGroupListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      const { site } = requireSite(deps, userId, organizationId, siteId);
      const page = paginate<GroupRow>(deps.db, structure.groupListQuery(siteId), request.query);
      const view = deps.view(site, userId);
      return listEnvelope(
        page.rows.map((row) => view.group(row)),
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
        body: AddGroupBody,
        response: { 201: SiteSectionGroupSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      const { title, icon, sections = [] } = request.body;
      requireSections(siteId, 'body.sections', sections);
      const id = newId();
      deps.db.transaction(() => {
        structure.insertGroup({
          id,
          site_id: siteId,
          title,
          icon: icon ?? null,
          position: structure.endPosition(siteId),
          created_at: deps.now(),
        });
        structure.setSectionGroup(sections, id);
        layOutSite(deps, siteId, new Map([[id, sections]]));
      })();
      const answer = present(organizationId, siteId, id, userId);
      return reply
        .code(201)
        .header(
          'location',
          deps.urls.api(`/orgs/${organizationId}/sites/${siteId}/section-groups/${id}`),
        )
        .send(answer);
    },
  );

  app.patch(
    `${BASE}/:siteSectionGroupId`,
    {
      schema: {
        params: GroupParams,
        body: UpdateGroupBody,
        response: { 200: SiteSectionGroupSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      requireGroup(siteId, siteSectionGroupId);
      structure.updateGroup(siteSectionGroupId, request.body);
      return present(organizationId, siteId, siteSectionGroupId, userId);
    },
  );

  app.delete(
    `${BASE}/:siteSectionGroupId`,
    { schema: { params: GroupParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'create');
      requireGroup(siteId, siteSectionGroupId);
      // Its sections take the group's place at the top level, in their order.
      const top = siblingsIn(deps, siteId, null).flatMap((item) =>
        item.id === siteSectionGroupId
          ? siblingsIn(deps, siteId, item.id).map((child) => child.id)
          : [item.id],
      );
      deps.db.transaction(() => {
        structure.deleteGroup(siteSectionGroupId);
        layOutSite(deps, siteId, new Map([[null, top]]));
      })();
      return reply.code(205).send(undefined);
    },
  );

  app.post(
    `${BASE}/:siteSectionGroupId/sections`,
    {
      schema: {
        params: GroupParams,
        body: AddGroupSectionBody,
        response: { 201: SiteSectionGroupSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      requireGroup(siteId, siteSectionGroupId);
      const { sectionId } = request.body;
      requireSections(siteId, 'body.sectionId', [sectionId]);
      // It joins the end of the group.
      const children = siblingsIn(deps, siteId, siteSectionGroupId)
        .map((item) => item.id)
        .filter((id) => id !== sectionId);
      deps.db.transaction(() => {
        structure.setSectionGroup([sectionId], siteSectionGroupId);
        layOutSite(deps, siteId, new Map([[siteSectionGroupId, [...children, sectionId]]]));
      })();
      return reply.code(201).send(present(organizationId, siteId, siteSectionGroupId, userId));
    },
  );

  app.delete(
    `${BASE}/:siteSectionGroupId/sections/:siteSectionId`,
    {
      schema: {
        params: GroupSectionParams,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'create');
      requireGroup(siteId, siteSectionGroupId);
      const section = structure.section(siteId, siteSectionId);
      if (!section || section.section_group_id !== siteSectionGroupId) {
        throw notFound(`Section ${siteSectionId} in section group ${siteSectionGroupId}`);
      }
      // The section stays in the site, at the top level just after the group.
      const top = siblingsIn(deps, siteId, null).flatMap((item) =>
        item.id === siteSectionGroupId ? [item.id, siteSectionId] : [item.id],
      );
      deps.db.transaction(() => {
        structure.setSectionGroup([siteSectionId], null);
        layOutSite(deps, siteId, new Map([[null, top]]));
      })();
      return reply.code(205).send(undefined);
    },
  );

  app.post(
    `${BASE}/:siteSectionGroupId/move`,
    {
      schema: {
        params: GroupParams,
        body: MoveGroupBody,
        response: { 200: SiteSectionGroupSchema, ...errorResponses },
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      requireSite(deps, userId, organizationId, siteId, 'create');
      requireGroup(siteId, siteSectionGroupId);
      const { before, after } = request.body.position ?? {};
      // Groups live at the top level, among ungrouped sections and other groups.
      const siblings = siblingsIn(deps, siteId, null);
      const order = placeAmong(
        siblings.map((item) => item.id),
        siteSectionGroupId,
        { before: before?.id, after: after?.id },
        `the top level of site ${siteId}`,
      );
      deps.db.transaction(() => layOutSite(deps, siteId, new Map([[null, order]])))();
      return present(organizationId, siteId, siteSectionGroupId, userId);
    },
  );
}
