import { Type } from '@sinclair/typebox';
import { GITBOOK_CONFIG_LIMITS, readGitBookConfig } from '../../shared/gitsync/gitbook-config';
import { badRequest, notFound } from '../http/api-error';
import { callerOf } from '../http/authenticate';
import { errorResponses } from '../http/common-schemas';
import type { TypedApp } from '../http/typed-app';
import { SpaceParams } from '../resources/spaces/space-schema';
import type { ServerContext } from '../server-context';
import { GitSyncConfigStore } from './gitsync-config-store';

const GitConfigSchema = Type.Object({
  text: Type.String(),
  root: Type.String(),
  structure: Type.Object({ readme: Type.String(), summary: Type.String() }),
  redirects: Type.Record(Type.String(), Type.String()),
});

const PutGitConfigBody = Type.Object({
  text: Type.String({ maxLength: GITBOOK_CONFIG_LIMITS.maxBytes }),
});

/**
 * Quire extension: `GET /v1/spaces/{spaceId}/git/config` answers the space's `.gitbook.yaml`
 * (the text as written, and the root, structure and redirects read from it; 404 when the space
 * has none), `PUT` replaces it with `{ text }` (read and bounded as an import reads it; 400 naming
 * the key otherwise). An import's configuration becomes the space's when its change request is
 * merged. The desktop mirror writes the text back into the space folder and pushes local edits.
 */
export function gitConfigRoutes(app: TypedApp, ctx: ServerContext): void {
  const store = new GitSyncConfigStore(ctx.db);
  app.get(
    '/v1/spaces/:spaceId/git/config',
    { schema: { params: SpaceParams, response: { 200: GitConfigSchema, ...errorResponses } } },
    async (request) => {
      const { spaceId } = request.params;
      ctx.access.requireSpace(callerOf(request).userId, spaceId, 'read');
      const config = store.ofSpace(spaceId);
      if (config === undefined) throw notFound(`.gitbook.yaml of space ${spaceId}`);
      return config;
    },
  );
  app.put(
    '/v1/spaces/:spaceId/git/config',
    {
      schema: {
        params: SpaceParams,
        body: PutGitConfigBody,
        response: { 200: GitConfigSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      ctx.access.requireSpace(userId, spaceId, 'edit');
      const { text } = request.body;
      const config = readGitBookConfig(text);
      if ('problem' in config) throw badRequest(`body.text: .gitbook.yaml ${config.problem}`);
      const now = ctx.clock.now().toISOString();
      store.put({ spaceId, changeRequestId: null }, text, config, userId, now);
      return store.ofSpace(spaceId)!;
    },
  );
}
