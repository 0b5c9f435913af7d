import { notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses } from '../../http/common-schemas';
import { listEnvelope, paginateArray } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { ChangeRequestQueries } from '../change-requests/change-request-queries';
import {
  ChangeRequestFileBacklinksParams,
  ChangeRequestPageLinksParams,
  ContentReferenceSchema,
  LinkItemSchema,
  LinkListSchema,
  PageOnlyQuery,
  SpaceLinksParams,
  SpaceLinksQuery,
} from './link-schema';
import { pageReference, serializeLink, type ReferenceScope } from './link-serializer';
import { LinkService, linkStats } from './link-service';
import type { RevisionLink } from './revision-links';

const linkKey = (link: RevisionLink) => link.key;

/**
 * Links computed from page Markdown: the space's live links, one change-request page's links and
 * a change-request file's backlinks. Nothing is fetched: outside URLs are listed, never checked.
 */
export function linkRoutes(app: TypedApp, ctx: ServerContext): void {
  const links = new LinkService(ctx);
  const changeRequests = new ChangeRequestQueries(ctx.db);

  /** The change request `{CR}` of a space the caller may read, with its revision's links. */
  const changeRequestLinks = async (userId: string, spaceId: string, ref: string) => {
    const { organizationId } = ctx.access.requireSpace(userId, spaceId, 'read');
    const changeRequest = changeRequests.find(spaceId, ref);
    if (!changeRequest) throw notFound(`Change request ${ref}`);
    const scope: ReferenceScope = { organizationId, spaceId, changeRequestId: changeRequest.id };
    return { changeRequest, scope, revision: await links.ofRevision(changeRequest.revision_id) };
  };

  app.get(
    '/v1/spaces/:spaceId/links',
    {
      schema: {
        params: SpaceLinksParams,
        querystring: SpaceLinksQuery,
        response: { 200: LinkListSchema(LinkItemSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId } = request.params;
      const { status } = request.query;
      const { organizationId } = ctx.access.requireSpace(callerOf(request).userId, spaceId, 'read');
      const all = (await links.ofRevision(links.liveRevision(spaceId))).links;
      const filtered = status ? all.filter((link) => link.status === status) : all;
      const page = paginateArray(
        filtered,
        linkKey,
        request.query,
        `links:${spaceId}:${status ?? ''}`,
      );
      const scope: ReferenceScope = { organizationId, spaceId };
      return {
        ...listEnvelope(
          page.items.map((link) => serializeLink(link, scope)),
          page.next,
          page.count,
        ),
        stats: linkStats(all, await links.brokenInChangeRequests(spaceId)),
      };
    },
  );

  const prefix = '/v1/spaces/:spaceId/change-requests/:changeRequestId/content';

  app.get(
    `${prefix}/page/:pageId/links`,
    {
      schema: {
        params: ChangeRequestPageLinksParams,
        querystring: PageOnlyQuery,
        response: { 200: LinkListSchema(LinkItemSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const { changeRequest, scope, revision } = await changeRequestLinks(
        callerOf(request).userId,
        spaceId,
        changeRequestId,
      );
      if (!revision.hasPage(pageId)) throw notFound(`Page ${pageId}`);
      const all = revision.ofPage(pageId);
      const page = paginateArray(
        all,
        linkKey,
        request.query,
        `cr-page-links:${changeRequest.id}:${pageId}`,
      );
      // Every link listed here is change-request content, so its broken ones are all counted.
      const broken = all.filter((link) => link.status === 'broken').length;
      return {
        ...listEnvelope(
          page.items.map((link) => serializeLink(link, scope)),
          page.next,
          page.count,
        ),
        stats: linkStats(all, broken),
      };
    },
  );

  app.get(
    `${prefix}/files/:fileId/backlinks`,
    {
      schema: {
        params: ChangeRequestFileBacklinksParams,
        querystring: PageOnlyQuery,
        response: { 200: ListSchema(ContentReferenceSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, fileId } = request.params;
      const { changeRequest, scope, revision } = await changeRequestLinks(
        callerOf(request).userId,
        spaceId,
        changeRequestId,
      );
      if (!revision.hasFile(fileId)) throw notFound(`File ${fileId}`);
      const page = paginateArray(
        revision.backlinksOfFile(fileId),
        (pageId) => pageId,
        request.query,
        `cr-file-backlinks:${changeRequest.id}:${fileId}`,
      );
      return listEnvelope(
        page.items.map((pageId) => pageReference(pageId, scope)),
        page.next,
        page.count,
      );
    },
  );
}
