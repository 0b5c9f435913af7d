import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { ApiError, badRequest, forbidden } from '../http/api-error';
import { callerOf } from '../http/authenticate';
import { errorResponses } from '../http/common-schemas';
import type { TypedApp } from '../http/typed-app';
import { ChangeRequestMerger } from '../resources/change-requests/change-request-merge';
import { ChangeRequestQueries } from '../resources/change-requests/change-request-queries';
import {
  ChangeRequestSchema,
  presentChangeRequest,
} from '../resources/change-requests/change-request-serializer';
import { SubjectSchema } from '../resources/change-requests/change-request-schema';
import { SpaceParams } from '../resources/spaces/space-schema';
import type { ServerContext } from '../server-context';
import { CpuJobError } from '../workers/cpu-pool';
import { ArchiveEntryError, DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-limits';
import type { ArchiveCollector } from './archive-collector';
import { addPageFields } from './add-page-fields';
import type { ImportPlan, PlannedPage } from './plan-import-tree';
import { readArchive, type ArchiveFormat } from './read-archive';
import { storeImport } from './store-import';

const FORMATS: Readonly<Record<string, ArchiveFormat>> = {
  'application/x-tar': 'tar',
  'application/tar': 'tar',
  'application/zip': 'zip',
};

const ImportArchiveQuery = Type.Object({
  subject: Type.Optional(SubjectSchema),
  merge: Type.Optional(Type.Boolean()),
});

const ImportProblemSchema = Type.Object({
  path: Type.String(),
  message: Type.String(),
  line: Type.Optional(Type.Number()),
});

const ImportArchiveResponse = Type.Object({
  changeRequest: ChangeRequestSchema,
  revision: Type.String(),
  merged: Type.Boolean(),
  pages: Type.Number(),
  files: Type.Number(),
  redirects: Type.Number(),
  problems: Type.Array(ImportProblemSchema),
});

/**
 * Quire extension: `POST /v1/spaces/{spaceId}/git/import-archive` imports a whole Git Sync layout
 * uploaded as a tar or zip (raw body, streamed) into one revision of a new change request, left
 * open for review or merged with `merge=true`. Every entry is checked before anything is stored:
 * the first one refused answers 400 naming it, and nothing is written.
 */
export function importArchiveRoutes(
  app: TypedApp,
  ctx: ServerContext,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): void {
  // Left unread by Fastify: the handler streams `request.raw` itself (never buffered whole).
  for (const type of Object.keys(FORMATS)) {
    app.addContentTypeParser(type, (_request, _payload, done) => done(null, undefined));
  }
  const queries = new ChangeRequestQueries(ctx.db);
  const merger = new ChangeRequestMerger(ctx);

  app.post(
    '/v1/spaces/:spaceId/git/import-archive',
    {
      // A declared Content-Length is checked against the archive's own limit, not the JSON one.
      bodyLimit: limits.maxArchiveBytes,
      schema: {
        params: SpaceParams,
        querystring: ImportArchiveQuery,
        response: { 201: ImportArchiveResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request);
      const { spaceId } = request.params;
      const merge = request.query.merge === true;
      ctx.access.requireSpace(userId, spaceId, merge ? 'review' : 'edit');
      const type =
        String(request.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim() ?? '';
      const format = FORMATS[type.toLowerCase()];
      if (format === undefined) {
        throw new ApiError(
          415,
          'the body must be a Git Sync folder as application/x-tar or application/zip',
        );
      }
      const collector = await collect(format, request.raw, limits);
      try {
        const plan = await planOf(ctx, collector);
        if ('refused' in plan) {
          throw badRequest(`body: ${plan.refused.path} ${plan.refused.message}`);
        }
        const stored = await storeImport(ctx, {
          spaceId,
          userId,
          subject: request.query.subject ?? 'Import from Git Sync',
          pages: plan.pages,
          files: plan.files,
          spooled: collector.assets,
          ...(plan.configText === undefined
            ? {}
            : { gitbookConfig: { text: plan.configText, config: plan.config } }),
        });
        let merged = false;
        let { row, revision } = stored;
        if (merge) {
          const bodies = await merger.prepare(row, 'merge');
          const outcome = ctx.db.transaction(() => {
            if (queries.spaceEditMode(spaceId) === 'locked') {
              throw forbidden(`Space ${spaceId} is locked: the import is left open for review`);
            }
            return merger.merge(queries.find(spaceId, row.id)!, userId, now(ctx), bodies);
          })();
          merged = outcome.result === 'merge';
          if (merged) revision = outcome.revision;
          row = queries.find(spaceId, row.id)!;
        }
        return reply.code(201).send({
          changeRequest: presentChangeRequest(queries, row, ctx.urls),
          revision,
          merged,
          pages: countPages(plan.pages),
          files: plan.files.length,
          redirects: Object.keys(plan.config.redirects).length,
          problems: plan.problems,
        });
      } finally {
        await collector.dispose();
      }
    },
  );
}

const now = (ctx: ServerContext) => ctx.clock.now().toISOString();

/** The archive's entries; a refused entry or an unreadable archive is a 400. */
async function collect(
  format: ArchiveFormat,
  body: Readable,
  limits: ArchiveLimits,
): Promise<ArchiveCollector> {
  try {
    return await readArchive(format, body, limits);
  } catch (error) {
    if (error instanceof ArchiveEntryError) throw badRequest(`body: ${error.message}`);
    if (error instanceof ApiError) throw error;
    throw badRequest(`body is not a readable ${format} archive`);
  }
}

async function planOf(ctx: ServerContext, collector: ArchiveCollector): Promise<ImportPlan> {
  const texts = [...collector.texts].map(([path, bytes]) => ({ path, bytes }));
  try {
    const plan = await ctx.cpu.run('gitsync-import-plan', {
      texts,
      assets: [...collector.assets.keys()],
    });
    if (!('refused' in plan)) await addPageFields(ctx.cpu, plan.pages, plan.problems);
    return plan;
  } catch (error) {
    throw error instanceof CpuJobError ? error.toApiError('The import') : error;
  }
}

function countPages(pages: readonly PlannedPage[]): number {
  return pages.reduce((sum, page) => sum + 1 + countPages(page.pages), 0);
}
