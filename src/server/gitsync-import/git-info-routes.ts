import { notFound } from '../http/api-error';
import { callerOf } from '../http/authenticate';
import { errorResponses } from '../http/common-schemas';
import type { TypedApp } from '../http/typed-app';
import { SpaceParams } from '../resources/spaces/space-schema';
import type { ServerContext } from '../server-context';

/**
 * Published `GET /v1/spaces/{spaceId}/git/info` (getSpaceGitInfo): the space's Git Sync
 * installation. This server hosts no Git provider, so no space has one: 404 as the published API
 * answers for a space without Git Sync (after the usual access check: 404/403 for the space).
 */
export function gitInfoRoutes(app: TypedApp, ctx: ServerContext): void {
  app.get(
    '/v1/spaces/:spaceId/git/info',
    { schema: { params: SpaceParams, response: { ...errorResponses } } },
    async (request) => {
      const { spaceId } = request.params;
      ctx.access.requireSpace(callerOf(request).userId, spaceId, 'read');
      throw notFound(
        `Git Sync configuration of space ${spaceId} (this server has no Git provider; ` +
          'bring a repository in with POST …/git/import-archive)',
      );
    },
  );
}
