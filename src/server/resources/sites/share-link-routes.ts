import { randomBytes } from 'node:crypto';
import { notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { errorResponses, noContentResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { Urls } from '../../http/urls';
import { newId } from '../../ids';
import type { ShareLinkRow } from './share-link-queries';
import {
  CreateShareLinkBody,
  ListShareLinksQuery,
  ShareLinkListSchema,
  ShareLinkParams,
  ShareLinkSchema,
  UpdateShareLinkBody,
} from './share-link-schema';
import { requireSite } from './site-access';
import type { SiteDeps } from './site-deps';
import { SiteParams } from './site-schema';
import { SiteUrls } from './site-urls';

/** The ShareLink resource; its published address carries the secret. */
function serializeShareLink(row: ShareLinkRow, organizationId: string, urls: Urls) {
  return {
    object: 'share-link' as const,
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: row.active === 1,
    urls: { published: new SiteUrls(urls, organizationId, row.site_id, row.share_key).published() },
  };
}

/**
 * Share links of a site. Every operation takes the admin role: a link's address is a secret
 * that opens the site to whoever holds it. An inactive link stops opening it (see readSite).
 */
export function shareLinkRoutes(app: TypedApp, deps: SiteDeps): void {
  const { shareLinks, urls } = deps;
  const BASE = '/v1/orgs/:organizationId/sites/:siteId/share-links';

  const requireLink = (siteId: string, id: string): ShareLinkRow => {
    const row = shareLinks.get(siteId, id);
    if (!row) throw notFound(`Share link ${id}`);
    return row;
  };

  app.get(
    BASE,
    {
      schema: {
        params: SiteParams,
        querystring: ListShareLinksQuery,
        response: { 200: ShareLinkListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'admin');
      const page = paginate<ShareLinkRow>(deps.db, shareLinks.listQuery(siteId), request.query);
      return listEnvelope(
        page.rows.map((row) => serializeShareLink(row, organizationId, urls)),
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
        body: CreateShareLinkBody,
        response: { 201: ShareLinkSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'admin');
      const row: ShareLinkRow = {
        id: newId(),
        site_id: siteId,
        name: request.body.name,
        // 144 random bits: the key is the whole of the link's protection.
        share_key: randomBytes(18).toString('base64url'),
        active: 1,
        created_at: deps.now(),
      };
      shareLinks.insert(row);
      return reply
        .code(201)
        .header(
          'location',
          urls.api(`/orgs/${organizationId}/sites/${siteId}/share-links/${row.id}`),
        )
        .send(serializeShareLink(row, organizationId, urls));
    },
  );

  // Not in the spec's table, but the address a creation's Location header names must answer.
  app.get(
    `${BASE}/:shareLinkId`,
    { schema: { params: ShareLinkParams, response: { 200: ShareLinkSchema, ...errorResponses } } },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'admin');
      return serializeShareLink(requireLink(siteId, shareLinkId), organizationId, urls);
    },
  );

  app.patch(
    `${BASE}/:shareLinkId`,
    {
      schema: {
        params: ShareLinkParams,
        body: UpdateShareLinkBody,
        response: { 200: ShareLinkSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'admin');
      requireLink(siteId, shareLinkId);
      shareLinks.update(shareLinkId, request.body);
      return serializeShareLink(requireLink(siteId, shareLinkId), organizationId, urls);
    },
  );

  app.delete(
    `${BASE}/:shareLinkId`,
    { schema: { params: ShareLinkParams, response: { ...noContentResponses, ...errorResponses } } },
    async (request, reply) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      requireSite(deps, callerOf(request).userId, organizationId, siteId, 'admin');
      requireLink(siteId, shareLinkId);
      shareLinks.delete(shareLinkId);
      return reply.code(205).send(undefined);
    },
  );
}
