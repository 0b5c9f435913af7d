import type { Db } from '../../db/open-database';
import { notFound } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses } from '../../http/common-schemas';
import { listEnvelope, paginate } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { serializeUser, type UserRow } from '../users/user-serializer';
import {
  ChangeRequestQueries,
  type ChangeRequestRow,
  type ChangeRequestStatus,
} from './change-request-queries';
import { ChangeRequestParams } from './change-request-schema';
import { ChangeRequestSchema, presentChangeRequest } from './change-request-serializer';
import {
  ContributorSchema,
  ListOrgChangeRequestsQuery,
  OrgChangeRequestParams,
} from './change-request-org-schema';
import { orgChangeRequestsQuery } from './org-change-request-queries';

interface ContributorRow extends UserRow {
  action: 'edit' | 'comment';
  n: number;
  last: string;
}

/**
 * Edit contributors come from the contributor table, which records who edited but not how often
 * nor when: each counts once, at the change request's last update. Comment contributors count
 * their comments and replies on the change request.
 */
function contributorRows(db: Db, row: ChangeRequestRow): ContributorRow[] {
  return db
    .prepare<{ cr: string; updated: string }, ContributorRow>(
      `SELECT u.id, u.display_name, u.email, u.photo_url, x.action, x.n, x.last FROM (
         SELECT user_id, 'edit' AS action, 1 AS n, @updated AS last
           FROM change_request_contributors WHERE change_request_id = @cr
         UNION ALL
         SELECT posted_by, 'comment', count(*), max(posted_at) FROM (
           SELECT posted_by, posted_at FROM comments WHERE change_request_id = @cr
           UNION ALL
           SELECT r.posted_by, r.posted_at FROM comment_replies r
             JOIN comments c ON c.id = r.comment_id WHERE c.change_request_id = @cr)
         GROUP BY posted_by
       ) x JOIN users u ON u.id = x.user_id
       ORDER BY x.last DESC, x.action DESC, u.id`,
    )
    .all({ cr: row.id, updated: row.updated_at });
}

/**
 * The organization-wide change-request list (`GET /v1/orgs/{id}/change-requests`) and a change
 * request's contributors. Another organization, or one the caller is not in, is a 404; a
 * guest sees the change requests of the spaces granted to them only.
 */
export function changeRequestOrgRoutes(app: TypedApp, ctx: ServerContext): void {
  const { access, db, urls } = ctx;
  const queries = new ChangeRequestQueries(db);

  app.get(
    '/v1/orgs/:organizationId/change-requests',
    {
      schema: {
        params: OrgChangeRequestParams,
        querystring: ListOrgChangeRequestsQuery,
        response: { 200: ListSchema(ChangeRequestSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const membership = access.requireOrg(userId, organizationId);
      const query = request.query;
      // No site topics or style-guide runs exist here: nothing is linked to one.
      if (query.topic ?? query.styleguideRun) return listEnvelope([], undefined, 0);
      const page = paginate<ChangeRequestRow>(
        db,
        orgChangeRequestsQuery({
          organizationId,
          userId,
          guest: membership.role === null,
          statuses: [...new Set<ChangeRequestStatus>(query.status ?? ['open'])],
          space: query.space,
          site: query.site,
          creator: query.creator,
          contributor: query.contributor,
          requestedReviewer: query.requestedReviewer,
          orderBy: query.orderBy ?? 'updatedAt',
        }),
        query,
      );
      return listEnvelope(
        page.rows.map((row) => presentChangeRequest(queries, row, urls)),
        page.next,
        page.count,
      );
    },
  );

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/contributors',
    {
      schema: {
        params: ChangeRequestParams,
        response: { 200: ListSchema(ContributorSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      access.requireSpace(callerOf(request).userId, spaceId, 'read');
      const row = queries.find(spaceId, changeRequestId);
      if (!row) throw notFound(`Change request ${changeRequestId}`);
      const items = contributorRows(db, row).map((item) => ({
        user: serializeUser(item, urls),
        count: item.n,
        updatedAt: item.last,
        actionType: item.action,
      }));
      // Published without `page`/`limit`: every contributor in one answer.
      return listEnvelope(items, undefined, items.length);
    },
  );
}
