import { Type } from '@sinclair/typebox';
import { badRequest } from '../http/api-error';
import { callerOf } from '../http/authenticate';
import { errorResponses, noContentResponses } from '../http/common-schemas';
import type { TypedApp } from '../http/typed-app';
import { refusedSourceUrl } from '../resources/openapi/source-address';
import { SpaceParams } from '../resources/spaces/space-schema';
import type { ServerContext } from '../server-context';
import { ArchiveEntryError } from './archive-limits';
import { checkEntryPath } from './check-entry-path';
import { GitSyncProcessor, type GitJobOptions } from './git-sync-processor';
import { GitSyncQueries, type GitSyncDirection } from './git-sync-queries';

const GitInfoBody = Type.Object({
  provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')])),
  url: Type.Optional(Type.String()),
});

/** The published ImportGitRepository body; ExportToGitRepository adds `commitMessage`. */
const repositoryFields = {
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  ref: Type.String({ minLength: 1, maxLength: 255 }),
  repoCacheID: Type.Optional(Type.String()),
  repoTreeURL: Type.Optional(Type.String()),
  repoCommitURL: Type.Optional(Type.String()),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024 })),
  timestamp: Type.Optional(Type.String()),
  force: Type.Optional(Type.Boolean()),
  standalone: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(GitInfoBody),
};
const ImportGitRepositoryBody = Type.Object(repositoryFields);
const ExportToGitRepositoryBody = Type.Object({
  ...repositoryFields,
  commitMessage: Type.String({ minLength: 1, maxLength: 10_000 }),
});

type RepositoryBody = typeof ImportGitRepositoryBody.static & { commitMessage?: string };

const processors = new WeakMap<ServerContext, GitSyncProcessor>();

/** The server's Git Sync processor (tests adjust its settings and wait on it). */
export function gitSyncProcessorFor(ctx: ServerContext): GitSyncProcessor {
  const processor = processors.get(ctx);
  if (!processor) throw new Error('The Git Sync routes are not registered on this server');
  return processor;
}

/**
 * Published `POST /v1/spaces/{spaceId}/git/import` and `…/git/export`: checked and queued, 204
 * at once; GitSyncProcessor does the work and `GET …/git/info` reports it. An import updates
 * the space (a change request merged at once, which needs the `review` role) unless
 * `standalone`, which leaves its change request open (`edit` role).
 */
export function gitSyncRoutes(app: TypedApp, ctx: ServerContext): void {
  const processor = new GitSyncProcessor(ctx, (error) =>
    app.log.error({ err: error }, 'Git Sync failed unexpectedly'),
  );
  processors.set(ctx, processor);
  app.addHook('onReady', (done) => {
    processor.start();
    done();
  });
  app.addHook('preClose', (done) => {
    void processor.stop().then(() => done());
  });
  const queries = new GitSyncQueries(ctx.db);

  const queue = (
    direction: GitSyncDirection,
    spaceId: string,
    userId: string,
    body: RepositoryBody,
  ) => {
    const target = repositoryUrl(body.url);
    const refused = refusedSourceUrl(
      target.clean,
      {
        allowPrivate: ctx.config.allowPrivateUrls,
        allowedAddresses: processor.settings.allowedAddresses,
      },
      'body.url',
    );
    if (refused) throw refused;
    if (!/^(refs\/(heads|tags)\/)?[^\s~^:?*[\\]+$/.test(body.ref) || body.ref.includes('..')) {
      throw badRequest('body.ref must be a Git ref such as "refs/heads/main"');
    }
    const projectDirectory = projectDirectoryOf(body.repoProjectDirectory);
    const options: GitJobOptions = {
      ...(projectDirectory ? { repoProjectDirectory: projectDirectory } : {}),
      ...(body.standalone !== undefined ? { standalone: body.standalone } : {}),
      ...(body.commitMessage !== undefined ? { commitMessage: body.commitMessage } : {}),
      ...(body.force !== undefined ? { force: body.force } : {}),
    };
    const id = queries.enqueue(
      {
        spaceId,
        userId,
        direction,
        url: target.clean,
        hasCredentials: target.hasCredentials,
        ref: body.ref,
        options: { ...options },
        provider: body.gitInfo?.provider ?? providerOf(target.clean),
        treeUrl: body.gitInfo?.url ?? body.repoTreeURL,
      },
      ctx.clock.now().toISOString(),
    );
    if (target.hasCredentials) processor.rememberSecretUrl(id, body.url);
    processor.wake();
  };

  app.post(
    '/v1/spaces/:spaceId/git/import',
    {
      schema: {
        params: SpaceParams,
        body: ImportGitRepositoryBody,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      ctx.access.requireSpace(
        userId,
        spaceId,
        request.body.standalone === true ? 'edit' : 'review',
      );
      queue('import', spaceId, userId, request.body);
      return reply.code(204).send(undefined);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/git/export',
    {
      schema: {
        params: SpaceParams,
        body: ExportToGitRepositoryBody,
        response: { ...noContentResponses, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      ctx.access.requireSpace(userId, spaceId, 'edit');
      queue('export', spaceId, userId, request.body);
      return reply.code(204).send(undefined);
    },
  );
}

/** The URL without its credentials (what is stored and shown), and whether it had some. */
function repositoryUrl(url: string): { clean: string; hasCredentials: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('body.url is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badRequest('body.url must be an http or https Git URL (SSH is not supported)');
  }
  const hasCredentials = parsed.username !== '' || parsed.password !== '';
  parsed.username = '';
  parsed.password = '';
  return { clean: parsed.href, hasCredentials };
}

/** A clean folder path inside the repository ('' for its root); `..` and the like are a 400. */
function projectDirectoryOf(path: string | undefined): string {
  const trimmed = (path ?? '').replace(/^[./]+$/, '').replace(/^\/+/, '');
  if (trimmed === '') return '';
  try {
    return checkEntryPath(trimmed);
  } catch (error) {
    if (!(error instanceof ArchiveEntryError)) throw error;
    throw badRequest(`body.repoProjectDirectory ${error.reason}`);
  }
}

function providerOf(url: string): 'github' | 'gitlab' {
  return new URL(url).hostname.includes('gitlab') ? 'gitlab' : 'github';
}
