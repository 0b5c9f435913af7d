import type { Role } from '../../auth/roles';
import { badRequest } from '../../http/api-error';
import { callerOf } from '../../http/authenticate';
import { ListSchema, errorResponses } from '../../http/common-schemas';
import { listEnvelope, paginateArray } from '../../http/paginate';
import type { TypedApp } from '../../http/typed-app';
import type { ServerContext } from '../../server-context';
import { ftsMatchExpression } from './fts-query';
import { SearchIndex } from './search-index';
import { groupHits, type SpaceInfo, type SpaceResult } from './search-results';
import { SearchParams, SearchQuery, SearchSpaceSchema } from './search-schema';

interface SearchSpaceRow {
  id: string;
  organization_id: string;
  title: string;
  default_level: Role | null;
  deleted_at: string | null;
  revision_id: string;
}

/** Zero-padded position: paginateArray needs keys that sort like the (ranked) list. */
const positionKey = (index: number) => String(index).padStart(10, '0');

/**
 * Organization search over the sections of the live content of every space the caller may read.
 * Spaces whose content changed since they were indexed are reindexed first, inside the request.
 */
export function searchRoutes(app: TypedApp, ctx: ServerContext): void {
  const index = new SearchIndex(ctx.db, ctx.cpu);
  const spacesStmt = ctx.db.prepare<[string], SearchSpaceRow>(
    `SELECT id, organization_id, title, default_level, deleted_at, revision_id
     FROM spaces WHERE organization_id = ? AND deleted_at IS NULL`,
  );

  app.get(
    '/v1/orgs/:organizationId/search',
    {
      schema: {
        params: SearchParams,
        querystring: SearchQuery,
        response: { 200: ListSchema(SearchSpaceSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { organizationId } = request.params;
      const { query } = request.query;
      ctx.access.requireOrg(userId, organizationId);
      if (query.trim() === '') throw badRequest('query.query must not be blank');

      const readable = spacesStmt
        .all(organizationId)
        .filter((space) => ctx.access.roleOnSpace(userId, space) !== null);
      const match = ftsMatchExpression(query);
      let results: SpaceResult[] = [];
      if (match !== null && readable.length > 0) {
        await index.refresh(readable);
        const spaces = new Map<string, SpaceInfo>(
          readable.map((space) => [
            space.id,
            { title: space.title, revisionId: space.revision_id },
          ]),
        );
        const hits = index.search(
          match,
          readable.map((space) => space.id),
        );
        results = groupHits(hits, spaces, (revisionId) => index.pages(revisionId), ctx.urls);
      }

      const keyed = results.map((result, i) => ({ key: positionKey(i), result }));
      const page = paginateArray(
        keyed,
        (item) => item.key,
        request.query,
        `search:${organizationId}:${userId}:${query}`,
      );
      return listEnvelope(
        page.items.map((item) => item.result),
        page.next,
        page.count,
      );
    },
  );
}
