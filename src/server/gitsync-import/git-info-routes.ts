import { Type } from '@sinclair/typebox';
import { notFound } from '../http/api-error';
import { callerOf } from '../http/authenticate';
import { errorResponses } from '../http/common-schemas';
import type { TypedApp } from '../http/typed-app';
import { SpaceParams } from '../resources/spaces/space-schema';
import type { ServerContext } from '../server-context';
import { GitSyncQueries, type GitSyncStateRow } from './git-sync-queries';

const GitSyncStateSchema = Type.Object({
  repoName: Type.Optional(Type.String()),
  installationStatus: Type.Literal('active'),
  installationProvider: Type.Union([Type.Literal('github'), Type.Literal('gitlab')]),
  installationId: Type.String(),
  url: Type.Optional(Type.String()),
  operation: Type.Object({
    state: Type.Union(
      ['running', 'failure', 'success', 'timeout'].map((state) => Type.Literal(state)),
    ),
    direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
    startedAt: Type.String(),
    endedAt: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
  }),
  updatedAt: Type.String(),
});

/**
 * Published `GET /v1/spaces/{spaceId}/git/info` (getSpaceGitInfo). This server hosts no Git
 * provider: a space has Git Sync state once it was imported from (or exported to) a repository
 * URL (`POST …/git/import`), and the state is that operation's; any other space answers 404 as
 * the published API does for a space without Git Sync (after the usual access check).
 */
export function gitInfoRoutes(app: TypedApp, ctx: ServerContext): void {
  const queries = new GitSyncQueries(ctx.db);
  app.get(
    '/v1/spaces/:spaceId/git/info',
    { schema: { params: SpaceParams, response: { 200: GitSyncStateSchema, ...errorResponses } } },
    async (request) => {
      const { spaceId } = request.params;
      ctx.access.requireSpace(callerOf(request).userId, spaceId, 'read');
      const state = queries.state(spaceId);
      if (!state) {
        throw notFound(
          `Git Sync configuration of space ${spaceId} (this server has no Git provider; ` +
            'bring a repository in with POST …/git/import or …/git/import-archive)',
        );
      }
      return presentState(state);
    },
  );
}

function presentState(row: GitSyncStateRow): typeof GitSyncStateSchema.static {
  const name = new URL(row.repo_url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return {
    ...(name ? { repoName: name } : {}),
    installationStatus: 'active',
    installationProvider: row.provider,
    installationId: `quire-url:${row.space_id}`,
    url: row.tree_url ?? row.repo_url,
    operation: {
      state: row.state,
      direction: row.direction,
      startedAt: row.started_at,
      ...(row.ended_at ? { endedAt: row.ended_at } : {}),
      ...(row.error ? { error: row.error } : {}),
    },
    updatedAt: row.updated_at,
  };
}
